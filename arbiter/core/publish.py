"""Replay an accepted game and write every published file from it.

``rebuild`` turns the chain and the referee's signed files back into a live ``Table`` and
the log lines of every entry; ``outputs`` turns those into the bytes of each published
file. The referee writes them; ``arbiter verify`` recomputes and compares them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbiter.core import clocks, takeback, views
from arbiter.core.chain import iter_chain
from arbiter.core.engine import Engine
from arbiter.core.errors import Tampered
from arbiter.core.formats import (
    APPOINT_FORMAT,
    DEAL_FORMAT,
    JOIN_FORMAT,
    JOIN_FORMAT_1,
    LEAVE_AUTO_FORMAT,
    MOVE_FORMAT,
    ORDER_STEP_FORMAT,
    ORDERS_FORMATS,
    TAKEBACK_RECORD_FORMAT,
    TIMEOUT_FORMAT,
)
from arbiter.core.gamedir import GameDir, fsync_dir
from arbiter.core.ledger import FILE_KINDS, Records
from arbiter.core.table import EntryLines, Table

JOIN_FORMATS = (JOIN_FORMAT, JOIN_FORMAT_1)


@dataclass
class Rebuilt:
    """A replayed game: the live table, the chain, and every entry's log lines."""

    table: Table
    chain: list[dict[str, Any]]
    lines: list[EntryLines]
    signed_extra: bool = False
    """``signed.jsonl`` holds a line after the last entry: a crash before the chain write."""

    @property
    def head(self) -> str:
        return str(self.chain[-1]["hash"])

    @property
    def seq(self) -> int:
        return len(self.chain) - 1


def apply_record(
    table: Table, seq: int, record: dict[str, Any], file_digest: str = ""
) -> EntryLines:
    """Apply one accepted file to the table (``file_digest``: its chain entry's digest).

    The files of a game's life (resign, proposals, answers, handovers, appointments) were
    judged when they were accepted (``arbiter.core.life``); replayed here, they apply."""
    from arbiter.core import life, orders

    fmt = record["format"]
    if fmt in JOIN_FORMATS:
        return table.join(record["seat"], bytes.fromhex(record["entropy"]))
    if fmt == TIMEOUT_FORMAT:
        return apply_timeout(table, seq, record)
    if fmt == MOVE_FORMAT:
        return table.move(seq, record["seat"], list(record["actions"]))
    if fmt == APPOINT_FORMAT:
        return life.apply_appointment(table, seq, record)
    if fmt == DEAL_FORMAT:
        return table.deal(record)
    if fmt == LEAVE_AUTO_FORMAT:
        from arbiter.core import leave

        return leave.apply_auto(table, record)
    if fmt == TAKEBACK_RECORD_FORMAT:
        return takeback.apply_record(table, seq, record)
    if fmt == ORDER_STEP_FORMAT:
        return orders.replay_step(table, seq, record)
    if fmt in ORDERS_FORMATS:
        return orders.apply_orders(table, seq, record, file_digest)
    kind = FILE_KINDS[fmt][0]
    return life.apply_seat_file(table, seq, kind, record, file_digest)


def apply_timeout(table: Table, seq: int, record: dict[str, Any]) -> EntryLines:
    """Replay a timeout: the policy of game.json must take exactly the recorded decisions."""
    from arbiter.core.deadlines import terms_of

    terms = terms_of(table.manifest)
    in_a_row = table.timeouts_in_a_row.get(record["seat"], 0)
    if terms is None or record["policy"] != terms.policy_for(in_a_row):
        raise Tampered(f"entry #{seq}: a timeout with a policy game.json does not set")
    # The referee's own rebuild (``trusted``: digests checked) reuses the recorded
    # decisions; verify decides again and must find the same ones.
    recorded = list(record["actions"]) if table.trusted else None
    produced, actions = table.timeout(
        seq,
        record["seat"],
        record["policy"],
        terms.bot,
        record["after"],
        recorded,
        decide=views.bot_decision,
    )
    if actions != record["actions"]:
        raise Tampered(
            f"entry #{seq}: the timeout's recorded decisions are not what its policy decides"
        )
    return produced


def rebuild(
    gd: GameDir,
    manifest: dict[str, Any],
    manifest_digest: str,
    engine: Engine,
    secret: bytes,
    signed: Path,
    deal_secret: bytes | None = None,
) -> Rebuilt:
    """Replay every chain entry from the signed files in ``signed`` (a signed.jsonl);
    ``deal_secret``: a duplicate game's group secret (arbiter.core.deal)."""
    table = Table(manifest, engine, secret, trusted=True)
    table.deal_secret = deal_secret
    chain: list[dict[str, Any]] = []
    lines: list[EntryLines] = []
    with Records(signed) as records:
        for entry in iter_chain(gd.chain, manifest_digest):
            seq = entry["seq"]
            if seq == 0:
                produced = table.genesis()
            else:
                record = records.read(seq, entry["digest"])
                takeback.keep(table, seq, record, entry["digest"])
                produced = apply_record(table, seq, record, entry["digest"])
            if table.clock is not None:
                clocks.step(table, entry["kind"], entry["seat"], entry.get("time"))
            chain.append(entry)
            lines.append(produced)
        extra = records.handle is not None and records.handle.read(1) != b""
    table.trusted = False
    return Rebuilt(table, chain, lines, extra)


def log_lines(
    manifest: dict[str, Any],
    title: str,
    seat: str | None,
    entries: Iterable[tuple[int, EntryLines]],
    outcome: dict[str, Any] | None,
    reveal: dict[str, Any] | None,
    columns: tuple[str, ...] = (),
) -> list[str]:
    """Return every line of one reader's log (``columns``: the engine's score columns)."""
    out = views.log_header(manifest, title, seat)
    for seq, lines in entries:
        out += views.log_entry(seq, lines.public if seat is None else lines.seats.get(seat, []))
    out += views.log_footer(outcome, reveal, columns)
    return out


def outputs(
    gd: GameDir,
    manifest: dict[str, Any],
    table: Table,
    lines: list[EntryLines],
    seq: int,
    head: str,
    reveal: dict[str, Any] | None,
) -> dict[Path, bytes]:
    """Return the bytes of every published view and log."""
    title = table.engine.info.title
    columns = table.engine.info.score_columns
    outcome = table.outcome()
    outcome_json = outcome.to_json() if outcome is not None else None
    numbered = list(enumerate(lines))
    # Each log comes before its state file: a state file at the head proves its log is.
    files: dict[Path, bytes] = {
        gd.public_log: views.render_log(
            log_lines(manifest, title, None, numbered, outcome_json, reveal, columns)
        ),
        gd.public_state: views.state_bytes(table, None, seq, head),
    }
    for seat in table.seats:
        files[gd.seat_log(seat)] = views.render_log(
            log_lines(manifest, title, seat, numbered, outcome_json, reveal, columns)
        )
        files[gd.seat_state(seat)] = views.state_bytes(table, seat, seq, head)
    return files


def write_all(gd: GameDir, files: dict[Path, bytes]) -> list[Path]:
    """Write each file atomically, skipping unchanged ones; sync each folder once.

    Return the files written: none when the folder already shows the chain head.
    """
    folders: list[Path] = []
    written: list[Path] = []
    for path, data in files.items():
        try:
            if path.read_bytes() == data:
                continue
        except FileNotFoundError:
            pass
        gd.write(path, data, sync_dir=False)
        written.append(path)
        if path.parent not in folders:
            folders.append(path.parent)
    for folder in folders:
        fsync_dir(folder)
    return written


def write_outputs(
    gd: GameDir,
    manifest: dict[str, Any],
    files: dict[Path, bytes],
    seq: int,
    head: str,
    keys: dict[str, str] | None = None,
) -> list[Path]:
    """Write the published files of entry ``seq``; return those written.

    In a sealed game each seat's files are sealed to its key first (``keys``: the key each
    seat holds at that entry, after any handover), and the referee's signed index of them
    comes last (``arbiter.core.sealed_files``).
    """
    from arbiter.core import sealed_files

    if not sealed_files.is_sealed_game(manifest):
        return write_all(gd, files)
    rest, written = sealed_files.write_sealed(gd, manifest, files, keys)
    rest = {path: data for path, data in rest.items() if path != gd.sealed_index}
    written += write_all(gd, rest)
    written += write_all(gd, {gd.sealed_index: sealed_files.index(gd, manifest, seq, head)})
    return written


takeback.use(apply_record)  # the rebuild after a takeback applies files as the referee does
