"""Clocks: a time bank with an increment and a cap, leave, and weekend pauses (issue 27,
docs/clocks.md).

The terms are members of game.json's ``deadline`` object, signed at join: ``bank``,
``increment``, ``cap`` (seconds), ``leave`` (days per seat per game), ``leave_auto``
and ``weekends`` (``"pause"``). A game with none of them keeps today's rule (each seat
has ``seconds`` from the last entry, then ``grace``: ``arbiter.core.deadlines``) and its
bytes; a game with any of them is *clocked*, and its clocks are the fold below.

The fold reads only the chain entries' ``time`` members (the referee's clock enters at
the edge, as for every deadline) and who the game waited for after each entry:

- the time an entry took is its time minus the time of the entry before, less the paused
  spans in between (Saturdays and Sundays UTC with ``weekends: pause``; every seat's
  leave, which stops every clock); it is charged to the seat the game was waiting for;
- a seat's wait may span several entries (another seat's leave, an answer): its time
  used adds up until its own move hands the turn on; then its bank becomes
  ``min(cap, max(0, bank - used) + increment)`` (a move in the grace empties the bank);
  a timeout counts as such a move, made for the seat;
- the waiting seat's time runs out when ``min(bank, seconds) - used`` is spent
  (``seconds``: ``--deadline``, a limit on any one wait; 366 days when only ``--bank``
  was given), and its grace ends ``grace`` later, pauses counted again.

Nothing here reads the clock: times are the strings the referee recorded, and the
arithmetic is ``arbiter.core.deadlines``'.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from arbiter.core.deadlines import MAX_SECONDS, add, parse_duration, seconds_between
from arbiter.core.errors import UsageError

EPOCH = "1970-01-01T00:00:00Z"
DAY = 86400
WEEK = 7 * DAY
# The members of the deadline object that make a game clocked.
KEYS = ("bank", "increment", "cap", "leave", "leave_auto", "weekends")
# 1970-01-01 was a Thursday: day 2 was the first Saturday.
_SATURDAY = 2


def epoch(time: str) -> int:
    """Seconds since 1970-01-01T00:00:00Z of a recorded time."""
    return seconds_between(EPOCH, time)


def text(seconds: int) -> str:
    """The recorded form of a time given in seconds since the epoch."""
    return add(EPOCH, seconds)


# -- terms ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockTerms:
    """A clocked game's terms, from game.json's ``deadline`` object."""

    seconds: int
    grace: int
    bank: int | None
    increment: int
    cap: int | None
    leave: int
    """Days of leave per seat (0: none)."""
    leave_auto: bool
    weekends: bool


def clock_terms(manifest: dict[str, Any]) -> ClockTerms | None:
    """Return the clock terms of a clocked game, ``None`` for any other game."""
    raw = manifest.get("deadline")
    if not isinstance(raw, dict) or not any(key in raw for key in KEYS):
        return None
    return ClockTerms(
        seconds=raw["seconds"],
        grace=raw["grace"],
        bank=raw.get("bank"),
        increment=raw.get("increment") or 0,
        cap=raw.get("cap"),
        leave=raw.get("leave") or 0,
        leave_auto=bool(raw.get("leave_auto")),
        weekends=raw.get("weekends") == "pause",
    )


def make_terms(
    bank: str | None = None,
    increment: str | None = None,
    cap: str | None = None,
    leave: str | None = None,
    leave_auto: bool = False,
    weekends: str | None = None,
) -> dict[str, Any]:
    """Return the checked clock members of game.json's deadline object for ``arbiter new``
    (durations as the options give them: ``10d``, ``36h``); empty when none is given."""
    terms: dict[str, Any] = {}
    if bank is not None:
        terms["bank"] = parse_duration(bank, "--bank")
    elif increment is not None or cap is not None:
        raise UsageError("--increment and --cap are for a time bank: give --bank too")
    if increment is not None:
        terms["increment"] = parse_duration(increment, "--increment", minimum=0)
    if cap is not None:
        terms["cap"] = parse_duration(cap, "--cap")
        if terms["cap"] < terms["bank"]:
            raise UsageError(f"--cap {cap!r} is less than --bank {bank!r}: a bank starts within its cap")
    if leave is not None:
        seconds = parse_duration(leave, "--leave")
        if seconds % DAY:
            raise UsageError(f"--leave {leave[:20]!r} must be whole days, like 5d")
        terms["leave"] = seconds // DAY
    if leave_auto:
        if leave is None:
            raise UsageError("--leave-auto takes leave automatically: give --leave too")
        terms["leave_auto"] = True
    if weekends is not None:
        if weekends not in ("pause", "count"):
            raise UsageError(f"--weekends must be pause or count, not {weekends[:20]!r}")
        if weekends == "pause":
            terms["weekends"] = "pause"
    return terms


def default_seconds(deadline: int | None, terms: dict[str, Any]) -> int | None:
    """The ``--deadline`` of a game: with a bank and no ``--deadline``, no wait is limited
    but by the bank (366 days, the longest deadline)."""
    if deadline is None and "bank" in terms:
        return MAX_SECONDS
    if deadline is None and terms:
        raise UsageError("--leave and --weekends count a deadline's time: give --deadline or --bank")
    return deadline


def describe(terms: dict[str, Any]) -> str:
    """One line for ``arbiter new``: the clock terms of game.json's deadline object."""
    from arbiter.core.deadlines import describe_duration as d

    parts = []
    if terms.get("bank"):
        parts.append(f"bank {d(terms['bank'])}")
        if terms.get("increment"):
            parts.append(f"+{d(terms['increment'])} a turn")
        if terms.get("cap"):
            parts.append(f"cap {d(terms['cap'])}")
    if terms.get("leave"):
        auto = ", taken automatically when time runs out" if terms.get("leave_auto") else ""
        parts.append(f"{terms['leave']}d leave per seat{auto}")
    if terms.get("weekends") == "pause":
        parts.append("weekends paused")
    return ", ".join(parts)


# -- pauses -----------------------------------------------------------------------------


def _weekends(start: int, end: int) -> Iterator[tuple[int, int]]:
    """Each Saturday 00:00 – Monday 00:00 UTC that meets ``[start, end)``."""
    day = start // DAY
    saturday = day - (day - _SATURDAY) % 7
    at = saturday * DAY
    while at < end:
        yield at, at + 2 * DAY
        at += WEEK


class Pauses:
    """The spans no clock runs in: weekends (if paused) and every seat's leave."""

    def __init__(self, weekends: bool, spans: list[tuple[int, int]]):
        self.weekends = weekends
        self.spans = spans

    def within(self, start: int, end: int) -> list[tuple[int, int]]:
        """The paused spans met by ``[start, end)``, merged, clipped and in order."""
        found = [(a, b) for a, b in self.spans if a < end and b > start]
        if self.weekends:
            found += list(_weekends(start, end))
        merged: list[tuple[int, int]] = []
        for a, b in sorted(found):
            a, b = max(a, start), min(b, end)
            if a >= b:
                continue
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        return merged

    def active(self, start: int, end: int) -> int:
        """Seconds of ``[start, end)`` a clock runs."""
        if end <= start:
            return 0
        return end - start - sum(b - a for a, b in self.within(start, end))

    def advance(self, start: int, amount: int) -> int:
        """The first time from ``start`` by which a clock has run ``amount`` seconds.

        Nothing runs out while the clocks stand: with nothing left (``amount <= 0``) at a
        paused time, it is the end of that pause."""
        # Weekends take 2 days in 7, so twice the amount plus every leave is always enough.
        horizon = start + 2 * max(0, amount) + sum(b - a for a, b in self.spans) + WEEK
        at, left = start, max(0, amount)
        for a, b in self.within(start, horizon):
            if a > at:
                if left <= a - at:
                    return at + left
                left -= a - at
            at = max(at, b)
        return at + left


# -- the fold ---------------------------------------------------------------------------


class Fold:
    """Every seat's clock after each chain entry of a clocked game (the table holds one)."""

    def __init__(self, terms: ClockTerms, seats: list[str]):
        self.terms = terms
        self.banks: dict[str, int] | None = (
            dict.fromkeys(seats, terms.bank) if terms.bank is not None else None
        )
        self.used: dict[str, int] = dict.fromkeys(seats, 0)
        """Time used in the seat's current wait."""
        self.leave_left: dict[str, int] = dict.fromkeys(seats, terms.leave)
        self.leaves: list[tuple[int, int, str]] = []
        """Every leave taken: start, end (seconds), seat."""
        self.last: int | None = None
        self.waiting: str | None = None
        self._taking: tuple[str, int, int | None] | None = None

    # -- reading ----------------------------------------------------------------------
    def pauses(self) -> Pauses:
        return Pauses(self.terms.weekends, [(a, b) for a, b, _ in self.leaves])

    def available(self) -> int | None:
        """The waiting seat's time left at the last entry (before the grace), or ``None``."""
        seat = self.waiting
        if seat is None:
            return None
        left = self.terms.seconds - self.used[seat]
        if self.banks is not None:
            left = min(left, self.banks[seat])
        return left

    def due_at(self) -> int | None:
        """When the waiting seat's time runs out (seconds), or ``None``."""
        left = self.available()
        if left is None or self.last is None:
            return None
        return self.pauses().advance(self.last, max(0, left))

    def final_at(self) -> int | None:
        """When the waiting seat's grace ends too (seconds), or ``None``."""
        left = self.available()
        if left is None or self.last is None:
            return None
        return self.pauses().advance(self.last, max(0, left + self.terms.grace))

    def due(self) -> str | None:
        at = self.due_at()
        return None if at is None else text(at)

    def final(self) -> str | None:
        at = self.final_at()
        return None if at is None else text(at)

    def auto_days(self, now: str) -> int:
        """Days of leave ``arbiter timeout`` takes for the waiting seat at ``now`` (0: none):
        from when its time ran out, enough whole days to reach past ``now``, as far as its
        leave goes."""
        due = self.due_at()
        seat = self.waiting
        if not self.terms.leave_auto or seat is None or due is None or epoch(now) < due:
            return 0
        return min(self.leave_left[seat], (epoch(now) - due) // DAY + 1)

    def to_json(self) -> dict[str, Any]:
        """The ``clock`` member of every state file."""
        assert self.last is not None
        return {
            "since": text(self.last),
            "waiting": self.waiting,
            "due": self.due(),
            "final": self.final(),
            "banks": dict(self.banks) if self.banks is not None else None,
            "leave": dict(self.leave_left) if self.terms.leave else None,
            "on_leave": [
                {"seat": seat, "start": text(a), "end": text(b)}
                for a, b, seat in self.leaves
                if b > self.last
            ],
        }

    # -- folding ----------------------------------------------------------------------
    def take_leave(self, seat: str, days: int, start: str | None = None) -> None:
        """Record leave taken by the entry being applied (from its time, or ``start``)."""
        self.leave_left[seat] -= days
        self._taking = (seat, days, None if start is None else epoch(start))

    def step(self, kind: str, seat: str | None, time: str, waiting: str | None) -> None:
        """Fold one chain entry: ``kind`` by ``seat`` at ``time``; ``waiting`` is the seat
        the game waits for after it (``None``: joins, or the game is over)."""
        at = epoch(time)
        if self._taking is not None:
            who, days, start = self._taking
            start = at if start is None else start
            self.leaves.append((start, start + days * DAY, who))
            self._taking = None
        before = self.waiting
        if before is not None and self.last is not None:
            spent = self.pauses().active(self.last, at)
            self.used[before] += spent
            if self.banks is not None:
                self.banks[before] -= spent
        if before is not None and waiting != before:
            # The wait is over: a move of the seat's own (or its timeout) earns the increment.
            if self.banks is not None and kind in ("move", "timeout") and seat == before:
                bank = max(0, self.banks[before]) + self.terms.increment
                cap = self.terms.cap
                self.banks[before] = bank if cap is None else min(cap, bank)
            self.used[before] = 0
        self.waiting = waiting
        self.last = at


def fold_for(manifest: dict[str, Any], seats: list[str]) -> Fold | None:
    """A new fold for a clocked game, ``None`` for any other."""
    terms = clock_terms(manifest)
    return None if terms is None else Fold(terms, seats)


def step(table: Any, kind: str, seat: str | None, time: str | None) -> None:
    """Fold entry ``kind`` by ``seat`` at ``time`` into ``table.clock``, after the table
    applied it (nothing for a game that is not clocked)."""
    fold = table.clock
    if fold is None:
        return
    if time is None:
        from arbiter.core.errors import Tampered

        raise Tampered("an entry of a game with deadlines has no time")
    prompt = table.prompt()
    fold.step(kind, seat, time, None if prompt is None else prompt.seat)


# -- status ---------------------------------------------------------------------------


def status(state: dict[str, Any], manifest: dict[str, Any], now: str) -> dict[str, Any] | None:
    """The ``deadline`` member of ``arbiter status --json`` for a clocked game, from its
    public state file and the referee's clock ``now``."""
    clock = state.get("clock")
    if not isinstance(clock, dict) or state["status"] != "playing":
        return None
    seat, due, final = clock["waiting"], clock["due"], clock["final"]
    if seat is None or due is None or final is None:
        return None
    raw = manifest["deadline"]
    return {
        "seat": seat,
        "since": clock["since"],
        "due": due,
        "half": None,
        "final": final,
        "policy": raw["on_timeout"],
        "overdue": now >= due,
        "timeout_owed": now >= final,
        "banks": clock["banks"],
        "leave": clock["leave"],
        "leave_auto": bool(raw.get("leave_auto")),
        "on_leave": clock["on_leave"],
    }


def status_lines(info: dict[str, Any]) -> list[str]:
    """The lines ``arbiter status`` prints for a clocked game's waiting seat."""
    from arbiter.core.deadlines import describe_duration

    seat = info["seat"]
    out = []
    if info["timeout_owed"]:
        then = "its leave" if info["leave_auto"] and (info["leave"] or {}).get(seat) else info["policy"]
        out.append(
            f"deadline: {seat} is overdue since {info['due']} (grace ended {info['final']}): "
            f"`arbiter timeout` applies {then} (waiting since {info['since']})"
        )
    elif info["overdue"]:
        out.append(
            f"deadline: {seat} is overdue since {info['due']}, in the grace until "
            f"{info['final']}; then {info['policy']} (waiting since {info['since']})"
        )
    else:
        grace = f", grace until {info['final']}" if info["final"] != info["due"] else ""
        out.append(
            f"deadline: {seat} has until {info['due']}{grace}; then {info['policy']} "
            f"(waiting since {info['since']})"
        )
    for name in (info["banks"] or info["leave"] or {}):
        parts = []
        if info["banks"] is not None:
            bank = info["banks"][name]
            parts.append(f"bank {describe_duration(max(0, bank))}" + (" (spent)" if bank <= 0 else ""))
        if info["leave"] is not None:
            parts.append(f"leave {info['leave'][name]}d left")
        waits = " (waiting)" if name == seat else ""
        out.append(f"clock: {name}{waits}: {', '.join(parts)} at {info['since']}")
    for leave in info["on_leave"]:
        out.append(f"on leave: {leave['seat']} until {leave['end']}: every clock stops")
    return out
