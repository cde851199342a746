"""Take back with consent (issue 27, docs/game-life.md §4).

A seat asks, in a signed ``arbiter.takeback/1`` file (chain kind ``takeback-request``),
to take back its decisions after entry ``to``: everything from its first decision after
``to`` on is undone. The seats concerned — every seat with an undone decision, and every
seat that learned something new in the undone entries (a barrier event it read, e.g. a
card turned up) — answer with ``answer`` files naming the request's digest; a decline,
or any move, lapses it. When the last of them has accepted (at once when nobody else is
concerned), the referee appends its signed ``arbiter.takeback-record/1`` (chain kind
``takeback``) and the table is rebuilt along the **kept branch**: the entries after
``to`` up to the takeback stay in the chain, and replay skips them. The streams do not
move: the entry after the takeback draws from ply ``to + 1`` (``Table.ply``), so a redo
draws the same cards.

The referee and ``arbiter verify`` both judge here, in the same order. Nothing here
reads the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arbiter.core import life
from arbiter.core.engine import Engine, Event, Undone
from arbiter.core.entrylines import EntryLines
from arbiter.core.errors import (
    IllegalAction,
    OutOfTurn,
    StaleHead,
    Tampered,
    UsageError,
    VerificationFailed,
)
from arbiter.core.formats import (
    APPOINT_FORMAT,
    MOVE_FORMAT,
    TAKEBACK_FORMAT,
    TAKEBACK_RECORD_FORMAT,
    TIMEOUT_FORMAT,
)
from arbiter.core.life import Pending, names
from arbiter.core.table import Table

if TYPE_CHECKING:
    from pathlib import Path

    from arbiter.core.gamedir import GameDir

# Entries a takeback may undo besides moves: they changed nothing a replay needs back
# (a lapsed proposal or request, its answers). Timeouts, resignations, handovers and
# appointments are the referee's or change who plays: a takeback never crosses them.
_UNDOABLE = ("arbiter.propose-end/1", "arbiter.answer/1", TAKEBACK_FORMAT)


@dataclass
class TakebackPending(Pending):
    """An open takeback request: the entry the kept branch would resume after."""

    to: int = 0
    due: bool = False
    """Every seat concerned accepted: the referee's record comes next."""

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["result"] = None
        out["to"] = self.to
        return out


def allowed(manifest: dict[str, Any]) -> bool:
    """Whether game.json's terms allow takebacks (absent: none, as in every older game)."""
    return manifest.get("takebacks") == "consent"


def keep(table: Table, seq: int, record: dict[str, Any], file_digest: str) -> None:
    """Remember entry ``seq``'s signed file on the kept branch (games that allow takebacks
    only: the rebuild after a takeback replays them)."""
    if table.kept is not None:
        table.kept.append((seq, record, file_digest))


# -- judging a request ------------------------------------------------------------------


@dataclass
class Analysis:
    """What a takeback to ``to`` would undo, and who must accept it."""

    undone: list[int]
    needed: list[str]
    reason: str | None


class _Rebuilding(Table):
    """A table replaying part of the kept branch for a takeback: requests in it are only
    recorded, never judged again (their effect on the branch is already known)."""


class _Recording(_Rebuilding):
    """A table that keeps the events it narrates (the undone entries' events)."""

    seen: list[Event]

    def _narrate(self, events: list[Event]) -> EntryLines:
        self.seen.extend(events)
        return super()._narrate(events)


def _fresh(table: Table, upto: int, cls: type[_Rebuilding] = _Rebuilding) -> Table:
    """A new table replaying the kept branch up to entry ``upto``, narrating nothing."""
    fresh = cls(table.manifest, table.engine, table.secret, trusted=True)
    fresh.narrate_only([])
    fresh.kept = []
    if isinstance(fresh, _Recording):
        fresh.seen = []
    fresh.genesis()
    assert table.kept is not None
    for seq, record, file_digest in table.kept:
        if seq > upto:
            break
        _apply(fresh, seq, record, file_digest)
    return fresh


# How one accepted file is applied to a table: ``arbiter.core.publish`` registers its
# ``apply_record`` when imported (publish imports this module, not the other way round).
_APPLY: list[Callable[[Table, int, dict[str, Any], str], EntryLines]] = []


def use(apply: Callable[[Table, int, dict[str, Any], str], EntryLines]) -> None:
    """Register how an accepted file is applied (``publish.apply_record``)."""
    _APPLY[:] = [apply]


def _apply(fresh: Table, seq: int, record: dict[str, Any], file_digest: str) -> None:
    assert fresh.kept is not None
    fresh.kept.append((seq, record, file_digest))
    if record["format"] == TAKEBACK_RECORD_FORMAT:
        # Already on the kept branch: only the ply moves (the entries it skipped are not
        # here): the next entry draws from the ply after entry ``to``'s.
        fresh.ply_offset += seq - record["to"]
        fresh.life.pending = None
        return
    _APPLY[0](fresh, seq, record, file_digest)


def shown(engine: Engine, seats: list[str], event: Event) -> tuple[str, ...]:
    """The seats that learned something new from ``event`` (``Undone.shown``)."""
    if not event.barrier:
        return ()
    row = engine.describe_all(event, [None, *seats])
    public = row[0]
    private = tuple(s for s, line in zip(seats, row[1:], strict=True) if line not in (None, public))
    if private:
        return private
    return tuple(s for s, line in zip(seats, row[1:], strict=True) if line is not None)


def analyse(table: Table, seat: str, to: int, head: int) -> Analysis:
    """Judge a takeback to ``to`` by ``seat`` at chain head ``head`` (the entries of the
    kept branch up to it)."""
    assert table.kept is not None
    kept = [item for item in table.kept if item[0] <= head]
    start = max((n for n, r, _ in kept if r["format"].startswith("arbiter.join/")), default=0)
    last = max((n for n, r, _ in kept if r["format"] == TAKEBACK_RECORD_FORMAT), default=0)
    if to >= head:
        raise UsageError(f"entry #{to} is the head or after it: nothing to take back after it")
    if to < start:
        raise UsageError(
            f"entry #{to} is before the game started (entry #{start}): take back to #{start} or later"
        )
    if to < last:
        raise IllegalAction(
            f"entry #{last} is a takeback: a takeback cannot reach before it (--to {last} or later)"
        )
    undone = [(n, r, d) for n, r, d in kept if n > to]
    first = None
    for n, record, _ in undone:
        fmt = record["format"]
        if fmt in (TIMEOUT_FORMAT, APPOINT_FORMAT) or (fmt != MOVE_FORMAT and fmt not in _UNDOABLE):
            kind = {TIMEOUT_FORMAT: "timeout", APPOINT_FORMAT: "appointment"}.get(
                fmt, fmt.removeprefix("arbiter.").split("/")[0]
            )
            raise IllegalAction(f"entry #{n} is a {kind}: a takeback cannot go across it")
        if fmt == MOVE_FORMAT and first is None:
            first = (n, record["seat"])
    if first is None:
        raise UsageError(f"no decision was taken after entry #{to}: nothing to take back")
    if first[1] != seat:
        raise IllegalAction(
            f"the first decision after entry #{to} is {first[1]}'s (entry #{first[0]}): take "
            "back to the entry before one of your own decisions"
        )
    fresh = _fresh(table, to, _Recording)
    assert isinstance(fresh, _Recording)
    before = table.engine.copy(fresh.state)
    entries: list[Undone] = []
    for n, record, file_digest in undone:
        fresh.seen = []
        _apply(fresh, n, record, file_digest)
        if record["format"] == MOVE_FORMAT:
            events = list(fresh.seen)
            entries.append(
                Undone(n, record["seat"], list(record["actions"]), events, [shown(fresh.engine, fresh.seats, e) for e in events])
            )
    playing = table.life.playing(table.seats)
    concerned = {e.seat for e in entries} | {s for e in entries for seats in e.shown for s in seats}
    needed = [s for s in playing if s in concerned and s != seat]
    reason = table.engine.takeback_allowed(before, seat, entries)
    return Analysis([n for n, _, _ in undone], needed, reason)


def check_request(table: Table, record: dict[str, Any], head: str, seq: int) -> Analysis:
    """Refuse a takeback request that may not be accepted now; return what it undoes.

    Called after life's common checks (started, not over, the seat still plays).
    """
    if not allowed(table.manifest):
        raise IllegalAction(
            "this game's terms allow no takebacks (game.json: takebacks none): play on"
        )
    if record["after"] != head:
        raise StaleHead(
            f"the takeback request was built against an old chain head; the head is now "
            f"entry #{seq}: take your new state file and build it again"
        )
    pending = table.life.pending
    if pending is not None:
        raise OutOfTurn(
            f"{pending.seat}'s request (entry #{pending.seq}) is open: it must be answered first"
        )
    found = analyse(table, record["seat"], record["to"], seq)
    if found.reason is not None:
        raise IllegalAction(found.reason)
    return found


def _span(undone: list[int]) -> str:
    return f"entry #{undone[0]}" if len(undone) == 1 else f"entries #{undone[0]}–#{undone[-1]}"


def apply_request(
    table: Table, seq: int, record: dict[str, Any], file_digest: str, lines: EntryLines
) -> EntryLines:
    """Apply an accepted takeback request as entry ``seq``: open it, or make it due."""
    seat, to = record["seat"], record["to"]
    if isinstance(table, _Rebuilding):
        # A request inside a rebuild: what it asked for is known; judging it again would
        # replay the game once more for every earlier request.
        table.life.pending = TakebackPending("takeback", file_digest, seq, seat, "", [], to=to)
        return lines
    found = analyse(table, seat, to, seq - 1)
    pending = TakebackPending("takeback", file_digest, seq, seat, "", found.needed, to=to)
    table.life.pending = pending
    what = f"{seat} asks to take back {_span(found.undone)} (the game would resume after entry #{to})"
    if not found.needed:
        pending.due = True
        lines.add_common(table.seats, f"{what}; nobody else is concerned: it takes effect at once.")
        return lines
    needed = found.needed
    lines.add_common(
        table.seats,
        f"{what}; it takes effect when {names(needed)} accept{'s' if len(needed) == 1 else ''}.",
    )
    return lines


def apply_answer(
    table: Table, seq: int, record: dict[str, Any], file_digest: str, lines: EntryLines
) -> EntryLines:
    """Apply an answer to the open takeback request."""
    seat = record["seat"]
    pending = table.life.pending
    assert isinstance(pending, TakebackPending)
    where = f"{pending.seat}'s takeback request (entry #{pending.seq})"
    if record["answer"] == "decline":
        table.life.pending = None
        lines.add_common(table.seats, f"{seat} declines {where}: it lapses.")
        return lines
    pending.accepted.append(seat)
    lines.add_common(table.seats, f"{seat} accepts {where}.")
    if not pending.waiting_for():
        pending.due = True
        lines.add_common(table.seats, "Every seat concerned accepted: the takeback takes effect.")
    return lines


def due(table: Table) -> TakebackPending | None:
    """The request every seat concerned accepted: the referee's record must come next."""
    pending = table.life.pending
    return pending if isinstance(pending, TakebackPending) and pending.due else None


# -- the referee's record ---------------------------------------------------------------


def apply_record(table: Table, seq: int, record: dict[str, Any]) -> EntryLines:
    """Apply the referee's takeback record as entry ``seq``: rebuild the kept branch."""
    pending = due(table)
    if (
        pending is None
        or record["request"] != pending.request
        or record["to"] != pending.to
        or record["seat"] != pending.seat
    ):
        raise Tampered(f"entry #{seq}: a takeback record no accepted request calls for")
    to = record["to"]
    fresh = _fresh(table, to)
    table.state = fresh.state
    table.seed = fresh.seed
    table.entropies = fresh.entropies
    table.forfeited = fresh.forfeited
    table.timeouts_in_a_row = fresh.timeouts_in_a_row
    table.life = fresh.life
    table.life.pending = None
    # The next entry draws from the ply after entry ``to``'s (the ply of ``to`` is
    # ``to - fresh.ply_offset``): a redo draws as the first try did.
    table.ply_offset = fresh.ply_offset + seq - to
    assert table.kept is not None
    table.kept = [item for item in table.kept if item[0] <= to]
    table.kept.append((seq, record, ""))
    lines = EntryLines(seats={s: [] for s in table.narrated_seats})
    from arbiter.core import orders

    orders.drop_all(table, lines, "a takeback took the game back")
    lines.add_common(
        table.seats,
        f"Takeback: the game resumes after entry #{to}; entries #{to + 1}–#{seq - 1} stay in "
        f"the chain and replay skips them. {pending.seat}'s redo draws as the first try did.",
    )
    return lines


def make_record(gd: GameDir, manifest: dict[str, Any], pending: TakebackPending) -> dict[str, Any]:
    """The referee's signed record that ``pending`` takes effect."""
    from arbiter.core import receipts
    from arbiter.core.schemas import validate
    from arbiter.core.signing import NAMESPACE_TAKEBACK_RECORD, sign

    record: dict[str, Any] = {
        "format": TAKEBACK_RECORD_FORMAT,
        "game": manifest["game"],
        "seat": pending.seat,
        "request": pending.request,
        "to": pending.to,
    }
    record["signature"] = sign(record, receipts.signing_key(gd), NAMESPACE_TAKEBACK_RECORD)
    validate("takeback-record", record, "the takeback record")
    return record


@dataclass
class FollowUp:
    """The referee's takeback entry appended after the file that made it due (or nothing)."""

    chain: bytes = b""
    signed: bytes = b""
    lines: tuple[EntryLines, ...] = ()
    entry: dict[str, Any] | None = None


def follow_up(
    gd: GameDir, manifest: dict[str, Any], table: Table, before: dict[str, Any], stamp: str | None
) -> FollowUp:
    """When the entry ``before`` made a takeback due, apply the referee's record as the
    next entry and return its bytes (the chain commits both at once)."""
    from arbiter.core import chain as chainlib
    from arbiter.core.canonical import canonical, digest

    pending = due(table)
    if pending is None:
        return FollowUp()
    record = make_record(gd, manifest, pending)
    seq = before["seq"] + 1
    produced = apply_record(table, seq, record)
    entry = chainlib.make_entry(
        seq, "takeback", pending.seat, before["hash"], digest(record), produced.public, stamp
    )
    return FollowUp(chainlib.line(entry), canonical(record) + b"\n", (produced,), entry)


def replay_record(
    table: Table, seq: int, record: dict[str, Any], manifest: dict[str, Any], signatures: bool
) -> EntryLines:
    """``arbiter verify``: check the referee's takeback record (schema, signature, that an
    accepted request calls for it) and apply it."""
    from arbiter.core import referee_records
    from arbiter.core.signing import NAMESPACE_TAKEBACK_RECORD

    referee_records.check(
        record, seq, manifest, signatures,
        schema="takeback-record", what="the takeback", namespace=NAMESPACE_TAKEBACK_RECORD,
    )  # fmt: skip
    try:
        return apply_record(table, seq, record)
    except Tampered as exc:
        raise VerificationFailed(exc.message) from None


def check_order(table: Table, seq: int, record: dict[str, Any]) -> None:
    """``arbiter verify``: a takeback every seat concerned accepted is the very next entry."""
    if due(table) is not None and record.get("format") != TAKEBACK_RECORD_FORMAT:
        raise VerificationFailed(
            f"entry #{seq}: every seat accepted a takeback, but the referee's takeback record "
            "is not the next entry"
        )


# -- the player's file ------------------------------------------------------------------


def make_request(state: dict[str, Any], key: Path, to: int) -> dict[str, Any]:
    """Return a takeback request signed against the head recorded in ``state``."""
    from arbiter.core.player import own_state
    from arbiter.core.schemas import validate
    from arbiter.core.signing import NAMESPACE_TAKEBACK, sign

    seat = own_state(state)
    if not 0 <= to < state["seq"]:
        raise UsageError(
            f"--to {to}: give an entry before your state file's head (entry #{state['seq']})"
        )
    request: dict[str, Any] = {
        "format": TAKEBACK_FORMAT,
        "game": state["game"],
        "seat": seat,
        "after": state["head"],
        "to": to,
    }
    request["signature"] = sign(request, key, NAMESPACE_TAKEBACK)
    validate("takeback", request, "takeback file")
    return request


def _answer_checked(table: Table, record: dict[str, Any], head: str, seq: int) -> None:
    """Answers are judged by ``life.check_seat_file`` (open request, seat needed, once)."""


life.HANDLERS["takeback-request"] = (check_request, apply_request)
life.HANDLERS["answer:takeback"] = (_answer_checked, apply_answer)
