"""Pair a round into tables: round-robin schedules and Swiss pairings.

Rules (docs/tournaments.md, "Pairing"):

- Round-robin at 2-player tables: the circle method (player 1 stays, the others rotate
  one place a round); an odd field adds a bye, so each player sits out once.
- Round-robin at larger tables, and Swiss: players are taken in an order (round-robin:
  the players file; Swiss: the standings) and grouped top-down. The first unplaced
  player takes the next unplaced players; a group that would repeat a meeting is
  replaced by the nearest one down the order that does not. Over the whole round the
  search finds the fewest repeat meetings (each weighted by how often that pair already
  met), and among those the first grouping in that order: a bounded, deterministic
  search (``BUDGET`` groupings per step), never a random draw.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from arbiter.tournament.tables import seat_order, table_sizes, tiebreak

BUDGET = 20_000
"""Groupings the search may try for each repeat limit before it allows more repeats."""


@dataclass
class History:
    """What earlier rounds decided: meetings, seat positions, byes."""

    met: Counter[frozenset[str]] = field(default_factory=Counter)
    seatings: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    byes: Counter[str] = field(default_factory=Counter)

    def add_table(self, seats: Sequence[str]) -> None:
        for position, name in enumerate(seats):
            self.seatings.setdefault(name, []).append((position, len(seats)))
        for a, b in combinations(seats, 2):
            self.met[frozenset((a, b))] += 1

    def add_bye(self, name: str) -> None:
        self.byes[name] += 1

    def cost(self, table: Iterable[str]) -> int:
        """Repeat meetings this table would make, each weighted by earlier meetings."""
        return sum(self.met[frozenset(pair)] for pair in combinations(table, 2))


@dataclass(frozen=True)
class Pairing:
    """A round: tables with players in seat order, and the players who sit out."""

    tables: list[list[str]]
    byes: list[str]


def round_robin_rounds(players: int, table_size: int) -> int:
    """Rounds of a full round-robin: everyone can meet everyone once."""
    if table_size == 2:
        return players if players % 2 else players - 1
    return max(1, math.ceil((players - 1) / (table_size - 1)))


def round_robin(
    names: Sequence[str],
    table_size: int,
    allowed: Iterable[int],
    round_number: int,
    history: History,
    tournament_id: str,
) -> Pairing:
    """Pair round ``round_number`` of a round-robin over ``names`` (the players file order)."""
    allowed = list(allowed)
    if table_size == 2 and 2 in allowed:
        groups, byes = _circle(list(names), round_number)
    else:
        byes = _byes(list(names), table_size, allowed, history, tournament_id, round_number)
        seated = [name for name in names if name not in byes]
        sizes, _ = table_sizes(len(seated), table_size, allowed)
        groups = group(seated, sizes, history)
    return _seat(groups, byes, history, tournament_id, round_number)


def swiss(
    order: Sequence[str],
    table_size: int,
    allowed: Iterable[int],
    round_number: int,
    history: History,
    tournament_id: str,
) -> Pairing:
    """Pair a Swiss round; ``order`` is the standings order, best first."""
    byes = _byes(list(order), table_size, allowed, history, tournament_id, round_number)
    seated = [name for name in order if name not in byes]
    sizes, _ = table_sizes(len(seated), table_size, allowed)
    return _seat(group(seated, sizes, history), byes, history, tournament_id, round_number)


def _circle(names: list[str], round_number: int) -> tuple[list[list[str]], list[str]]:
    """The circle method: round ``round_number`` (1-based) of a 2-player round-robin."""
    field_: list[str | None] = [*names, None] if len(names) % 2 else list(names)
    n = len(field_)
    shift = (round_number - 1) % (n - 1)
    others = field_[1:]
    turned = [field_[0], *others[len(others) - shift :], *others[: len(others) - shift]]
    tables, byes = [], []
    for i in range(n // 2):
        a, b = turned[i], turned[n - 1 - i]
        if a is None or b is None:
            byes.append(b if a is None else a)
        else:
            tables.append([a, b])
    return tables, [name for name in byes if name is not None]


def _byes(
    order: list[str],
    table_size: int,
    allowed: Iterable[int],
    history: History,
    tournament_id: str,
    round_number: int,
) -> list[str]:
    """Choose who sits out: those with the fewest byes so far, from the bottom of ``order``."""
    _, count = table_sizes(len(order), table_size, allowed)
    if count == 0:
        return []
    position = {name: i for i, name in enumerate(order)}
    candidates = sorted(
        order,
        key=lambda name: (
            history.byes[name],
            -position[name],
            tiebreak(tournament_id, round_number, name),
        ),
    )
    return candidates[:count]


def _seat(
    groups: list[list[str]],
    byes: list[str],
    history: History,
    tournament_id: str,
    round_number: int,
) -> Pairing:
    tables = [seat_order(g, history.seatings, tournament_id, round_number) for g in groups]
    return Pairing(tables, sorted(byes))


class _OutOfBudget(Exception):
    pass


def group(order: Sequence[str], sizes: Sequence[int], history: History) -> list[list[str]]:
    """Split ``order`` into tables of ``sizes`` (in that order) with the fewest repeat
    meetings, grouping top-down (see the module's docstring)."""
    assert sum(sizes) == len(order), (sizes, len(order))
    return _grouped([list(order)], [(0, size) for size in sizes], history)


def _grouped(
    orders: list[list[str]], steps: list[tuple[int, int]], history: History
) -> list[list[str]]:
    """Return one table per step ``(round, size)``: each round's players (``orders[round]``)
    split in order, with the fewest repeat meetings over all steps."""
    limit = 0
    while True:
        over: list[int] = []
        try:
            found = _search(orders, steps, history, limit, over)
        except _OutOfBudget:
            found = None
        if found is not None:
            return found
        # Allow the next repeat cost that any grouping reached (IDA*-style), at least +1.
        limit = max(limit + 1, min(over, default=limit + 1))


def _search(
    orders: list[list[str]],
    steps: list[tuple[int, int]],
    history: History,
    limit: int,
    over: list[int],
) -> list[list[str]] | None:
    nodes = 0
    met = Counter(history.met)

    def dfs(k: int, remaining: list[str], cost: int) -> list[list[str]] | None:
        nonlocal nodes
        if k == len(steps):
            return []
        if not remaining:  # the next round starts
            remaining = orders[steps[k][0]]
        first, rest = remaining[0], remaining[1:]
        for picks in combinations(range(len(rest)), steps[k][1] - 1):
            nodes += 1
            if nodes > BUDGET:
                raise _OutOfBudget
            table = [first, *(rest[i] for i in picks)]
            pairs = [frozenset(pair) for pair in combinations(table, 2)]
            total = cost + sum(met[pair] for pair in pairs)
            if total > limit:
                over.append(total)
                continue
            met.update(pairs)
            chosen = set(picks)
            tail = dfs(k + 1, [p for i, p in enumerate(rest) if i not in chosen], total)
            met.subtract(pairs)
            if tail is not None:
                return [table, *tail]
        return None

    return dfs(0, [], 0)
