"""How much of a game the tournament's public site shows (``tournament report --site``).

A running game's replay is published only ``delay`` behind the referee's clock
(``--public-delay 24h``), so that spectators cannot relay what they see to a player in
time to matter: the page shows the chain up to the last entry whose ``time`` is at least
the delay old, and nothing after it.

- Only games with deadlines date their entries (docs/chain.md: ``time``). A running game
  whose entries carry no time cannot be cut at an age, so with a delay it is hidden
  whole until it ends.
- The entries shown are a prefix of the chain: it stops at the first entry younger than
  the cut, so an entry is never shown after one that is hidden (the referee never dates
  an entry before the one before it, so this is also "every entry old enough").
- A finished game is shown whole at once: its result is public anyway, and nothing in it
  can help a player of that game any more. A table of a duplicate round is the
  exception: the site (``arbiter.spectate.site``) hides it whole, delay or not, until
  every table of its round is over, as its group plays the same cards (docs/duplicate.md).

"Now" is the referee's clock (``arbiter.core.clock``; ``ARBITER_NOW`` replaces it), read
once by the caller, so one site is cut at one moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbiter.core.deadlines import add, describe_duration


@dataclass(frozen=True)
class Entry:
    """What the delay needs of a chain entry."""

    seq: int
    time: str | None
    hash: str


@dataclass(frozen=True)
class Shown:
    """The part of a game the site shows."""

    upto: int | None
    """The last entry shown (``None``: the game is hidden)."""
    time: str | None
    """The time of the last entry shown, when entries carry times."""
    hash: str | None
    """The hash of the last entry shown: it fixes everything shown (the chain before it)."""
    note: str
    """What the index says about the replay."""


def cutoff(now: str, delay: int) -> str:
    """The newest entry time the site may show: ``delay`` seconds before ``now``."""
    return add(now, -delay)


def shown(entries: Sequence[Entry], over: bool, now: str, delay: int | None) -> Shown:
    """Return how much of a game with these chain entries the site shows at ``now``."""
    head = entries[-1]
    if over or delay is None:
        note = "the whole game" if over else "live: every entry so far"
        return Shown(head.seq, head.time, head.hash, note)
    cut = cutoff(now, delay)
    behind = describe_duration(delay)
    last: Entry | None = None
    for entry in entries:
        if entry.time is None:
            return Shown(
                None, None, None,
                f"hidden until it ends: its entries carry no time to show it {behind} behind "
                "(a game without deadlines)",
            )  # fmt: skip
        if entry.time > cut:  # the fixed UTC form sorts as text
            break
        last = entry
    if last is None:
        return Shown(None, None, None, f"hidden: no entry is {behind} old yet")
    # Whether newer entries exist is not said: that too is news from the last hours.
    note = f"shown {behind} behind: up to entry #{last.seq} ({last.time})"
    return Shown(last.seq, last.time, last.hash, note)
