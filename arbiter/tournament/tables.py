"""Split a field into tables, choose who sits out, and order the seats at a table.

Rules (docs/tournaments.md, "Tables and byes", "Seat order"):

- Tables have the tournament's table size ``T``. When the field does not divide, some
  tables have ``T-1`` or ``T+1`` seats (only sizes the engine seats): the split with the
  fewest such tables, then the fewest tables. A player sits out (a bye) only when no
  such split exists, and then as few players as possible.
- Seat order evens out over the rounds: at each table the player who has so far sat
  latest on average (seat 1 = 0, last seat = 1, averaged against 1/2) sits first; ties
  go by ``sha256("arbiter-tournament/1" ‖ tournament id ‖ round ‖ name)``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction


def table_sizes(players: int, size: int, allowed: Iterable[int]) -> tuple[list[int], int]:
    """Return (table sizes, number of byes) for a field of ``players``.

    ``allowed`` are the sizes the engine seats among ``size-1``, ``size``, ``size+1``.
    Tables of ``size`` come first, then the others, larger before smaller.
    """
    sizes = sorted({s for s in allowed if s >= 2 and abs(s - size) <= 1})
    for byes in range(players + 1):
        seated = players - byes
        best: tuple[int, int, list[int]] | None = None
        for split in _splits(seated, sizes):
            off = sum(1 for s in split if s != size)
            key = (off, len(split), split)
            if best is None or key[:2] < best[:2]:
                best = key
        if best is not None:
            return ordered(best[2], size), byes
    return [], players


def _splits(total: int, sizes: list[int]) -> Iterable[list[int]]:
    """Yield each way to write ``total`` as a sum of ``sizes`` (as a non-increasing list)."""
    if total == 0:
        yield []
        return
    if not sizes:
        return
    # Largest size first: count how many tables of the largest size, then recurse.
    largest, rest = sizes[-1], sizes[:-1]
    for count in range(total // largest, -1, -1):
        for tail in _splits(total - count * largest, rest):
            yield [largest] * count + tail


def ordered(split: list[int], size: int) -> list[int]:
    """Return table sizes with the usual size first, then larger, then smaller tables."""
    return sorted(split, key=lambda s: (s != size, -s))


def tiebreak(tournament_id: str, round_number: int, name: str) -> str:
    """The documented, unbiased order among otherwise equal players in a round."""
    data = f"arbiter-tournament/1\x00{tournament_id}\x00{round_number}\x00{name}".encode()
    return hashlib.sha256(data).hexdigest()


def lateness(seatings: Sequence[tuple[int, int]]) -> Fraction:
    """Return how late a player has sat so far: the sum over their games of
    ``position / (size - 1) - 1/2`` (0 = sat first and last equally often)."""
    return sum(
        (Fraction(position, size - 1) - Fraction(1, 2) for position, size in seatings if size > 1),
        Fraction(0),
    )


def seat_order(
    members: Iterable[str],
    seatings: Mapping[str, Sequence[tuple[int, int]]],
    tournament_id: str,
    round_number: int,
) -> list[str]:
    """Order a table's players: who has sat latest so far sits first.

    ``seatings`` maps a player to their (position, table size) in earlier rounds.
    """
    return sorted(
        members,
        key=lambda name: (
            -lateness(seatings.get(name, ())),
            tiebreak(tournament_id, round_number, name),
        ),
    )
