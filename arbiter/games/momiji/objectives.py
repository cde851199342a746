"""Objective measures: one small function per id, selected by the data's ``measure`` field.

A measure returns an integer per seat at the end of the game; higher meets the objective
better. "Most ..." measures need a positive count to be met at all (MOM-R11).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arbiter.games.momiji.state import State

Row = dict[str, Any]


@dataclass(frozen=True)
class Measure:
    """An objective behaviour: the measure and whether 0 still meets it."""

    id: str
    measure: Callable[[State, str, Row], int]
    needs_positive: bool = True


MEASURES: dict[str, Measure] = {}


def measure(measure_id: str, needs_positive: bool = True) -> Callable[[Any], Any]:
    """Register a measure function under the data's behaviour id."""

    def register(fn: Callable[[State, str, Row], int]) -> Callable[[State, str, Row], int]:
        MEASURES[measure_id] = Measure(measure_id, fn, needs_positive)
        return fn

    return register


def _values(state: State, seat: str) -> list[int]:
    cards = state.cards.cards
    return [cards[c].value for p in state.players[seat].piles for c in p.cards]


@measure("most-zeros")
def most_zeros(state: State, seat: str, row: Row) -> int:
    """Count the 0s in your piles."""
    return _values(state, seat).count(0)


@measure("most-of-type")
def most_of_type(state: State, seat: str, row: Row) -> int:
    """Count the cards in your pile of the objective's type."""
    pile = state.players[seat].pile(row["type"])
    return 0 if pile is None else len(pile.cards)


@measure("most-visible")
def most_visible(state: State, seat: str, row: Row) -> int:
    """Count the visible cards: one top card per pile."""
    return len(state.players[seat].piles)


@measure("top-sum")
def top_sum(state: State, seat: str, row: Row) -> int:
    """Add up your piles' top cards."""
    cards = state.cards.cards
    return sum(cards[p.top].value for p in state.players[seat].piles)


@measure("most-closed")
def most_closed(state: State, seat: str, row: Row) -> int:
    """Count your piles closed by a torii."""
    return sum(p.closed(state.cards) for p in state.players[seat].piles)


@measure("most-acorns")
def most_acorns(state: State, seat: str, row: Row) -> int:
    """Count your acorns left at the end."""
    return state.players[seat].acorns


@measure("fewest-hand", needs_positive=False)
def fewest_hand(state: State, seat: str, row: Row) -> int:
    """Return minus the hand size: fewer cards in hand is better."""
    return -len(state.players[seat].hand)


@measure("longest-pile")
def longest_pile(state: State, seat: str, row: Row) -> int:
    """Count the cards in your tallest pile."""
    return max((len(p.cards) for p in state.players[seat].piles), default=0)


def best(state: State, row: Row) -> tuple[dict[str, int], list[str]]:
    """Return every seat's measure and the seats that meet the objective best (ties all)."""
    spec = MEASURES[row["measure"]]
    values = {seat: spec.measure(state, seat, row) for seat in state.seats}
    top = max(values.values())
    if spec.needs_positive and top <= 0:
        return values, []
    return values, [seat for seat in state.seats if values[seat] == top]
