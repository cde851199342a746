"""``arbiter verify``: check a game folder from its public files, and after reveal, replay it.

Before reveal it checks what anyone can: the manifest, every chain link, that the public
log is exactly the chain's summaries, and that every state file is well formed and at the
head. After reveal it re-derives the seed from the commitment and the joins, re-checks
every signature, replays the game from scratch and compares every published byte,
naming the first entry that differs. The chain is streamed: memory does not grow with
the length of the game.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from arbiter.core import clocks, joins, verify_sealed, views
from arbiter.core import receipts as receipts_lib
from arbiter.core.canonical import parse_strict, pretty, sha256_hex
from arbiter.core.chain import check_line, entry_line, iter_chain, line_digest, time_of
from arbiter.core.deadlines import Terms, terms_of
from arbiter.core.errors import ArbiterError, NotReady, VerificationFailed
from arbiter.core.formats import (
    APPOINT_FORMAT,
    DEAL_FORMAT,
    JOIN_FOR_MANIFEST,
    JOIN_FORMAT,
    LEAVE_AUTO_FORMAT,
    ORDER_STEP_FORMAT,
    TIMEOUT_FORMAT,
)
from arbiter.core.gamedir import GameDir
from arbiter.core.ledger import Records, classify, load_manifest, seat_keys
from arbiter.core.publish import apply_record, apply_timeout
from arbiter.core.rng import commitment
from arbiter.core.safeio import MAX_BYTES, cut_short, lines, shown
from arbiter.core.schemas import validate
from arbiter.core.table import EntryLines, Table


@dataclass
class Report:
    """What ``verify`` checked."""

    game: str
    entries: int = 0
    decisions: int = 0
    signatures: int = 0
    revealed: bool = False
    replayed: bool = False
    status: str = "joining"
    checks: list[str] = field(default_factory=list)


class _LogReader:
    """Compare a published log with regenerated lines, one entry at a time."""

    def __init__(self, path: Path, data: bytes | None = None, root: Path | None = None):
        self.path = path
        self.root = root
        """The game folder, named in the hint when the log stops before the chain does."""
        if data is not None:  # a sealed log, decrypted
            self.handle: IO[bytes] | None = io.BytesIO(data)
            return
        # Binary lines: the buffer has a fixed size whatever the file's length.
        try:
            self.handle = open(path, "rb")  # noqa: SIM115 (closed by finish)
        except FileNotFoundError:
            raise VerificationFailed(f"{path} is missing") from None

    def expect(self, lines: list[str], where: str) -> None:
        """Read ``lines`` next, or raise naming the first line that differs."""
        if lines:
            self.expect_block(_block(lines), lines, where)

    def expect_block(self, block: bytes, lines: list[str], where: str) -> None:
        """Read ``block`` (``lines`` joined, each ending in a newline) next, or explain.

        One read and one comparison per entry keeps replays fast; only a mismatch
        goes over the lines one by one to name the first that differs.
        """
        assert self.handle is not None
        found = self.handle.read(len(block))
        if found == block:
            return
        if found and not found.endswith(b"\n"):
            found += self.handle.readline(MAX_BYTES)  # the rest of the last line read
        # Split as readline does (on newlines only), keeping each line's newline.
        got = [part + b"\n" for part in found.split(b"\n")]
        got[-1] = got[-1][:-1]  # after the last newline: a line without one, or nothing
        for index, expected in enumerate(lines):
            line = got[index] if index < len(got) else b""
            if line != expected.encode() + b"\n":
                if not line and self.root is not None:
                    # The file stops where the chain goes on: a write that did not finish.
                    before = (
                        f"entry #{where.removeprefix('at entry #')} of the chain"
                        if where.startswith("at entry #")
                        else where.removeprefix("in ")
                    )
                    raise VerificationFailed(
                        f"{self.path} ends before {before}{cut_short(self.root)}"
                    )
                shown = line.rstrip(b"\n")[:80].decode("utf-8", "replace") or "(end of file)"
                raise VerificationFailed(
                    f"{self.path} differs {where}: expected {expected[:80]!r}, found {shown!r}"
                )
        raise AssertionError("unreachable: the block differs but no line does")  # pragma: no cover

    def finish(self, where: str) -> None:
        assert self.handle is not None
        extra = self.handle.readline(MAX_BYTES)
        self.handle.close()
        if extra:
            shown = extra.rstrip()[:80].decode("utf-8", "replace")
            raise VerificationFailed(f"{self.path} has extra lines {where}: {shown!r}")


def _expect_entry(logs: dict[str | None, _LogReader], seq: int, produced: EntryLines) -> None:
    """Compare one entry's lines with every log; seats that read the public lines share them."""
    public = views.log_entry(seq, produced.public)
    public_block = _block(public) if public else b""
    for seat, reader in logs.items():
        lines = produced.public if seat is None else produced.seats.get(seat, [])
        if lines != produced.public:
            reader.expect(views.log_entry(seq, lines), f"at entry #{seq}")
        elif public_block:
            reader.expect_block(public_block, public, f"at entry #{seq}")


def _block(lines: list[str]) -> bytes:
    """Return log lines as the bytes of a file: each ends in a newline."""
    return ("\n".join(lines) + "\n").encode()


def _fail(message: str) -> VerificationFailed:
    return VerificationFailed(message)


def behind_head(what: str, found: int, seq: int, root: Path) -> VerificationFailed:
    """The error for a state file or index at entry ``found`` while the chain is at ``seq``."""
    if found < seq:
        return _fail(f"{what} is at entry #{found}, behind the chain head #{seq}{cut_short(root)}")
    return _fail(f"{what} is at entry #{found}, not at the chain head #{seq}")


@dataclass
class SeatKey:
    """A seat holder's key, to open that seat's sealed files (``verify --seat --key``)."""

    seat: str
    identity: Path


def verify(
    root: Path,
    signatures: bool = True,
    receipts: Iterable[Path] = (),
    seat_key: SeatKey | None = None,
) -> Report:
    """Check everything that can be checked; raise ``VerificationFailed`` at the first problem.

    Reads a consistent snapshot (``GameDir.consistent``). ``signatures=False`` skips only
    the signature checks (the benchmarks measure replay); ``receipts`` are referee
    receipts whose entries must be in the chain; ``seat_key`` opens one seat's sealed
    files in a sealed game.
    """
    gd = GameDir(root)
    if not gd.root.is_dir():
        raise NotReady(f"{shown(gd.root)} is not a folder: give a game folder")
    paths = list(receipts)
    return gd.consistent(lambda: _verify_once(gd, signatures, paths, seat_key))


def _verify_once(
    gd: GameDir, signatures: bool, receipt_paths: list[Path], seat_key: SeatKey | None
) -> Report:
    try:
        gd.check_links()
    except ArbiterError as exc:
        raise _fail(exc.message) from None
    try:
        manifest, manifest_digest, engine = load_manifest(gd)
    except ArbiterError as exc:
        raise _fail(f"game.json: {exc.message}") from None
    try:
        gd.check_layout([s["seat"] for s in manifest["seats"]])
    except ArbiterError as exc:
        raise _fail(exc.message) from None
    report = Report(game=manifest["game"])
    # Receipts first: a receipt the chain contradicts is the strongest finding there is.
    receipt_lines = receipts_lib.check(gd, manifest, manifest_digest, receipt_paths)
    report.revealed = gd.reveal_record.is_file()
    sealed = bool(manifest.get("sealed", False))
    if seat_key is not None and not sealed:
        raise NotReady("--seat and --key open sealed files: this game is not sealed")
    opened = None
    if seat_key is not None:
        opened = verify_sealed.open_seat(gd, manifest, seat_key.seat, seat_key.identity)
    if report.revealed:
        _replay(gd, manifest, manifest_digest, engine, report, signatures, seat_key, opened)
    else:
        _public_only(gd, manifest, manifest_digest, engine, report, seat_key, opened)
    report.checks += receipt_lines
    return report


def _public_only(
    gd: GameDir,
    manifest: dict[str, Any],
    manifest_digest: str,
    engine: Any,
    report: Report,
    seat_key: SeatKey | None,
    opened: tuple[bytes, bytes] | None,
) -> None:
    """Check links, the public log against the chain summaries, and the state files."""
    title = engine.info.title
    public_log = _LogReader(gd.public_log, root=gd.root)
    public_log.expect(views.log_header(manifest, title, None), "in its header")
    head, seq = "", -1
    clock = Clock(terms_of(manifest))
    clock.unfolded = clocks.clock_terms(manifest) is not None
    try:
        for entry in iter_chain(gd.chain, manifest_digest):
            seq, head = entry["seq"], entry["hash"]
            clock.check(seq, entry["kind"], entry.get("time"))
            public_log.expect(views.log_entry(seq, entry["summary"]), f"at entry #{seq}")
            report.entries += 1
    except ArbiterError as exc:
        raise _fail(exc.message) from None
    report.checks.append(f"chain: {report.entries} entries, every link and hash holds")
    if clock.terms is not None:
        report.checks.append(clock.summary())
    public = _state(gd.public_state, "public/state.json", head, seq, gd.root)
    report.status = public["status"]
    footer = views.log_footer(public["outcome"], None, engine.info.score_columns)
    public_log.expect(footer, "in its result section")
    public_log.finish("after the last entry")
    report.checks.append("public log: exactly the chain's public summaries")
    if manifest.get("sealed", False):
        report.checks += verify_sealed.check_index(gd, manifest, head, seq)
        if seat_key is not None and opened is not None:
            report.checks += verify_sealed.check_seat_at_head(
                manifest, title, engine.info.score_columns, seat_key.seat, opened, head, seq, public
            )
    else:
        for seat in seat_keys(manifest):
            _state(gd.seat_state(seat), f"players/{seat}/state.json", head, seq, gd.root)
        report.checks.append("state files: well formed and at the chain head")
    report.checks.append(
        "seed and private files not revealed yet: replay possible after `arbiter reveal`"
    )


def _replay_entry(
    table: Table,
    records: Records,
    seq: int,
    raw: bytes,
    head: str,
    manifest: dict[str, Any],
    manifest_digest: str,
    keys: dict[str, str],
    report: Report,
    signatures: bool,
    clock: Clock | None = None,
    known: set[str] | frozenset[str] = frozenset(),
) -> tuple[EntryLines, str, str | None, str]:
    """Replay chain line ``seq`` from its signed file; return its lines, kind, seat, digest.

    ``clock``: a game with deadlines, whose timeout entries are the referee's records;
    ``known``: the hashes of the entries before (a resignation may cite any of them)."""
    from arbiter.core import life
    from arbiter.core.signing import verify as verify_signature

    if seq == 0:
        return table.genesis(), "genesis", None, manifest_digest
    data = records.read_raw(seq)
    file_digest = sha256_hex(data)
    if line_digest(raw) != file_digest.encode():
        check_line(raw, seq, head or None, manifest_digest)  # names a damaged line first
        raise _fail(f"signed file of chain entry {seq} does not match its chain digest")
    try:
        signed = records.parse(seq, data)
        if table.kept is not None:  # a game that allows takebacks (arbiter.core.takeback)
            produced = _replay_takeback(table, seq, signed, file_digest, manifest, signatures)
            if produced is not None:
                report.signatures += signatures
                return produced, "takeback", signed["seat"], file_digest
        if signed.get("format") == ORDER_STEP_FORMAT:
            produced = _replay_order_step(table, seq, signed, head, manifest, signatures)
            report.signatures += signatures
            report.decisions += len(signed["actions"])
            return produced, "order-step", signed["seat"], file_digest
        if table.orders:
            _no_step_due(table, seq)
        if signed.get("format") == TIMEOUT_FORMAT:
            produced = _replay_timeout(table, seq, signed, head, manifest, clock, signatures)
            if signatures:
                report.signatures += 1
            report.decisions += len(signed["actions"])
            return produced, "timeout", signed["seat"], file_digest
        if signed.get("format") == APPOINT_FORMAT:
            produced = _replay_appointment(table, seq, signed, head, manifest, signatures)
            report.signatures += signatures
            return produced, "appoint", signed["seat"], file_digest
        if signed.get("format") == DEAL_FORMAT:
            produced = _replay_deal(table, seq, signed, head, manifest, signatures)
            report.signatures += signatures
            return produced, "deal", None, file_digest
        if signed.get("format") == LEAVE_AUTO_FORMAT:
            time = clock.pending if clock is not None else None
            produced = _replay_leave_auto(table, seq, signed, head, manifest, signatures, time)
            report.signatures += signatures
            return produced, "leave-auto", signed["seat"], file_digest
        kind = classify(signed, f"signed file of entry #{seq}")
        if signed["game"] != manifest["game"]:
            raise _fail(f"entry #{seq}: the signed file does not match its chain entry")
        if signed["seat"] not in keys:
            raise _fail(f"entry #{seq}: seat {signed['seat']} is not a seat of game.json")
        if signatures:
            # The key the seat held at this entry: handovers and appointments change it.
            try:
                verify_signature(signed, table.life.keys[signed["seat"]], life.namespace(kind))
            except ArbiterError as exc:
                raise _fail(
                    f"entry #{seq}: the {kind} file is not signed by the key {signed['seat']} "
                    f"held at that entry ({exc.message})"
                ) from None
            report.signatures += 1
        if kind == "orders":
            from arbiter.core import orders

            orders.check_orders(table, signed, head, seq - 1)
            return orders.apply_orders(table, seq, signed, file_digest), kind, signed["seat"], file_digest
        if kind in life.SEAT_KINDS:
            life.check_seat_file(table, kind, signed, head, seq - 1, known.__contains__)
            return life.apply_seat_file(table, seq, kind, signed, file_digest), kind, signed["seat"], file_digest
        if kind == "move" and signed["after"] != head:
            raise _fail(f"entry #{seq}: the move was not signed against the head before it")
        if kind == "join" and signed["manifest"] != manifest_digest:
            raise _fail(f"entry #{seq}: the join was signed for another game.json")
        if kind == "join" and signed["format"] != JOIN_FOR_MANIFEST[manifest["format"]]:
            raise _fail(f"entry #{seq}: a {signed['format']} join in a {manifest['format']} game")
        if kind == "join" and signed["format"] == JOIN_FORMAT and signatures:
            # Unsteerable joins: the entropy is the one the seat's key gives.
            joins.check(signed, keys[signed["seat"]])
        produced = apply_record(table, seq, signed)
    except VerificationFailed:
        raise
    except ArbiterError as exc:
        raise _fail(f"entry #{seq}: replay rejects it: {exc.message}") from None
    if kind == "move":
        report.decisions += len(signed["actions"])
    return produced, kind, signed["seat"], file_digest


class Clock:
    """The times of a game with deadlines: every entry has one, none runs backwards, and
    a timeout comes only after the deadline and grace counted from the entry before."""

    def __init__(self, terms: Terms | None):
        self.terms = terms
        self.last: str | None = None
        self.pending: str | None = None  # the time of the entry being replayed
        self.timeouts = 0
        # A clocked game (arbiter.core.clocks): its timeouts come after the waiting seat's
        # bank and grace, pauses counted. ``fold`` is the replayed table's; before the
        # reveal (no replay) the bank's timing cannot be checked: ``unfolded``.
        self.fold: Any = None
        self.unfolded = False

    def check(self, seq: int, kind: str, time: str | None) -> None:
        if self.terms is None:
            if time is not None:
                raise _fail(f"entry #{seq} has a time, but game.json sets no deadline")
            return
        if time is None:
            raise _fail(f"entry #{seq} has no time: a game with deadlines stamps every entry")
        if self.last is not None and time < self.last:
            raise _fail(f"entry #{seq} is dated {time}, before the entry before it ({self.last})")
        if kind == "timeout" and self.unfolded:
            self.timeouts += 1
        elif kind == "timeout":
            assert self.last is not None
            folded = self.fold.final() if self.fold is not None else None
            final = folded or self.terms.final(self.last)
            if time < final:
                raise _fail(
                    f"entry #{seq} times out at {time}, before the deadline and grace ran out "
                    f"({final})"
                )
            self.timeouts += 1
        self.last = time

    def summary(self) -> str:
        return (
            f"clock: every entry dated in order; {self.timeouts} timeout(s), each after the "
            "deadline and grace"
        )


def _replay_timeout(
    table: Table,
    seq: int,
    record: dict[str, Any],
    head: str,
    manifest: dict[str, Any],
    clock: Clock | None,
    signatures: bool,
) -> EntryLines:
    """Check the referee's timeout record (its signature, its times) and replay it."""
    from arbiter.core import referee_records
    from arbiter.core.signing import NAMESPACE_TIMEOUT

    referee_records.check(
        record, seq, manifest, signatures,
        schema="timeout", what="the timeout", namespace=NAMESPACE_TIMEOUT, head=head,
    )  # fmt: skip
    if clock is None or clock.terms is None:
        raise _fail(f"entry #{seq}: a timeout in a game without deadlines")
    if record["since"] != clock.last or record["time"] != clock.pending:
        raise _fail(f"entry #{seq}: the timeout record's times are not the chain's")
    return apply_timeout(table, seq, record)


def _replay_leave_auto(
    table: Table,
    seq: int,
    record: dict[str, Any],
    head: str,
    manifest: dict[str, Any],
    signatures: bool,
    time: str | None,
) -> EntryLines:
    """Check the referee's automatic leave record (signature, terms, times) and apply it."""
    from arbiter.core import leave, referee_records
    from arbiter.core.signing import NAMESPACE_LEAVE_AUTO

    referee_records.check(
        record, seq, manifest, signatures,
        schema="leave-auto", what="the automatic leave", namespace=NAMESPACE_LEAVE_AUTO,
    )  # fmt: skip
    try:
        leave.check_auto(table, record, head, time)
    except ArbiterError as exc:
        raise _fail(f"entry #{seq}: {exc.message}") from None
    return leave.apply_auto(table, record)


def _replay_takeback(
    table: Table,
    seq: int,
    record: dict[str, Any],
    file_digest: str,
    manifest: dict[str, Any],
    signatures: bool,
) -> EntryLines | None:
    """Keep entry ``seq`` on the kept branch; replay it when it is the referee's takeback
    record (``None`` otherwise: the entry is replayed as its kind says)."""
    from arbiter.core import takeback
    from arbiter.core.formats import TAKEBACK_RECORD_FORMAT

    takeback.check_order(table, seq, record)
    takeback.keep(table, seq, record, file_digest)
    if record.get("format") != TAKEBACK_RECORD_FORMAT:
        return None
    return takeback.replay_record(table, seq, record, manifest, signatures)


def _replay_deal(
    table: Table,
    seq: int,
    record: dict[str, Any],
    head: str,
    manifest: dict[str, Any],
    signatures: bool,
) -> EntryLines:
    """Check the referee's deal of a duplicate game (its signature; every seat's entropy
    signature, this game's own against its joins) and set the game up from the group's
    deal seed (arbiter.core.deal)."""
    from arbiter.core import referee_records
    from arbiter.core.signing import NAMESPACE_DEAL

    referee_records.check(
        record, seq, manifest, signatures,
        schema="deal", what="the deal", namespace=NAMESPACE_DEAL, head=head,
    )  # fmt: skip
    if table.deal_secret is None:
        raise _fail(f"entry #{seq}: a deal in a game whose reveal gives no group secret")
    return table.deal(record)


def _replay_appointment(
    table: Table,
    seq: int,
    record: dict[str, Any],
    head: str,
    manifest: dict[str, Any],
    signatures: bool,
) -> EntryLines:
    """Check the referee's appointment of a substitute (its signature, its reason) and apply it."""
    from arbiter.core import life, referee_records
    from arbiter.core.signing import NAMESPACE_APPOINT

    referee_records.check(
        record, seq, manifest, signatures,
        schema="appoint", what="the appointment", namespace=NAMESPACE_APPOINT,
    )  # fmt: skip
    life.check_appointment(table, record, head)
    return life.apply_appointment(table, seq, record)


def _replay_order_step(
    table: Table,
    seq: int,
    record: dict[str, Any],
    head: str,
    manifest: dict[str, Any],
    signatures: bool,
) -> EntryLines:
    """Check the referee's record of a standing order's step (its signature, that the
    step is the next of the file the chain holds and that its condition held) and apply it."""
    from arbiter.core import orders, referee_records
    from arbiter.core.signing import NAMESPACE_ORDER_STEP

    referee_records.check(
        record, seq, manifest, signatures,
        schema="order-step", what="the order step", namespace=NAMESPACE_ORDER_STEP, head=head,
    )  # fmt: skip
    return orders.replay_step(table, seq, record)


def _no_step_due(table: Table, seq: int) -> None:
    """A standing order's step that was due must be the next entry: the referee applies it
    in the same operation as the entry that met its condition."""
    from arbiter.core import orders

    found = orders.due(table, seq)
    if found is not None:
        raise _fail(
            f"entry #{seq}: step {found[1].index + 1} of {found[0]}'s standing orders was due "
            "here, but the referee did not apply it"
        )


def _explain_chain_line(
    raw: bytes, seq: int, prev: str | None, manifest_digest: str, kind: str, seat: str | None
) -> None:
    """Raise naming why chain line ``seq`` differs from the line the replay rebuilt."""
    entry = check_line(raw, seq, prev, manifest_digest)
    if entry["kind"] != kind or entry["seat"] != seat:
        raise _fail(f"entry #{seq}: the signed file does not match its chain entry")
    raise _fail(f"entry #{seq}: the published chain line differs from the replay (its summary)")


def _state(path: Path, what: str, head: str, seq: int, root: Path) -> dict[str, Any]:
    try:
        state = parse_strict(path.read_bytes(), what)
        validate("state", state, what)
    except FileNotFoundError:
        raise _fail(f"{what} is missing") from None
    except ArbiterError as exc:
        raise _fail(exc.message) from None
    if state["head"] != head or state["seq"] != seq:
        raise behind_head(what, state["seq"], seq, root)
    return dict(state)


def _deal_secret(manifest: dict[str, Any], record: dict[str, Any], report: Report) -> bytes | None:
    """A duplicate game's revealed group secret, checked against game.json's commitment."""
    terms = manifest.get("deal")
    if terms is None:
        if record.get("deal_secret") is not None:
            raise _fail("reveal/reveal.json gives a group secret, but game.json has no deal terms")
        return None
    if record.get("deal_secret") is None:
        raise _fail(
            "reveal/reveal.json gives no group secret: a duplicate game is revealed with its "
            "group's (`arbiter tournament reveal`)"
        )
    secret = bytes.fromhex(record["deal_secret"])
    if commitment(secret) != terms["commitment"]:
        raise _fail("the revealed group secret does not match the deal commitment in game.json")
    report.checks.append(
        f"group secret: matches the commitment of duplicate group {terms['group']}, made before anyone joined"
    )
    return secret


def _replay(
    gd: GameDir,
    manifest: dict[str, Any],
    manifest_digest: str,
    engine: Any,
    report: Report,
    signatures: bool,
    seat_key: SeatKey | None = None,
    opened: tuple[bytes, bytes] | None = None,
) -> None:
    """Re-derive, re-check and replay everything, comparing each published byte.

    In a sealed game the seats' files cannot be read without their keys: the signed index
    and the headers are checked, and the files of the seat whose key is given are
    compared byte for byte with the replay.
    """
    sealed = bool(manifest.get("sealed", False))
    try:
        record = parse_strict(gd.reveal_record.read_bytes(), "reveal/reveal.json")
        validate("reveal", record, "reveal/reveal.json")
    except ArbiterError as exc:
        raise _fail(exc.message) from None
    secret = bytes.fromhex(record["secret"])
    if commitment(secret) != manifest["commitment"]:
        raise _fail("the revealed secret does not match the commitment published in game.json")
    report.checks.append("secret: matches the commitment made before anyone joined")
    keys = seat_keys(manifest)
    table = Table(manifest, engine, secret)
    table.deal_secret = _deal_secret(manifest, record, report)
    title = engine.info.title
    logs: dict[str | None, _LogReader] = {None: _LogReader(gd.public_log, root=gd.root)}
    if not sealed:
        logs |= {seat: _LogReader(gd.seat_log(seat), root=gd.root) for seat in table.seats}
    elif seat_key is not None and opened is not None:
        logs[seat_key.seat] = _LogReader(gd.sealed_log(seat_key.seat), opened[1])
    # Only the logs compared are narrated (a sealed game's other seats cannot be read).
    table.narrate_only([seat for seat in logs if seat is not None])
    for seat, reader in logs.items():
        reader.expect(views.log_header(manifest, title, seat), "in its header")
    records = Records(gd.reveal_signed)
    head, seq = "", -1
    clock = Clock(terms_of(manifest))
    clock.fold = table.clock
    known: set[str] = set()
    try:
        with open(gd.chain, "rb") as chain:
            for seq, raw in enumerate(lines(chain, "chain.jsonl")):
                # Most games have no deadlines: a substring test (in C) spares the regex.
                time = time_of(raw) if b',"time":"' in raw else None
                clock.pending = time
                produced, kind, seat, file_digest = _replay_entry(
                    table,
                    records,
                    seq,
                    raw,
                    head,
                    manifest,
                    manifest_digest,
                    keys,
                    report,
                    signatures,
                    clock,
                    known,
                )
                clock.check(seq, kind, time)
                if table.clock is not None:
                    clocks.step(table, kind, seat, time)
                # The replay rebuilds the whole chain line; only a difference is explained.
                prev = head or None
                expected, entry_hash = entry_line(
                    seq, kind, seat, prev, file_digest, produced.public, time
                )
                if expected != raw:
                    _explain_chain_line(raw, seq, prev, manifest_digest, kind, seat)
                _expect_entry(logs, seq, produced)
                head = entry_hash
                if table.life.keys:  # every game: the heads a resignation may cite
                    known.add(entry_hash)
                report.entries += 1
        if seq < 0:
            raise _fail("chain.jsonl is empty: the genesis entry is missing")
        if table.orders:  # a step due after the last entry was owed in its operation
            _no_step_due(table, seq + 1)
        if records.handle is not None and records.handle.read(1):
            raise _fail(f"reveal/signed.jsonl has lines after entry #{seq}, the last chain entry")
    except ArbiterError as exc:
        if isinstance(exc, VerificationFailed):
            raise
        raise _fail(exc.message) from None
    finally:
        records.__exit__()
    if clock.terms is not None:
        report.checks.append(clock.summary())
    if record["head"] != head:
        raise _fail("reveal/reveal.json was made at another chain head")
    # A forced reveal relabelled as a normal one would hide a truncated game.
    if record["forced"] == table.over:
        said = "forced (before the end)" if record["forced"] else "not forced"
        actual = "is over" if table.over else "is not over"
        raise _fail(
            f"reveal/reveal.json says the reveal was {said}, but the replayed game {actual}"
        )
    if gd.reveal_record.read_bytes() != pretty(record):
        raise _fail("reveal/reveal.json is not byte for byte what the referee wrote: it was edited")
    report.checks.append(
        f"signatures: {report.signatures} signed files verify with their seats' keys"
    )
    report.checks.append(
        f"replay: {report.entries} entries, {report.decisions} decisions, every chain line identical"
    )
    outcome = table.outcome()
    outcome_json = outcome.to_json() if outcome is not None else None
    for reader in logs.values():
        footer = views.log_footer(outcome_json, dict(record), engine.info.score_columns)
        reader.expect(footer, "in its result section")
        reader.finish("after the last entry")
    readers = ", ".join("public" if seat is None else seat for seat in logs)
    report.checks.append(
        f"logs: {readers} identical to the replay"
        if sealed
        else "logs: public and every seat's log identical to the replay"
    )
    if sealed:
        report.checks += verify_sealed.check_index(gd, manifest, head, seq)
    for seat in [None, *table.seats]:
        if sealed and seat is not None and (seat_key is None or seat != seat_key.seat):
            continue
        path = gd.public_state if seat is None else gd.seat_state(seat)
        if sealed and seat is not None and opened is not None:
            path, data = gd.sealed_state(seat), opened[0]
        else:
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                raise _fail(f"{path} is missing") from None
        if data != views.state_bytes(table, seat, seq, head):
            raise _fail(f"{path} differs from the replay at the final entry #{seq}")
    report.checks.append(
        "state files: "
        + (
            f"{readers} identical to the replay"
            if sealed
            else "public and every seat's identical to the replay"
        )
    )
    report.replayed = True
    report.status = "over" if table.over else ("playing" if table.started else "joining")
