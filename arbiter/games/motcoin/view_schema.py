"""The exact type of a Mot Coin view (``engine.view``): ``schemas/view-motcoin.schema.json``.

Card ids are an enum: ``"1"`` … ``"24"`` and the Stable Coins ``"S1"`` … ``"S20"`` (a
table has 5 to 20); which Stable Coins a game has follows from the card data the view
carries (``view_check``).
"""

# Field types are built by functions (bounds, card enums): mypy reads them as values.
# mypy: disable-error-code="valid-type,misc,attr-defined"

from __future__ import annotations

from typing import Literal, NotRequired

from pydantic import ConfigDict
from typing_extensions import TypedDict

from arbiter.core.viewtypes import SeatName, Shared, ViewType, bounded, count, text

STRICT = ConfigDict(extra="forbid", strict=True)
STABLE_MAX = 20
"""The most Stable Coins a table may have (cards.schema.json)."""
CARDS = 24 + STABLE_MAX
DICE = 9
"""The most dice a seat has (3 players, rules 3)."""
POINTS = 1_000_000
"""Beyond any score: 44 cards priced at most 999, dice of face 6 at a crash of -99."""

CARD = Shared(
    "CardId",
    Literal[tuple([str(n) for n in range(1, 25)] + [f"S{n}" for n in range(1, STABLE_MAX + 1)])],
    "A numbered card (1 to 24) or a Stable Coin (S1 and on).",
)
CardId = CARD.type
Face = count(6, 1)
Faces = bounded(Face, 5 * DICE)
Points = count(POINTS, -POINTS)
Seats = bounded(SeatName, 5)


class Holding(TypedDict):
    __pydantic_config__ = STRICT
    card: CardId
    dice: bounded(Face, DICE)


class Player(TypedDict):
    __pydantic_config__ = STRICT
    available: count(DICE)
    dice: Literal[7, 8, 9]
    cards: bounded(Holding, CARDS)


class Auction(TypedDict):
    __pydantic_config__ = STRICT
    card: CardId
    stable: CardId | None
    turn: SeatName | None
    order: Seats
    passed: Seats
    high_seat: SeatName | None
    high: bounded(Face, DICE)
    last_bids: dict[SeatName, bounded(Face, DICE)]


class DrawPile(TypedDict):
    __pydantic_config__ = STRICT
    count: count(24)
    cards: bounded(CardId, 24)


Fluctuation = count(6, -6) | Literal["remove"]
Crash = count(0, -99)


class MotCoinCard(TypedDict):
    __pydantic_config__ = STRICT
    id: CardId
    name: text(20, 1)
    type: Literal["motcoin"]
    price: count(999, 1)
    fluctuation: Fluctuation
    crash: Crash
    auction: NotRequired[Literal["double"]]


class HardForkCard(TypedDict):
    __pydantic_config__ = STRICT
    id: CardId
    name: text(20, 1)
    type: Literal["hardfork"]
    fluctuation: Fluctuation
    crash: Crash


class StableCoinCard(TypedDict):
    __pydantic_config__ = STRICT
    id: CardId
    name: text(20, 1)
    type: Literal["stablecoin"]
    crash: Crash


class Stack(TypedDict):
    __pydantic_config__ = STRICT
    cards: bounded(CardId, 24, 1)
    top: CardId
    price: count(999, 1)
    value: Points
    printed: Points
    dice: Faces
    crash: Crash
    loss: Points


class Other(TypedDict):
    __pydantic_config__ = STRICT
    card: CardId
    type: Literal["hardfork", "stablecoin"]
    value: Points
    dice: Faces
    crash: Crash
    loss: Points


Breakdown = TypedDict(
    "Breakdown",
    {
        key: Points
        for key in (
            "motcoins", "printed", "rise", "motcoin_value", "base", "hardforks",
            "hardfork_value", "stablecoins", "stablecoin_value", "profit", "losses", "total",
            "dice_left",
        )
    },
)
Breakdown.__pydantic_config__ = STRICT


class SeatScore(TypedDict):
    __pydantic_config__ = STRICT
    stacks: bounded(Stack, 24)
    others: bounded(Other, CARDS)
    breakdown: Breakdown


class Result(TypedDict):
    __pydantic_config__ = STRICT
    gap: Literal[3, 4]
    seats: dict[SeatName, SeatScore]
    scores: dict[SeatName, Points]
    ranking: bounded(Seats, 5, 1)


class View(TypedDict):
    """What everyone sees of a game of Mot Coin: all but the draw pile's order."""

    __pydantic_config__ = STRICT
    game: Literal["motcoin"]
    viewer: SeatName | None
    seats: bounded(SeatName, 5, 3)
    round: Literal[1, 2]
    first_player: SeatName
    players: dict[SeatName, Player]
    auction: Auction | None
    pending_removals: Seats
    removal_source: CardId | None
    draw_pile: DrawPile
    discard: bounded(CardId, CARDS)
    removed: bounded(CardId, CARDS)
    stable_supply: count(STABLE_MAX)
    hardforks_auctioned: count(4)
    ender: CardId | None
    price_rise_gap: Literal[3, 4]
    cards: dict[CardId, MotCoinCard | HardForkCard | StableCoinCard]
    result: Result | None


VIEW = ViewType(View, (CARD,), "What everyone sees of a game of Mot Coin: all but the draw pile's order.")
