"""Leave: a seat's signed leave file, and the referee's automatic leave (docs/clocks.md).

A leave file (``arbiter.leave/1``, namespace ``arbiter-leave``, chain kind ``leave``)
takes ``days`` whole days of the seat's leave from the time of its entry: every clock
stops while it lasts ("the game waits"). It is accepted at any time, even out of turn,
while the seat has that many days left; like a resignation it may cite any head of the
chain, so it is never stale. In a game whose terms say ``leave_auto``, ``arbiter
timeout`` records a referee-signed ``leave-auto`` entry (``arbiter.leave-auto/1``,
namespace ``arbiter-autoleave``) instead of a timeout while the waiting seat has leave
left: from when its time ran out, whole days enough to reach past the referee's clock.

The referee and ``arbiter verify`` judge both here, with the same checks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.core.entrylines import EntryLines
from arbiter.core.errors import IllegalAction, StaleHead, Tampered

Table = Any


def _days(n: int) -> str:
    return f"{n} day{'s' if n != 1 else ''}"


def check(table: Table, record: dict[str, Any], head: str, known: Any) -> None:
    """Refuse a leave file the game's terms or the seat's leave left do not allow."""
    fold = table.clock
    seat, days = record["seat"], record["days"]
    if fold is None or not fold.terms.leave:
        raise IllegalAction(
            "this game gives no leave (game.json sets none: arbiter new --leave): "
            "nothing to take"
        )
    if record["after"] != head and not known(record["after"]):
        raise StaleHead(
            "the leave file names a head that is not in this game's chain: build it again "
            "from your state file"
        )
    left = fold.leave_left[seat]
    if days > left:
        raise IllegalAction(
            f"{seat} has {_days(left)} of leave left, not {days}: take at most {left}"
            if left
            else f"{seat} has no leave left: all {_days(fold.terms.leave)} were taken"
        )


def apply(table: Table, record: dict[str, Any]) -> EntryLines:
    """Apply an accepted leave file: the fold starts the leave at the entry's time."""
    seat, days = record["seat"], record["days"]
    fold = table.clock
    fold.take_leave(seat, days)
    lines = EntryLines(seats={s: [] for s in table.narrated_seats})
    lines.add_common(
        table.seats,
        f"{seat} takes {_days(days)} of leave from now: the game waits, every clock "
        f"stopped, until it ends; {seat} has {_days(fold.leave_left[seat])} of leave left.",
    )
    return lines


def apply_auto(table: Table, record: dict[str, Any]) -> EntryLines:
    """Apply the referee's automatic leave (its checks: ``check_auto``)."""
    table.skip_ply()  # draws nothing (docs/rng.md §3)
    seat, days = record["seat"], record["days"]
    fold = table.clock
    if fold is None:
        raise Tampered("automatic leave in a game whose terms give no leave")
    fold.take_leave(seat, days, record["start"])
    lines = EntryLines(seats={s: [] for s in table.narrated_seats})
    lines.add_common(
        table.seats,
        f"{seat}'s time ran out at {record['start']}: {_days(days)} of its leave taken "
        f"automatically from then; the game waits, every clock stopped, and {seat} has "
        f"{_days(fold.leave_left[seat])} of leave left.",
    )
    return lines


def check_auto(table: Table, record: dict[str, Any], head: str, time: str | None) -> None:
    """Refuse an automatic leave record the terms and the clocks do not give (verify).

    ``time`` is its chain entry's time; the fold has not yet seen the entry."""
    from arbiter.core.clocks import text

    fold = table.clock
    if fold is None or not fold.terms.leave_auto:
        raise Tampered("automatic leave in a game whose terms do not say leave_auto")
    if record["after"] != head or record["time"] != time:
        raise Tampered("the automatic leave record does not match its chain entry")
    if record["seat"] != fold.waiting:
        raise Tampered(f"automatic leave for {record['seat']}, whom the game did not wait for")
    if fold.last is None or record["since"] != text(fold.last):
        raise Tampered("the automatic leave record's times are not the chain's")
    if record["start"] != fold.due():
        raise Tampered(
            f"automatic leave from {record['start']}, but {record['seat']}'s time ran out at "
            f"{fold.due()}"
        )
    if record["days"] != fold.auto_days(record["time"]):
        raise Tampered("the automatic leave takes other days than the terms give")


# -- the referee's side -----------------------------------------------------------------


def auto_record(
    table: Table, game: str, head: str, since: str, now: str, key: Path
) -> dict[str, Any] | None:
    """The signed automatic leave record ``arbiter timeout`` makes at ``now``, or ``None``
    when the terms or the waiting seat's leave give none."""
    from arbiter.core.formats import LEAVE_AUTO_FORMAT
    from arbiter.core.schemas import validate
    from arbiter.core.signing import NAMESPACE_LEAVE_AUTO, sign

    fold = table.clock
    if fold is None:
        return None
    days = fold.auto_days(now)
    if not days:
        return None
    record: dict[str, Any] = {
        "format": LEAVE_AUTO_FORMAT,
        "game": game,
        "seat": fold.waiting,
        "after": head,
        "since": since,
        "start": fold.due(),
        "time": now,
        "days": days,
    }
    record["signature"] = sign(record, key, NAMESPACE_LEAVE_AUTO)
    validate("leave-auto", record, "the automatic leave record")
    return record


# -- the player's side ------------------------------------------------------------------


def make_leave(state: dict[str, Any], key: Path, days: int) -> dict[str, Any]:
    """Return ``state``'s seat's signed leave file for ``days`` days, against its head.

    Refused at once when the state file shows the referee will refuse it (the game is
    not being played, or the seat has less leave left)."""
    from arbiter.core.errors import GameOver, UsageError
    from arbiter.core.formats import LEAVE_FORMAT
    from arbiter.core.player import own_state
    from arbiter.core.schemas import validate
    from arbiter.core.signing import NAMESPACE_LEAVE, sign

    seat = own_state(state)
    if not 1 <= days <= 366:
        raise UsageError(f"--days {days} must be a number of days from 1 to 366")
    if state["status"] == "over":
        raise GameOver("the game is over: there is no clock to stop")
    clock = state.get("clock")
    left = clock.get("leave") if isinstance(clock, dict) else None
    if left is None:
        raise IllegalAction(
            "this game gives no leave (game.json sets none: arbiter new --leave): nothing to take"
        )
    if seat in left and days > left[seat]:
        raise IllegalAction(
            f"{seat} has {_days(left[seat])} of leave left, not {days}: take at most {left[seat]}"
            if left[seat]
            else f"{seat} has no leave left"
        )
    record: dict[str, Any] = {
        "format": LEAVE_FORMAT,
        "game": state["game"],
        "seat": seat,
        "after": state["head"],
        "days": days,
    }
    record["signature"] = sign(record, key, NAMESPACE_LEAVE)
    validate("leave", record, "leave file")
    return record
