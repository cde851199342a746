"""The exact type of a Momiji view (``views.view``): ``schemas/view-momiji.schema.json``.

Leaf cards of the shipped data are an enum of their codes (``maple-1R``); a group's own
data file may name other leaf types, so a code is also read as a word, and ``view_check``
parses it and looks it up among the types in play.
"""

# Field types are built by functions (bounds, card enums): mypy reads them as values.
# mypy: disable-error-code="valid-type,misc,attr-defined"

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict
from typing_extensions import TypedDict

from arbiter.core.viewtypes import SeatName, Shared, ViewType, bounded, count, text, word
from arbiter.games.momiji.data import BUILTIN, catalog

STRICT = ConfigDict(extra="forbid", strict=True)
CARDS = 6 * 14
"""Six leaf types of 14 cards: no zone holds more."""
POINTS = 100_000
"""Beyond any score: 84 cards of value 3, objectives and acorns."""

CARD = Shared(
    "CardCode",
    Literal[tuple(sorted(catalog(BUILTIN).cards))] | word("[a-z]", "a-z0-3LR-", 20),
    "A leaf card's code: its type, value and acorn corners (maple-1R); a group's own data "
    "may name other types.",
)
CardCode = CARD.type
LeafType = word("[a-z]", "a-z", 16, "A leaf type of the game's data.")
DataId = word("[a-z0-9]", "a-z0-9-", 40, "A landscape's or objective's id in the game's data.")
Cards = bounded(CardCode, CARDS)
Seats = bounded(SeatName, 4)


class Turn(TypedDict):
    __pydantic_config__ = STRICT
    seat: SeatName
    number: count(100_000, 1)
    phase: Literal["main", "after", "limit"]
    revealed: bool
    discarded: bool
    powered: bool
    limit: Literal[8, 10]


class Torii(TypedDict):
    __pydantic_config__ = STRICT
    closed: count(24)
    limit: count(6, 4)


class Pile(TypedDict):
    __pydantic_config__ = STRICT
    type: LeafType
    top: CardCode
    closed: bool


class Landscape(TypedDict):
    __pydantic_config__ = STRICT
    id: DataId
    used: bool


class Player(TypedDict):
    __pydantic_config__ = STRICT
    hand: Cards | None
    hand_size: count(CARDS)
    known: Cards
    acorns: count(1000)
    piles: bounded(Pile, 6)
    landscapes: bounded(Landscape, 60)
    objectives: bounded(DataId, 60)


class LandscapeText(TypedDict):
    __pydantic_config__ = STRICT
    name: text(60, 1)
    set: Literal["A", "B", "C"]
    power: Literal["take-card", "acorns", "draw", "hand-limit", "swap", "reveal-two", "leap"]
    text: text(300)


class ObjectiveText(TypedDict):
    __pydantic_config__ = STRICT
    name: text(60, 1)
    measure: Literal[
        "most-zeros", "most-of-type", "most-visible", "top-sum", "most-closed",
        "most-acorns", "fewest-hand", "longest-pile",
    ]
    text: text(300)


class PileScore(TypedDict):
    __pydantic_config__ = STRICT
    type: LeafType
    cards: count(CARDS, 1)
    top: count(3)
    points: count(POINTS)


class ObjectivePoints(TypedDict):
    __pydantic_config__ = STRICT
    objective: DataId
    points: count(POINTS)


class Breakdown(TypedDict):
    __pydantic_config__ = STRICT
    piles: count(POINTS)
    acorns: count(POINTS)
    objectives: count(POINTS)
    total: count(POINTS)


class SeatScore(TypedDict):
    __pydantic_config__ = STRICT
    piles: bounded(PileScore, 6)
    objectives: bounded(ObjectivePoints, 60)
    breakdown: Breakdown


class ObjectiveResult(TypedDict):
    __pydantic_config__ = STRICT
    objective: DataId
    name: text(60, 1)
    owner: SeatName
    values: dict[SeatName, count(POINTS, -POINTS)]
    best: Seats
    points: dict[SeatName, count(POINTS)]


class Result(TypedDict):
    __pydantic_config__ = STRICT
    seats: dict[SeatName, SeatScore]
    objectives: bounded(ObjectiveResult, 60)
    scores: dict[SeatName, count(POINTS)]
    ranking: bounded(Seats, 4, 1)
    tiebreak: text(200) | None


class View(TypedDict):
    """What one seat (or a spectator) sees of a game of Momiji."""

    __pydantic_config__ = STRICT
    game: Literal["momiji"]
    viewer: SeatName | None
    seats: bounded(SeatName, 4, 2)
    types: bounded(LeafType, 6, 4)
    turn: Turn
    deck: count(CARDS)
    garden: Cards
    discard: Cards
    objectives: bounded(DataId, 60)
    torii: Torii
    players: dict[SeatName, Player]
    landscapes: dict[DataId, LandscapeText]
    objective_texts: dict[DataId, ObjectiveText]
    ended: Literal["deck", "torii"] | None
    result: Result | None


VIEW = ViewType(View, (CARD,), "What one seat (or a spectator) sees of a game of Momiji.")
