"""The tally game's state: plain data, encoded to JSON with integers only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FORMAT = "tally.state/1"


@dataclass
class TallyState:
    """Everything the referee knows; ``view`` decides what each seat sees."""

    seats: list[str]
    cards: int
    """Deck size at setup: the cards are numbered 1..cards."""
    deck: list[int]
    """Face down, top card first."""
    hands: dict[str, list[int]]
    """Private to the owner; kept sorted so order leaks nothing."""
    tallies: dict[str, list[int]]
    """Face up, in the order played."""
    piles: dict[str, list[int]]
    """Face-down discards, in the order discarded; only the owner knows them."""
    turn: str
    played: int = 0
    """Cards the seat whose turn it is has played this turn."""
    discarded: bool = False
    """Whether that seat has discarded this turn."""

    @property
    def over(self) -> bool:
        return not self.deck and not any(self.hands.values())


def encode(state: TallyState) -> dict[str, Any]:
    """Return the state as plain JSON data."""
    return {
        "format": FORMAT,
        "seats": list(state.seats),
        "cards": state.cards,
        "deck": list(state.deck),
        "hands": {s: list(c) for s, c in state.hands.items()},
        "tallies": {s: list(c) for s, c in state.tallies.items()},
        "piles": {s: list(c) for s, c in state.piles.items()},
        "turn": state.turn,
        "played": state.played,
        "discarded": state.discarded,
    }


def decode(data: dict[str, Any]) -> TallyState:
    """Rebuild a state from ``encode``'s output (copies every list)."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a tally state: format {data.get('format')!r}, expected {FORMAT}")
    return TallyState(
        seats=list(data["seats"]),
        cards=data["cards"],
        deck=list(data["deck"]),
        hands={s: list(c) for s, c in data["hands"].items()},
        tallies={s: list(c) for s, c in data["tallies"].items()},
        piles={s: list(c) for s, c in data["piles"].items()},
        turn=data["turn"],
        played=data["played"],
        discarded=data["discarded"],
    )
