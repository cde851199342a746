"""The exact type of a Momiji view (``views.view``): ``schemas/view-momiji.schema.json``.

Leaf cards of the shipped data are an enum of their codes (``maple-1R``); a group's own
data file may name other leaf types, so a code is also read as a word, and ``view_check``
parses it and looks it up among the types in play.
"""

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
    __pydantic_config__ = STRICT  # type: ignore[misc]
    seat: SeatName  # type: ignore[valid-type]
    number: count(100_000, 1)  # type: ignore[valid-type]
    phase: Literal["main", "after", "limit"]
    revealed: bool
    discarded: bool
    powered: bool
    limit: Literal[8, 10]


class Torii(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    closed: count(24)  # type: ignore[valid-type]
    limit: count(6, 4)  # type: ignore[valid-type]


class Pile(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: LeafType  # type: ignore[valid-type]
    top: CardCode  # type: ignore[valid-type]
    closed: bool


class Landscape(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    id: DataId  # type: ignore[valid-type]
    used: bool


class Player(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    hand: Cards | None  # type: ignore[valid-type]
    hand_size: count(CARDS)  # type: ignore[valid-type]
    known: Cards  # type: ignore[valid-type]
    acorns: count(1000)  # type: ignore[valid-type]
    piles: bounded(Pile, 6)  # type: ignore[valid-type]
    landscapes: bounded(Landscape, 60)  # type: ignore[valid-type]
    objectives: bounded(DataId, 60)  # type: ignore[valid-type]


class LandscapeText(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    name: text(60, 1)  # type: ignore[valid-type]
    set: Literal["A", "B", "C"]
    power: Literal["take-card", "acorns", "draw", "hand-limit", "swap", "reveal-two", "leap"]
    text: text(300)  # type: ignore[valid-type]


class ObjectiveText(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    name: text(60, 1)  # type: ignore[valid-type]
    measure: Literal[
        "most-zeros", "most-of-type", "most-visible", "top-sum", "most-closed",
        "most-acorns", "fewest-hand", "longest-pile",
    ]
    text: text(300)  # type: ignore[valid-type]


class PileScore(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: LeafType  # type: ignore[valid-type]
    cards: count(CARDS, 1)  # type: ignore[valid-type]
    top: count(3)  # type: ignore[valid-type]
    points: count(POINTS)  # type: ignore[valid-type]


class ObjectivePoints(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    objective: DataId  # type: ignore[valid-type]
    points: count(POINTS)  # type: ignore[valid-type]


class Breakdown(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    piles: count(POINTS)  # type: ignore[valid-type]
    acorns: count(POINTS)  # type: ignore[valid-type]
    objectives: count(POINTS)  # type: ignore[valid-type]
    total: count(POINTS)  # type: ignore[valid-type]


class SeatScore(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    piles: bounded(PileScore, 6)  # type: ignore[valid-type]
    objectives: bounded(ObjectivePoints, 60)  # type: ignore[valid-type]
    breakdown: Breakdown


class ObjectiveResult(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    objective: DataId  # type: ignore[valid-type]
    name: text(60, 1)  # type: ignore[valid-type]
    owner: SeatName  # type: ignore[valid-type]
    values: dict[SeatName, count(POINTS, -POINTS)]  # type: ignore[valid-type]
    best: Seats  # type: ignore[valid-type]
    points: dict[SeatName, count(POINTS)]  # type: ignore[valid-type]


class Result(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    seats: dict[SeatName, SeatScore]  # type: ignore[valid-type]
    objectives: bounded(ObjectiveResult, 60)  # type: ignore[valid-type]
    scores: dict[SeatName, count(POINTS)]  # type: ignore[valid-type]
    ranking: bounded(Seats, 4, 1)  # type: ignore[valid-type]
    tiebreak: text(200) | None  # type: ignore[valid-type]


class View(TypedDict):
    """What one seat (or a spectator) sees of a game of Momiji."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    game: Literal["momiji"]
    viewer: SeatName | None  # type: ignore[valid-type]
    seats: bounded(SeatName, 4, 2)  # type: ignore[valid-type]
    types: bounded(LeafType, 6, 4)  # type: ignore[valid-type]
    turn: Turn
    deck: count(CARDS)  # type: ignore[valid-type]
    garden: Cards  # type: ignore[valid-type]
    discard: Cards  # type: ignore[valid-type]
    objectives: bounded(DataId, 60)  # type: ignore[valid-type]
    torii: Torii
    players: dict[SeatName, Player]  # type: ignore[valid-type]
    landscapes: dict[DataId, LandscapeText]  # type: ignore[valid-type]
    objective_texts: dict[DataId, ObjectiveText]  # type: ignore[valid-type]
    ended: Literal["deck", "torii"] | None
    result: Result | None


VIEW = ViewType(View, (CARD,), "What one seat (or a spectator) sees of a game of Momiji.")
