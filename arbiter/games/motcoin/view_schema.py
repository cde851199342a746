"""The exact type of a Mot Coin view (``engine.view``): ``schemas/view-motcoin.schema.json``.

Card ids are an enum: ``"1"`` … ``"24"`` and the Stable Coins ``"S1"`` … ``"S20"`` (a
table has 5 to 20); which Stable Coins a game has follows from the card data the view
carries (``view_check``).
"""

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
    __pydantic_config__ = STRICT  # type: ignore[misc]
    card: CardId  # type: ignore[valid-type]
    dice: bounded(Face, DICE)  # type: ignore[valid-type]


class Player(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    available: count(DICE)  # type: ignore[valid-type]
    dice: Literal[7, 8, 9]
    cards: bounded(Holding, CARDS)  # type: ignore[valid-type]


class Auction(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    card: CardId  # type: ignore[valid-type]
    stable: CardId | None  # type: ignore[valid-type]
    turn: SeatName | None  # type: ignore[valid-type]
    order: Seats  # type: ignore[valid-type]
    passed: Seats  # type: ignore[valid-type]
    high_seat: SeatName | None  # type: ignore[valid-type]
    high: bounded(Face, DICE)  # type: ignore[valid-type]
    last_bids: dict[SeatName, bounded(Face, DICE)]  # type: ignore[valid-type]


class DrawPile(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    count: count(24)  # type: ignore[valid-type]
    cards: bounded(CardId, 24)  # type: ignore[valid-type]


Fluctuation = count(6, -6) | Literal["remove"]
Crash = count(0, -99)


class MotCoinCard(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    id: CardId  # type: ignore[valid-type]
    name: text(20, 1)  # type: ignore[valid-type]
    type: Literal["motcoin"]
    price: count(999, 1)  # type: ignore[valid-type]
    fluctuation: Fluctuation  # type: ignore[valid-type]
    crash: Crash  # type: ignore[valid-type]
    auction: NotRequired[Literal["double"]]


class HardForkCard(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    id: CardId  # type: ignore[valid-type]
    name: text(20, 1)  # type: ignore[valid-type]
    type: Literal["hardfork"]
    fluctuation: Fluctuation  # type: ignore[valid-type]
    crash: Crash  # type: ignore[valid-type]


class StableCoinCard(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    id: CardId  # type: ignore[valid-type]
    name: text(20, 1)  # type: ignore[valid-type]
    type: Literal["stablecoin"]
    crash: Crash  # type: ignore[valid-type]


class Stack(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    cards: bounded(CardId, 24, 1)  # type: ignore[valid-type]
    top: CardId  # type: ignore[valid-type]
    price: count(999, 1)  # type: ignore[valid-type]
    value: Points  # type: ignore[valid-type]
    printed: Points  # type: ignore[valid-type]
    dice: Faces  # type: ignore[valid-type]
    crash: Crash  # type: ignore[valid-type]
    loss: Points  # type: ignore[valid-type]


class Other(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    card: CardId  # type: ignore[valid-type]
    type: Literal["hardfork", "stablecoin"]
    value: Points  # type: ignore[valid-type]
    dice: Faces  # type: ignore[valid-type]
    crash: Crash  # type: ignore[valid-type]
    loss: Points  # type: ignore[valid-type]


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
Breakdown.__pydantic_config__ = STRICT  # type: ignore[attr-defined]


class SeatScore(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    stacks: bounded(Stack, 24)  # type: ignore[valid-type]
    others: bounded(Other, CARDS)  # type: ignore[valid-type]
    breakdown: Breakdown


class Result(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    gap: Literal[3, 4]
    seats: dict[SeatName, SeatScore]  # type: ignore[valid-type]
    scores: dict[SeatName, Points]  # type: ignore[valid-type]
    ranking: bounded(Seats, 5, 1)  # type: ignore[valid-type]


class View(TypedDict):
    """What everyone sees of a game of Mot Coin: all but the draw pile's order."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    game: Literal["motcoin"]
    viewer: SeatName | None  # type: ignore[valid-type]
    seats: bounded(SeatName, 5, 3)  # type: ignore[valid-type]
    round: Literal[1, 2]
    first_player: SeatName  # type: ignore[valid-type]
    players: dict[SeatName, Player]  # type: ignore[valid-type]
    auction: Auction | None
    pending_removals: Seats  # type: ignore[valid-type]
    removal_source: CardId | None  # type: ignore[valid-type]
    draw_pile: DrawPile
    discard: bounded(CardId, CARDS)  # type: ignore[valid-type]
    removed: bounded(CardId, CARDS)  # type: ignore[valid-type]
    stable_supply: count(STABLE_MAX)  # type: ignore[valid-type]
    hardforks_auctioned: count(4)  # type: ignore[valid-type]
    ender: CardId | None  # type: ignore[valid-type]
    price_rise_gap: Literal[3, 4]
    cards: dict[CardId, MotCoinCard | HardForkCard | StableCoinCard]  # type: ignore[valid-type]
    result: Result | None


VIEW = ViewType(View, (CARD,), "What everyone sees of a game of Mot Coin: all but the draw pile's order.")
