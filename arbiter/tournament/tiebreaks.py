"""The published tie-breaks (issue 28 item 5, docs/tournaments.md "Standings").

The organiser chooses an ordered list at ``tournament new`` (``--tiebreaks``); it is part
of the signed terms. After tournament points, players are separated by each tie-break in
turn; players still equal after the whole list share a rank. Each tie-break:

- ``opponents-points`` (Buchholz): the sum of the current points of every opponent, once
  per game played against them;
- ``opponents-points-cut1``: the same less the smallest single opponent's points (one
  weak opponent met counts less; the usual Buchholz cut-1);
- ``game-score``: the sum of the player's scores in their games;
- ``head-to-head``: among the players still tied only, the points each took from the
  others (2 for each tied opponent finished ahead of, 1 for a tie, in games they shared);
- ``place-points``: the share of the opponents beaten, summed over games (a game's points
  ÷ 2(n−1)), so that tables of different sizes weigh the same;
- ``lot``: a lot drawn from the tournament's public seed — the seed of the next round to
  be paired (after the last round: the one a further round would have), so nobody knows
  their lot before the results it depends on (``sha256("arbiter-tournament-lot/1" ‖ seed ‖
  name)``, lower first).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, get_args

from arbiter.core.errors import UsageError
from arbiter.core.models import TieBreak

KNOWN: tuple[str, ...] = get_args(TieBreak)
"""Every tie-break, in the order the docs list them (the model's Literal is the one list)."""
DEFAULT = ("opponents-points", "game-score")
TITLES = {
    "opponents-points": "opponents' points",
    "opponents-points-cut1": "opponents' points cut 1",
    "game-score": "game score",
    "head-to-head": "head to head",
    "place-points": "place points",
    "lot": "lot",
}


def parse(text: str) -> list[str]:
    """``--tiebreaks a,b,c``: known names, each once."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    for name in names:
        if name not in KNOWN:
            raise UsageError(f"--tiebreaks: {name!r} is not a tie-break: choose from {', '.join(KNOWN)}")
    if len(set(names)) != len(names):
        raise UsageError("--tiebreaks names a tie-break twice: list each once")
    return names


def lot(seed: str, name: str) -> str:
    return hashlib.sha256(f"arbiter-tournament-lot/1\x00{seed}\x00{name}".encode()).hexdigest()


def shown(name: str, value: Any) -> str:
    """A tie-break value as the standings print it."""
    if isinstance(value, Fraction):
        return f"{float(value):.3f}"
    if name == "lot":
        return str(value)[:8]
    return str(value)


def rank(
    names: Sequence[str],
    points: dict[str, int],
    order: Sequence[str],
    values: dict[str, dict[str, Any]],
    head_to_head: Callable[[list[str]], dict[str, int]],
    shown_h2h: dict[str, int] | None = None,
) -> list[tuple[int, str]]:
    """Rank ``names`` by points, then each tie-break of ``order`` in turn; return
    ``(rank, name)`` best first, players equal on everything sharing a rank (listed by
    name). ``values[t][name]``: tie-break ``t`` of a player, larger better (``lot``:
    smaller better); ``head_to_head(group)``: the points each member took from the others
    (filled into ``shown_h2h`` for the players it separated or left tied)."""
    groups: list[list[str]] = []
    for value in sorted({points[n] for n in names}, reverse=True):
        groups.append(sorted(n for n in names if points[n] == value))
    for tiebreak in order:
        refined: list[list[str]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if tiebreak == "head-to-head":
                key = head_to_head(group)
                keyed = {n: key[n] for n in group}
                if shown_h2h is not None:
                    shown_h2h.update(keyed)
            else:
                keyed = {n: values[tiebreak][n] for n in group}
            better_low = tiebreak == "lot"
            for value in sorted(set(keyed.values()), reverse=not better_low):
                refined.append(sorted(n for n in group if keyed[n] == value))
        groups = refined
    out: list[tuple[int, str]] = []
    for group in groups:
        place = len(out) + 1
        out.extend((place, name) for name in group)
    return out
