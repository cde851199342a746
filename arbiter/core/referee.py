"""The referee's commands: create a game, judge submitted files, reveal the secret.

Every command takes the folder lock, rebuilds the present from the chain and first
brings every derived file back to the chain head (``heal``: the chain is the commit
point, so a crash anywhere is repaired by the next command). Then it judges, and writes
only after every check passed — a rejected file leaves every byte of a sound folder as
it was.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbiter.core import chain as chainlib
from arbiter.core import clocks, receipts, registry, takeback, views
from arbiter.core.canonical import canonical, digest, parse_strict, pretty
from arbiter.core.deal import read_secret as read_deal_secret
from arbiter.core.engine import Engine
from arbiter.core.errors import (
    AlreadyJoined,
    BadSignature,
    Duplicate,
    GameOver,
    NotReady,
    StaleHead,
    Tampered,
    UnknownSeat,
    UsageError,
    WrongGame,
)
from arbiter.core.formats import JOIN_FOR_MANIFEST, MANIFEST_FORMAT, REVEAL_FORMAT, SEAT_ID
from arbiter.core.gamedir import PUBLIC_DIR, GameDir, building
from arbiter.core.ledger import classify, load_manifest
from arbiter.core.publish import Rebuilt, outputs, rebuild, write_outputs
from arbiter.core.rng import commitment
from arbiter.core.safeio import open_nofollow_read
from arbiter.core.schemas import validate
from arbiter.core.table import Table

GAME_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


@dataclass
class Accepted:
    """What ``submit`` accepted: the new chain entry, its public lines and its receipt."""

    seq: int
    kind: str
    seat: str
    head: str
    summary: list[str]
    status: str
    waiting_for: list[str]
    receipt: Path | None = None


def _read_secret(gd: GameDir) -> bytes:
    try:
        text = open_nofollow_read(gd.secret, 1024).decode("ascii", "replace").strip()
    except FileNotFoundError:
        raise NotReady(
            f"{gd.root} has no referee/secret: only the referee's copy can do this"
        ) from None
    if not re.fullmatch(r"[0-9a-f]{64}", text):
        raise Tampered("referee/secret is damaged: it must hold 64 hex digits")
    return bytes.fromhex(text)


def _reveal_record(gd: GameDir) -> dict[str, Any] | None:
    if not gd.reveal_record.is_file():
        return None
    record = parse_strict(open_nofollow_read(gd.reveal_record), "reveal/reveal.json")
    validate("reveal", record, "reveal/reveal.json")
    return dict(record)


def _rebuild(
    gd: GameDir, loaded: tuple[dict[str, Any], str, Engine] | None = None
) -> tuple[dict[str, Any], str, Rebuilt]:
    """Replay the accepted files with the referee's secret (``loaded``: a manifest already read)."""
    manifest, manifest_digest, engine = loaded or load_manifest(gd)
    secret = _read_secret(gd)
    if commitment(secret) != manifest["commitment"]:
        raise Tampered("referee/secret does not match the commitment in game.json")
    deal_secret = read_deal_secret(gd, manifest)
    return (
        manifest,
        manifest_digest,
        rebuild(gd, manifest, manifest_digest, engine, secret, gd.referee_signed, deal_secret),
    )


# -- new ------------------------------------------------------------------------------


def new_game(
    root: Path,
    engine_name: str,
    seats: list[tuple[str, str]],
    raw_options: Mapping[str, str],
    *,
    join: bool = True,
    game_id: str | None = None,
    created: str,
    secret: bytes | None = None,
    referee_key: Path | None = None,
    referee_seed: bytes | None = None,
    sealed: bool = False,
    deadline: int | None = None,
    grace: int = 0,
    on_timeout: str = "pass",
    timeout_bot: str | None = None,
    forfeit_after: int | None = None,
    substitutes: bool = False,
    finish: Callable[[Path], None] | None = None,
    clock: dict[str, Any] | None = None,
    takebacks: str | None = None,
    deal: tuple[dict[str, Any], bytes] | None = None,
) -> dict[str, Any]:
    """Create a game folder publishing only a commitment to a fresh secret.

    ``seats`` are (seat name, public key line) in turn order; ``created`` is the UTC
    timestamp the CLI supplies (the core never reads the clock). ``referee_key`` is the
    referee's own private key (its public half goes into game.json); without it a new
    Ed25519 key is made as ``referee/key`` (from ``referee_seed`` for reproducible demos).
    ``sealed``: each seat's files are age files sealed to its key (docs/sealing.md).
    ``deadline`` (seconds), ``grace``, ``on_timeout`` and ``timeout_bot`` are the deadline
    terms (docs/tournaments.md); with them every chain entry records the referee's clock,
    the genesis entry ``created``. ``substitutes``: the referee may appoint a substitute
    for a seat that timed out or resigned (``appoint``). ``finish(folder)`` adds what else
    belongs to the new game (the mail desk's addresses) before it is in place. ``clock``:
    the members of a bank, leave and weekend pauses (``clocks.make_terms``, docs/clocks.md). ``takebacks``: ``none``
    or ``consent`` (docs/game-life.md §4; absent from game.json when not given: none).
    ``deal``: a table of a duplicate round, its deal terms (``group``, ``commitment``,
    ``games``) and the group's secret (arbiter.core.deal, docs/duplicate.md).

    The folder is built beside ``root`` and renamed into place (``gamedir.building``): a
    crash leaves no half game, and the same command run again makes the game.
    """
    from arbiter import __version__
    from arbiter.core.deadlines import check_time, make_terms
    from arbiter.core.signing import keygen, public_key_of, read_public_key

    gd = GameDir(root)
    if gd.root.is_symlink() or (gd.root.exists() and any(gd.root.iterdir())):
        raise UsageError(f"{gd.root} already exists and is not empty: choose a new folder")
    engine = registry.get(engine_name)
    info = engine.info
    game_id = game_id or _slug(gd.root.resolve().name)
    if not GAME_ID_RE.fullmatch(game_id):
        raise UsageError(
            f"game id {game_id[:70]!r} must be lower-case letters, digits and '-': pass --id"
        )
    if not info.min_seats <= len(seats) <= info.max_seats:
        raise UsageError(
            f"{info.name} seats {info.min_seats}–{info.max_seats} players, not {len(seats)}"
        )
    names = [name for name, _ in seats]
    for name in names:
        if not re.fullmatch(SEAT_ID, name) or name.endswith("\n"):
            raise UsageError(
                f"seat name {name[:40]!r} must start with a-z and use a-z, 0-9, '_' or '-'"
            )
    if len(set(names)) != len(names):
        raise UsageError("seat names must be different")
    keys = [read_public_key(key) for _, key in seats]
    if len(set(keys)) != len(keys):
        raise UsageError("two seats share a key: each player needs their own key")
    referee_public = public_key_of(referee_key) if referee_key is not None else None
    if referee_public is not None and referee_public in keys:
        raise UsageError("the referee's key is a player's key: the referee needs a key of its own")
    if sealed:
        _check_sealable(names, keys, referee_key, referee_public)
    if clock:
        from arbiter.core.clocks import default_seconds

        deadline = default_seconds(deadline, clock)
    terms = make_terms(deadline, grace, on_timeout, timeout_bot, forfeit_after)
    if takebacks not in (None, "none", "consent"):
        raise UsageError(f"--takebacks {str(takebacks)[:20]!r}: say none or consent")
    if terms is not None:
        check_time(created, "created")
        if type(engine).default_action is Engine.default_action:
            raise UsageError(
                f"{info.name} declares no default decision for a timeout: play it without --deadline"
            )
    options = engine.parse_options(dict(raw_options))
    engine.check_seats(options, len(seats))
    if deal is not None:
        _check_deal_terms(game_id, join, *deal)
    secret = secret if secret is not None else os.urandom(32)
    with building(gd.root, PUBLIC_DIR) as folder:
        gd = GameDir(folder)
        gd.make_dirs(gd.referee)
        if referee_key is None:
            made, made_public = keygen(
                "key", gd.referee, comment="arbiter referee", seed=referee_seed
            )
            os.chmod(made_public, 0o600)  # everything under referee/ is private, even this
            referee_public = public_key_of(made)
        else:
            where = str(referee_key.expanduser().resolve())
            gd.write(gd.referee_key_path, where.encode() + b"\n")
        assert referee_public is not None
        manifest = {
            "format": MANIFEST_FORMAT,
            "game": game_id,
            "engine": {"name": info.name, "version": info.version},
            "options": options,
            "seats": [
                {"seat": n, "name": n, "key": k} for n, k in zip(names, keys, strict=False)
            ],
            "referee": referee_public,
            "commitment": commitment(secret),
            "join": join,
            "created": created,
        }
        if sealed:
            manifest["sealed"] = True
        if substitutes:
            manifest["substitutes"] = True
        if terms is not None:
            manifest["deadline"] = terms.to_json() | (clock or {})
        if takebacks is not None:
            manifest["takebacks"] = takebacks
        manifest["arbiter"] = __version__
        if deal is not None:
            manifest["deal"] = dict(deal[0])
            gd.write(gd.deal_secret, deal[1].hex().encode() + b"\n")
        validate("manifest", manifest, "game.json")
        manifest_digest = digest(manifest)
        table = Table(manifest, engine, secret)
        lines = table.genesis()
        clocks.step(table, "genesis", None, created)
        genesis = chainlib.make_entry(
            0, "genesis", None, None, manifest_digest, lines.public, created if terms else None
        )
        gd.write(gd.secret, secret.hex().encode() + b"\n")
        gd.write(gd.lockfile, b"")
        gd.write(gd.manifest, pretty(manifest))
        gd.write(gd.chain, chainlib.line(genesis))
        files = outputs(gd, manifest, table, [lines], 0, genesis["hash"], None)
        write_outputs(gd, manifest, files, 0, genesis["hash"])
        if finish is not None:
            finish(folder)
    return manifest


def fresh_secret() -> bytes:
    """32 bytes from the operating system for a secret committed before play (a game's,
    or a duplicate group's: arbiter.tournament.duplicate). The referee's edge is the only
    place that draws fresh randomness."""
    return os.urandom(32)


def _check_deal_terms(game_id: str, join: bool, terms: dict[str, Any], secret: bytes) -> None:
    if not join:
        raise UsageError("a duplicate game needs joins: its deal mixes every seat's entropy")
    if game_id not in terms["games"]:
        raise UsageError(f"the deal terms' games do not include {game_id}")
    if len(secret) != 32 or commitment(secret) != terms["commitment"]:
        raise UsageError("the group secret does not match the deal terms' commitment")


def _check_sealable(
    names: list[str], keys: list[str], referee_key: Path | None, referee_public: str | None
) -> None:
    """Refuse a sealed game whose keys age cannot encrypt to, or whose referee key cannot
    decrypt sealed move files (it must be an unprotected private key file)."""
    from arbiter.core import sealing

    for name, key in zip(names, keys, strict=True):
        problem = sealing.recipient_problem(key)
        if problem is not None:
            raise UsageError(
                f"seat {name}: {problem}, so its files cannot be sealed: "
                "give that player's Ed25519 or RSA key"
            )
    if referee_key is not None and referee_public is not None:
        problem = sealing.recipient_problem(referee_public)
        if problem is not None:
            raise UsageError(f"--referee-key: {problem}: use an Ed25519 or RSA key")
        sealing.load_identity(referee_key.expanduser())


def unseal_submission(root: Path, data: bytes, what: str) -> bytes:
    """Return a submitted file's plain bytes: a sealed one decrypted with the referee key."""
    from arbiter.core import sealing

    if not sealing.is_sealed(data):
        return data
    key = receipts.signing_key(GameDir(root))
    return sealing.unpad(sealing.unseal(data, key, what, for_referee=True))


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")
    return slug[:63] or "game"


# -- heal -----------------------------------------------------------------------------


@dataclass
class Present:
    """The game as the chain says it is, after ``heal`` brought the folder in line."""

    manifest: dict[str, Any]
    manifest_digest: str
    rebuilt: Rebuilt
    reveal: dict[str, Any] | None
    repaired: list[Path]


def heal(gd: GameDir) -> Present:
    """Bring every derived file back to the chain head; return the present (under the lock).

    The chain is the commit point. A crash after it leaves views, logs, receipts or the
    reveal copy behind: they are rewritten here. A crash before it leaves a signed line
    the chain does not cite (dropped) and temporary files (removed). A sound folder is
    left byte for byte as it was.
    """
    gd.check_links()
    loaded = load_manifest(gd)
    manifest, manifest_digest, _ = loaded
    gd.check_layout([s["seat"] for s in manifest["seats"]])
    repaired = gd.remove_temporaries()
    _, _, rebuilt = _rebuild(gd, loaded)
    record = _reveal_record(gd)
    if rebuilt.signed_extra:
        gd.write(gd.referee_signed, _accepted_lines(gd, rebuilt.seq + 1))
        repaired.append(gd.referee_signed)
    if record is not None:
        signed = _accepted_lines(gd, rebuilt.seq + 1)
        if not gd.reveal_signed.is_file() or gd.reveal_signed.read_bytes() != signed:
            gd.write(gd.reveal_signed, signed)
            repaired.append(gd.reveal_signed)
    table = rebuilt.table
    files = outputs(gd, manifest, table, rebuilt.lines, rebuilt.seq, rebuilt.head, record)
    repaired += write_outputs(gd, manifest, files, rebuilt.seq, rebuilt.head, table.life.keys)
    repaired += receipts.write(gd, manifest, rebuilt.chain)
    return Present(manifest, manifest_digest, rebuilt, record, repaired)


def repair(root: Path) -> list[Path]:
    """Bring a game folder back to its chain head after a crash; return the files fixed."""
    gd = GameDir(root)
    gd.require()
    with gd.locked():
        return heal(gd).repaired


# -- submit ---------------------------------------------------------------------------


def _stale_message(chain: list[dict[str, Any]], after: str, seat: str, what: str) -> str:
    """Why a move signed against ``after`` is stale, in the words the seat needs: when the
    referee recorded a timeout for the seat since that head, say when and what it applied
    (issue 27); else the plain "old head" answer."""
    seq = len(chain) - 1
    since = next((n for n, entry in enumerate(chain) if entry["hash"] == after), None)
    if since is not None:
        for entry in chain[since + 1 :]:
            if entry["kind"] == "timeout" and entry["seat"] == seat:
                when = f" at {entry['time']}" if "time" in entry else ""
                applied = entry["summary"][0] if entry["summary"] else "its timeout policy"
                return (
                    f"{what}: you timed out{when}; the referee applied it at entry "
                    f"#{entry['seq']} ({applied}); take your new state file (entry #{seq})"
                )
    return (
        f"{what} was built against an old chain head; the head is now entry #{seq}: "
        "take your new state file and build the move again"
    )


def submit(root: Path, data: bytes, what: str, now: str | None = None) -> Accepted:
    """Judge one join or move file; on success append it and republish every view.

    ``now``: the referee's clock (``arbiter.core.clock``), recorded in the entry of a game with
    deadlines (read from the clock when not given).

    First ``heal``. Then checks, in order: strict JSON, schema, game id, seat, signature,
    duplicate (by signed content), then the kind's own checks (join: terms, entropy and
    not joined yet; move: not over, current head, turn, each decision legal, no barrier
    crossed).
    """
    return _submit(root, data, what, now, None)


def submit_deferred(
    root: Path, data: bytes, what: str, now: str | None, sync: Callable[[], None]
) -> Accepted:
    """``submit`` for a caller that commits in groups (the mail desk): the same checks,
    the same files and the same result, but no write is fsynced on its own
    (``gamedir.deferred_sync``). ``sync`` must make everything written so far durable (one
    ``syncfs``); it is called after the signed file and before the chain, which keeps their
    commit order. The entry is durable only at the caller's next ``sync``, which must come
    before anything depends on it (an answer mail)."""
    from arbiter.core.gamedir import deferred_sync

    with deferred_sync():
        return _submit(root, data, what, now, sync)


def _submit(
    root: Path, data: bytes, what: str, now: str | None, sync: Callable[[], None] | None
) -> Accepted:
    from arbiter.core import life, orders
    from arbiter.core.signing import verify

    gd = GameDir(root)
    gd.require()
    with gd.locked():
        present = heal(gd)
        manifest, manifest_digest = present.manifest, present.manifest_digest
        rebuilt = present.rebuilt
        data = unseal_submission(gd.root, data, what)
        obj = parse_strict(data, what)
        kind = classify(obj, what)
        if obj["game"] != manifest["game"]:
            raise WrongGame(
                f"{what} is for game {obj['game']!r}, not {manifest['game']!r}: send it to its own game"
            )
        # The key each seat holds now: a handover or an appointment changes it.
        keys = rebuilt.table.life.keys
        seat = obj["seat"]
        if seat not in keys:
            raise UnknownSeat(
                f"{what} names seat {seat!r}, which is not in this game (seats: {', '.join(keys)})"
            )
        try:
            verify(obj, keys[seat], life.namespace(kind))
        except BadSignature as exc:
            raise BadSignature(f"{what}: {exc.message}") from None
        file_digest = digest(obj)
        _refuse_duplicate(gd, rebuilt, obj, kind, file_digest, what)
        if present.reveal is not None:
            raise GameOver("the game was revealed: it accepts no more files")
        table, seq, prev = rebuilt.table, rebuilt.seq + 1, rebuilt.head
        if kind == "join":
            if obj["manifest"] != manifest_digest:
                raise WrongGame(
                    f"{what} was made for another version of game.json: run `arbiter join` again"
                )
            _check_join_terms(manifest, obj, keys[seat], what)
            produced = table.join(seat, bytes.fromhex(obj["entropy"]))
        elif kind == "move":
            if table.over:
                raise GameOver("the game is over: no more moves are accepted")
            if obj["after"] != prev:
                raise StaleHead(_stale_message(rebuilt.chain, obj["after"], seat, what))
            produced = table.move(seq, seat, list(obj["actions"]))
        elif kind == "orders":
            orders.check_orders(table, obj, prev, rebuilt.seq)
            produced = orders.apply_orders(table, seq, obj, file_digest)
        else:
            heads = {entry["hash"] for entry in rebuilt.chain}
            life.check_seat_file(table, kind, obj, prev, rebuilt.seq, heads.__contains__)
            produced = life.apply_seat_file(table, seq, kind, obj, file_digest)
        stamp = _stamp(manifest, rebuilt, now)
        clocks.step(table, kind, seat, stamp)
        entry = chainlib.make_entry(seq, kind, seat, prev, file_digest, produced.public, stamp)
        # A takeback every seat concerned accepted: the referee's record is the next entry.
        more = takeback.follow_up(gd, manifest, table, entry, stamp)
        last = more.entry or entry
        # Standing orders whose condition this entry met apply now, as the referee's
        # entries (none after a takeback: the game went back).
        fired = [] if more.entry else _fire_orders(gd, manifest, table, seq, entry["hash"], stamp)
        last = fired[-1].entry if fired else last
        chain_bytes = open_nofollow_read(gd.chain, 1 << 40) + chainlib.line(entry) + more.chain
        chain_bytes += b"".join(chainlib.line(step.entry) for step in fired)
        signed_bytes = _accepted_lines(gd, seq) + canonical(obj) + b"\n" + more.signed
        signed_bytes += b"".join(canonical(step.record) + b"\n" for step in fired)
        steps = [step.lines for step in fired]
        files = outputs(
            gd,
            manifest,
            table,
            [*rebuilt.lines, produced, *more.lines, *steps],
            last["seq"],
            last["hash"],
            None,
        )
        receipt = receipts.prepare(gd, manifest, entry)
        # Commit order: the signed file, then the chain (the commit point), then what is
        # derived from it (views, logs, the receipt), which ``heal`` redoes after a crash.
        gd.write(gd.referee_signed, signed_bytes)
        if sync is not None:
            sync()
        gd.write(gd.chain, chain_bytes)
        write_outputs(gd, manifest, files | receipt, last["seq"], last["hash"], table.life.keys)
        return Accepted(
            seq,
            kind,
            seat,
            last["hash"],
            produced.public + [line for lines in [*more.lines, *steps] for line in lines.public],
            "over" if table.over else ("playing" if table.started else "joining"),
            table.waiting_for(),
            gd.receipt(seq) if "referee" in manifest else None,
        )


def _fire_orders(
    gd: GameDir, manifest: dict[str, Any], table: Table, seq: int, head: str, stamp: str | None
) -> list[Any]:
    """Apply the standing orders' steps due after entry ``seq`` (arbiter.core.orders)."""
    if not table.orders:
        return []
    from arbiter.core import orders
    from arbiter.core.signing import NAMESPACE_ORDER_STEP, sign

    key = receipts.signing_key(gd)
    return orders.fire(
        table, manifest, seq, head, stamp, lambda record: sign(record, key, NAMESPACE_ORDER_STEP)
    )


def _stamp(manifest: dict[str, Any], rebuilt: Rebuilt, now: str | None) -> str | None:
    """Return the time to record in a new entry: none without deadlines; else the
    referee's clock, never earlier than the entry before (a clock set back must not let
    a seat's time run backwards)."""
    from arbiter.core.deadlines import check_time

    if "deadline" not in manifest:
        return None
    if now is None:
        from arbiter.core.clock import now_utc

        now = now_utc()
    now = check_time(now, "the referee's clock")
    last = rebuilt.chain[-1].get("time") or now
    return max(now, last)


def _check_join_terms(
    manifest: dict[str, Any], join: dict[str, Any], key: str, what: str
) -> None:
    """A join must be of the manifest's version; a version-2 join's entropy must be the
    one the seat's key gives (unsteerable joins, docs/rng.md)."""
    from arbiter.core import joins

    expected = JOIN_FOR_MANIFEST[manifest["format"]]
    if join["format"] != expected:
        raise WrongGame(
            f"{what} is a {join['format']} file but this game takes {expected}: "
            "run `arbiter join` again with this arbiter"
        )
    if join["format"] != "arbiter.join/1":
        try:
            joins.check(join, key)
        except BadSignature as exc:
            raise BadSignature(f"{what}: {exc.message}") from None


def _refuse_duplicate(
    gd: GameDir, rebuilt: Rebuilt, obj: dict[str, Any], kind: str, file_digest: str, what: str
) -> None:
    """Raise ``Duplicate`` if this file, or another signature over the same content (a
    re-wrapped or sha256 SSHSIG), was already accepted."""
    from arbiter.core.ledger import Records
    from arbiter.core.signing import signed_bytes

    candidates = set()
    for entry in rebuilt.chain:
        if entry["digest"] == file_digest:
            raise Duplicate(
                f"{what} was already accepted as entry #{entry['seq']}: nothing to do", entry["seq"]
            )
        # The same content by the same seat: a move cites the head before its entry.
        same_seat = entry["seat"] == obj["seat"] and entry["kind"] == kind
        if same_seat and (kind == "join" or entry["prev"] == obj.get("after")):
            candidates.add(entry["seq"])
    if not candidates:
        return
    content = signed_bytes(obj)
    with Records(gd.referee_signed) as records:
        for seq in range(1, max(candidates) + 1):
            data = records.read_raw(seq)
            if seq in candidates:
                accepted = records.parse(seq, data)
                if signed_bytes(accepted) == content:
                    raise Duplicate(
                        f"{what} was already accepted as entry #{seq} (signed again, same "
                        "content): nothing to do",
                        seq,
                    )


def _accepted_lines(gd: GameDir, seq: int) -> bytes:
    """Return the first ``seq − 1`` lines of referee/signed.jsonl (entries 1 … seq−1)."""
    if seq <= 1 or not gd.referee_signed.is_file():
        return b""
    with open(gd.referee_signed, "rb") as handle:
        return b"".join(handle.readline() for _ in range(seq - 1))


# -- reveal ---------------------------------------------------------------------------


def reveal(root: Path, force: bool = False, *, group_over: bool = False) -> dict[str, Any]:
    """Publish the secret and every signed file under ``reveal/`` so anyone can replay.

    Refused before the game is over unless ``force``; a forced reveal is recorded in the
    reveal record and in every log. A duplicate game publishes its group's secret too,
    and only when its tournament says every table of its round is over (``group_over``).
    """
    gd = GameDir(root)
    gd.require()
    with gd.locked():
        present = heal(gd)
        manifest, rebuilt = present.manifest, present.rebuilt
        if present.reveal is not None:
            raise NotReady("the game is already revealed: run `arbiter verify` to check it")
        table = rebuilt.table
        if not table.over and not force:
            waiting = ", ".join(table.waiting_for()) or "nobody"
            raise NotReady(
                f"the game is not over (waiting for {waiting}): pass --force to reveal anyway; "
                "this is recorded in every log"
            )
        if manifest.get("deal") is not None and not group_over:
            raise UsageError(
                f"{manifest['game']} is a table of duplicate group {manifest['deal']['group']}: "
                "revealing it would show the other tables its cards; reveal the round with "
                "`arbiter tournament reveal` once every table of its round is over"
            )
        record = {
            "format": REVEAL_FORMAT,
            "game": manifest["game"],
            "secret": table.secret.hex(),
            "head": rebuilt.head,
            "forced": not table.over,
        }
        if manifest.get("deal") is not None:
            assert table.deal_secret is not None
            record["deal_secret"] = table.deal_secret.hex()
        validate("reveal", record, "reveal/reveal.json")
        files = outputs(gd, manifest, table, rebuilt.lines, rebuilt.seq, rebuilt.head, record)
        # The record is the reveal's commit point: ``heal`` completes the rest after a crash.
        gd.write(gd.reveal_record, pretty(record))
        gd.write(gd.reveal_signed, _accepted_lines(gd, rebuilt.seq + 1))
        write_outputs(gd, manifest, files, rebuilt.seq, rebuilt.head, table.life.keys)
        return record


# -- timeout --------------------------------------------------------------------------


@dataclass
class Waiting:
    """The seat a game with deadlines waits for, and its clock (``arbiter timeout``)."""

    seat: str
    since: str
    due: str
    final: str
    policy: str
    timed_out: Accepted | None = None


def timeout(root: Path, now: str | None = None) -> Waiting:
    """Apply the game's timeout policy if the waiting seat's deadline and grace passed.

    ``now`` is the referee's clock (``arbiter.core.clock`` when not given). Returns the
    waiting seat's clock, with ``timed_out`` set when a timeout entry was recorded: the
    referee's signed record of the time and the decisions its policy took
    (docs/tournaments.md).
    """
    from arbiter.core import leave
    from arbiter.core.deadlines import check_time, terms_of
    from arbiter.core.formats import TIMEOUT_FORMAT
    from arbiter.core.signing import NAMESPACE_TIMEOUT, sign

    gd = GameDir(root)
    gd.require()
    with gd.locked():
        present = heal(gd)
        manifest, rebuilt = present.manifest, present.rebuilt
        terms = terms_of(manifest)
        if terms is None:
            raise UsageError("this game has no deadline (arbiter new --deadline): nothing times out")
        if present.reveal is not None:
            raise GameOver("the game was revealed: nothing times out")
        table = rebuilt.table
        if not table.started:
            raise NotReady(f"the game has not started ({table.not_started()}): deadlines run once it has")
        if table.over:
            raise GameOver("the game is over: nothing times out")
        if now is None:
            from arbiter.core.clock import now_utc

            now = now_utc()
        now = check_time(now, "the referee's clock")
        seat = table.prompt().seat
        since = rebuilt.chain[-1]["time"]
        policy = terms.policy_for(table.timeouts_in_a_row.get(seat, 0))
        waiting = Waiting(seat, since, terms.due(since), terms.final(since), policy)
        fold = table.clock
        if fold is not None:  # a clocked game: the seat's bank, pauses and leave count
            due, final = fold.due(), fold.final()
            assert due is not None and final is not None  # the game waits for ``seat``
            waiting = Waiting(seat, since, due, final, policy)
            now = max(now, since)
            auto = leave.auto_record(
                table, manifest["game"], rebuilt.head, since, now, receipts.signing_key(gd)
            )
            if auto is not None:
                waiting.timed_out = _record_referee_entry(
                    gd, manifest, rebuilt, "leave-auto", auto, auto["time"]
                )
                return waiting
        if now < waiting.final:
            return waiting
        seq, prev = rebuilt.seq + 1, rebuilt.head
        produced, actions = table.timeout(
            seq, seat, policy, terms.bot, prev, decide=views.bot_decision
        )
        record: dict[str, Any] = {
            "format": TIMEOUT_FORMAT,
            "game": manifest["game"],
            "seat": seat,
            "after": prev,
            "since": since,
            "time": now,
            "policy": policy,
            "actions": actions,
        }
        record["signature"] = sign(record, receipts.signing_key(gd), NAMESPACE_TIMEOUT)
        validate("timeout", record, "the timeout record")
        clocks.step(table, "timeout", seat, now)
        entry = chainlib.make_entry(
            seq, "timeout", seat, prev, digest(record), produced.public, now
        )
        fired = _fire_orders(gd, manifest, table, seq, entry["hash"], now)
        last = fired[-1].entry if fired else entry
        chain_bytes = open_nofollow_read(gd.chain, 1 << 40) + chainlib.line(entry)
        chain_bytes += b"".join(chainlib.line(step.entry) for step in fired)
        signed_bytes = _accepted_lines(gd, seq) + canonical(record) + b"\n"
        signed_bytes += b"".join(canonical(step.record) + b"\n" for step in fired)
        steps = [step.lines for step in fired]
        files = outputs(
            gd, manifest, table, [*rebuilt.lines, produced, *steps], last["seq"], last["hash"], None
        )
        gd.write(gd.referee_signed, signed_bytes)
        gd.write(gd.chain, chain_bytes)  # the commit point, as in submit
        write_outputs(gd, manifest, files, last["seq"], last["hash"], table.life.keys)
        waiting.timed_out = Accepted(
            seq,
            "timeout",
            seat,
            entry["hash"],
            produced.public,
            "over" if table.over else "playing",
            table.waiting_for(),
        )
        return waiting


def _record_referee_entry(
    gd: GameDir,
    manifest: dict[str, Any],
    rebuilt: Rebuilt,
    kind: str,
    record: dict[str, Any],
    time: str | None,
) -> Accepted:
    """Append the referee's own signed ``record`` (automatic leave, an appointment) as the
    next entry, dated ``time``; write what follows from it (under the lock, after ``heal``)."""
    from arbiter.core.publish import apply_record

    table, seq, prev = rebuilt.table, rebuilt.seq + 1, rebuilt.head
    seat = record.get("seat")  # None: an entry of the whole table (a deal)
    produced = apply_record(table, seq, record)
    clocks.step(table, kind, seat, time)
    entry = chainlib.make_entry(seq, kind, seat, prev, digest(record), produced.public, time)
    chain_bytes = open_nofollow_read(gd.chain, 1 << 40) + chainlib.line(entry)
    signed_bytes = _accepted_lines(gd, seq) + canonical(record) + b"\n"
    files = outputs(gd, manifest, table, [*rebuilt.lines, produced], seq, entry["hash"], None)
    gd.write(gd.referee_signed, signed_bytes)
    gd.write(gd.chain, chain_bytes)  # the commit point, as in submit
    write_outputs(gd, manifest, files, seq, entry["hash"], table.life.keys)
    return Accepted(
        seq,
        kind,
        seat or "",
        entry["hash"],
        produced.public,
        "over" if table.over else "playing",
        table.waiting_for(),
    )


# -- deal (duplicate rounds) -----------------------------------------------------------


def deal_slot(root: Path) -> dict[str, Any] | None:
    """This duplicate game's part of its group's deal (arbiter.core.deal.slot): its game
    id, game.json digest and each seat's key and entropy signature; None while a seat has
    not joined. Refused for a game that is not a table of a duplicate round."""
    from arbiter.core import deal as deals
    from arbiter.core.ledger import Records

    gd = GameDir(root)
    gd.require()
    with gd.locked():
        present = heal(gd)
        manifest, rebuilt = present.manifest, present.rebuilt
        if manifest.get("deal") is None:
            raise UsageError(f"{manifest['game']} is not a table of a duplicate round")
        table = rebuilt.table
        if not table.started and not table.awaiting_deal:
            return None
        joins: dict[str, dict[str, Any]] = {}
        with Records(gd.referee_signed) as records:
            for entry in rebuilt.chain[1:]:
                signed = records.read(entry["seq"], entry["digest"])  # in order: a stream
                if entry["kind"] == "join":
                    joins[entry["seat"]] = signed
        return deals.slot(manifest, present.manifest_digest, joins)


def deal_ready(folders: Mapping[str, Path], now: str | None = None) -> list[tuple[Path, Accepted]]:
    """Deal every duplicate game among ``folders`` (game id → folder: a desk's games, a
    tournament's round) whose deal's games (game.json ``deal.games``: its round) are all
    there and all joined; return each game dealt with its new entry. A game already dealt,
    or whose round waits for a join, is left as it is. Safe to call at any time
    (arbiter.core.deal). Only games still joining are looked at, so a desk's or a
    tournament's finished games cost a file read each, never a replay."""
    import json

    rounds: set[tuple[str, ...]] = set()
    for folder in folders.values():
        try:
            terms = json.loads((folder / "game.json").read_bytes()).get("deal")
            status = json.loads((folder / "public" / "state.json").read_bytes())["status"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue  # not a game this can read: the desk or the verifier says why
        if isinstance(terms, dict) and status == "joining":
            rounds.add(tuple(terms.get("games") or ()))
    dealt: list[tuple[Path, Accepted]] = []
    for games in sorted(rounds):
        if not all(game in folders for game in games):
            continue
        slots = [deal_slot(folders[game]) for game in games]
        ready = [slot for slot in slots if slot is not None]
        if len(ready) < len(games):
            continue
        for game in games:
            try:
                dealt.append((folders[game], deal(folders[game], ready, now)))
            except AlreadyJoined:
                continue  # dealt before (a run cut short): the others still get theirs
    return dealt


def deal(root: Path, games: list[dict[str, Any]], now: str | None = None) -> Accepted:
    """Deal a duplicate game whose seats have all joined: append the referee's signed
    ``deal`` entry listing every game of the group (``games``: each one's ``deal_slot``,
    in the order of game.json's ``deal.games``), then set the game up from the group's
    deal seed (arbiter.core.deal)."""
    from arbiter.core.formats import DEAL_FORMAT
    from arbiter.core.signing import NAMESPACE_DEAL, sign

    gd = GameDir(root)
    gd.require()
    with gd.locked():
        present = heal(gd)
        manifest, rebuilt = present.manifest, present.rebuilt
        terms = manifest.get("deal")
        table = rebuilt.table
        if terms is None:
            raise UsageError(
                f"{manifest['game']} is not a table of a duplicate round: it deals itself at its last join"
            )
        if table.started:
            raise AlreadyJoined(f"{manifest['game']} is already dealt: nothing to do")
        if not table.awaiting_deal:
            raise NotReady(
                f"{manifest['game']} waits for joins from {', '.join(table.waiting_for())}: "
                "it is dealt once every seat of every table of its duplicate round has joined"
            )
        record: dict[str, Any] = {
            "format": DEAL_FORMAT,
            "game": manifest["game"],
            "after": rebuilt.head,
            "group": terms["group"],
            "games": [dict(game) for game in games],
        }
        record["signature"] = sign(record, receipts.signing_key(gd), NAMESPACE_DEAL)
        validate("deal", record, "the deal")
        stamp = _stamp(manifest, rebuilt, now)
        return _record_referee_entry(gd, manifest, rebuilt, "deal", record, stamp)


# -- appoint --------------------------------------------------------------------------


def appoint(root: Path, seat: str, key: str, reason: int | None = None, now: str | None = None) -> Accepted:
    """Appoint a substitute's ``key`` for ``seat`` after its timeout or resignation
    (entry ``reason``; default: the seat's latest), as the referee's signed entry.

    Only when game.json allows substitutes (``arbiter new --substitutes``). From the next
    entry on the seat's files are signed by the new key and sealed to it.
    """
    from arbiter.core import life
    from arbiter.core.formats import APPOINT_FORMAT
    from arbiter.core.signing import NAMESPACE_APPOINT, read_public_key, sign

    gd = GameDir(root)
    gd.require()
    with gd.locked():
        present = heal(gd)
        manifest, rebuilt = present.manifest, present.rebuilt
        if present.reveal is not None:
            raise GameOver("the game was revealed: nobody can be appointed")
        table = rebuilt.table
        if seat not in table.life.keys:
            raise UnknownSeat(
                f"seat {seat!r} is not in this game (seats: {', '.join(table.life.keys)})"
            )
        if not table.life.substitutes:
            raise UsageError(
                "game.json does not allow substitutes (arbiter new --substitutes): the seat's "
                "player may hand it over with `arbiter handover`"
            )
        if reason is None:
            reasons = [n for n, who in table.life.reasons.items() if who == seat]
            if not reasons:
                raise UsageError(
                    f"{seat} has neither timed out nor resigned: a substitute is appointed "
                    "only after one (the player may hand the seat over with `arbiter handover`)"
                )
            reason = max(reasons)
        prev = rebuilt.head
        record: dict[str, Any] = {
            "format": APPOINT_FORMAT,
            "game": manifest["game"],
            "seat": seat,
            "after": prev,
            "key": read_public_key(key),
            "reason": reason,
        }
        life.check_appointment(table, record, prev)
        if manifest.get("sealed"):
            from arbiter.core import sealing

            problem = sealing.recipient_problem(record["key"])
            if problem is not None:
                raise UsageError(f"the substitute's key: {problem}: a sealed game needs Ed25519 or RSA")
        record["signature"] = sign(record, receipts.signing_key(gd), NAMESPACE_APPOINT)
        validate("appoint", record, "the appointment")
        stamp = _stamp(manifest, rebuilt, now)
        return _record_referee_entry(gd, manifest, rebuilt, "appoint", record, stamp)
