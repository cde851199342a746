"""The Momiji state as plain data, and its JSON form (ints, strings, bools, lists, objects)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from arbiter.games.momiji.data import TOP, Catalog, catalog

HAND = 6
"""Rules: each player starts with six leaf cards."""
GARDEN = 4
"""Rules: the garden shows four cards; MOM-R4: it refills to four after cards leave it."""
HAND_LIMIT = 8
REVEAL = 4
"""Rules: an acorn reveals four more cards before a collect."""
OBJECTIVE_COST = 3
MAIN, AFTER, LIMIT = "main", "after", "limit"
"""Turn phases: before the main action, after it (minor actions or end), discarding down."""


@dataclass
class Pile:
    """One leaf type's pile in a player's row, bottom card first.

    ``shown`` flags the cards that were ever on top (so everyone saw them); the others
    were buried at once by a second card of the same play and nobody saw them there.
    """

    type: str
    cards: list[str]
    shown: list[bool]

    @property
    def top(self) -> str:
        return self.cards[-1]

    def closed(self, cards: Catalog) -> bool:
        """Rules: a 3 closes the pile with a torii."""
        return cards.cards[self.top].value == TOP


@dataclass
class Player:
    """One seat: hand (``known`` is the part everyone knows), acorns, piles, tokens."""

    hand: list[str]
    acorns: int
    landscapes: list[str]
    known: list[str] = field(default_factory=list)
    """Hand cards everyone saw arrive (from the garden): a sub-multiset of ``hand``."""
    piles: list[Pile] = field(default_factory=list)
    """The row, left to right (MOM-R5: a new pile goes to the right end)."""
    used: list[str] = field(default_factory=list)
    """Landscapes whose power was used (each once per game)."""
    objectives: list[str] = field(default_factory=list)

    def pile(self, kind: str) -> Pile | None:
        return next((p for p in self.piles if p.type == kind), None)


@dataclass
class Turn:
    """The current turn: its seat, phase and the once-per-turn flags."""

    seat: str
    number: int = 1
    phase: str = MAIN
    revealed: bool = False
    """An acorn paid to reveal four cards: the main action must be a collect."""
    discarded: bool = False
    powered: bool = False
    limit: int = HAND_LIMIT


@dataclass
class State:
    """Everything about a game of Momiji; hands, deck order and buried cards are hidden."""

    seats: list[str]
    data: dict[str, Any] | str
    """The printed data: ``"builtin"`` (the shipped file) or a group's own, embedded."""
    types: list[str]
    """The leaf types in play (players + 2)."""
    players: dict[str, Player]
    turn: Turn
    deck: list[str] = field(default_factory=list)
    """Top card first."""
    garden: list[str] = field(default_factory=list)
    """Sorted by type (rules: the garden is sorted into columns by type)."""
    discard: list[str] = field(default_factory=list)
    """Face up (MOM-R6)."""
    centre: list[str] = field(default_factory=list)
    """Objective tokens not yet activated."""
    ended: str | None = None
    """Why the game ended: ``"deck"`` or ``"torii"``."""
    result: dict[str, Any] | None = None
    _catalog: Catalog | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def cards(self) -> Catalog:
        if self._catalog is None:
            self._catalog = catalog(self.data)
        return self._catalog

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def torii_limit(self) -> int:
        """MOM-R7: the game ends once players + 2 piles are closed in total."""
        return len(self.seats) + 2

    def closed_piles(self) -> int:
        cards = self.cards
        return sum(p.closed(cards) for pl in self.players.values() for p in pl.piles)

    def next_seat(self, seat: str) -> str:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]


def encode(state: State) -> dict[str, Any]:
    """Return the state as JSON data (a fresh copy)."""
    t = state.turn
    return {
        "seats": list(state.seats),
        "data": copy.deepcopy(state.data),
        "types": list(state.types),
        "players": {
            seat: {
                "hand": list(p.hand),
                "known": list(p.known),
                "acorns": p.acorns,
                "landscapes": list(p.landscapes),
                "used": list(p.used),
                "objectives": list(p.objectives),
                "piles": [
                    {"type": q.type, "cards": list(q.cards), "shown": list(q.shown)}
                    for q in p.piles
                ],
            }
            for seat, p in state.players.items()
        },
        "turn": {
            "seat": t.seat,
            "number": t.number,
            "phase": t.phase,
            "revealed": t.revealed,
            "discarded": t.discarded,
            "powered": t.powered,
            "limit": t.limit,
        },
        "deck": list(state.deck),
        "garden": list(state.garden),
        "discard": list(state.discard),
        "centre": list(state.centre),
        "ended": state.ended,
        "result": copy.deepcopy(state.result),
    }


def decode(data: dict[str, Any]) -> State:
    """Rebuild a state from ``encode``'s output (the input is not kept)."""
    data = copy.deepcopy(data)
    players = {}
    for seat, p in data["players"].items():
        piles = [Pile(**q) for q in p.pop("piles")]
        players[seat] = Player(piles=piles, **p)
    fields = {k: v for k, v in data.items() if k not in ("players", "turn")}
    return State(players=players, turn=Turn(**data["turn"]), **fields)


def copy_state(state: State) -> State:
    """Return an independent copy."""
    return decode(encode(state))
