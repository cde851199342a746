"""Matching a standing order's ``when`` against the other seats' public decisions.

A ``when`` is a list read like a glob over decisions (docs/standing-orders.md):

- ``"*"`` matches any number of decisions, none included;
- a decision matches a public decision that has each of its fields with the same value;
  fields it leaves out may be anything (``{"kind": "task"}``: any task). In a version-1
  orders file (``exact``) a decision matches only an equal one, as it always did.

The referee follows a condition decision by decision: ``reach`` returns the pattern
positions the decisions so far can have led to. An empty set means no continuation can
match (the orders are dropped at once, as at a mismatch); a set holding ``len(when)``
means the condition is met now. A pattern is matched only against public forms, so a
field the public form leaves out (a returned card) never matches: whether a step fires
never depends on what the seat cannot see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

ANY = "*"
"""The pattern element that matches any number of decisions."""


def matches(item: dict[str, Any], decision: dict[str, Any], exact: bool) -> bool:
    """Whether one pattern decision matches one public decision."""
    if exact:
        return item == decision
    return all(key in decision and decision[key] == value for key, value in item.items())


def _closed(positions: Iterable[int], when: Sequence[Any]) -> frozenset[int]:
    """The positions, and those past any ``"*"`` at them (a star may match nothing)."""
    out: set[int] = set()
    for position in positions:
        while position not in out:
            out.add(position)
            if position < len(when) and when[position] == ANY:
                position += 1
    return frozenset(out)


def reach(when: Sequence[Any], since: Sequence[dict[str, Any]], exact: bool) -> frozenset[int]:
    """The positions in ``when`` the decisions ``since`` can have led to (none: no match)."""
    positions = _closed([0], when)
    for decision in since:
        following: list[int] = []
        for position in positions:
            if position >= len(when):
                continue
            item = when[position]
            if item == ANY:
                following.append(position)  # the star takes this decision and may take more
            elif matches(item, decision, exact):
                following.append(position + 1)
        positions = _closed(following, when)
        if not positions:
            break
    return positions


def viable(when: Sequence[Any], since: Sequence[dict[str, Any]], exact: bool) -> bool:
    """Whether decisions yet to come could still complete a match of ``since``."""
    return bool(reach(when, since, exact))


def met(when: Sequence[Any], since: Sequence[dict[str, Any]], exact: bool) -> bool:
    """Whether ``since`` matches the whole of ``when``."""
    return len(when) in reach(when, since, exact)
