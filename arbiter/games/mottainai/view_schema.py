"""The exact type of a Mottainai view (``views.view``): ``schemas/view-mottainai.schema.json``.

Base cards are an enum of every instance id (``kite``, ``kite#2``); a Wutai card's id is
defined by the Wutai list the view names (the shipped one, or a group's own, which the
view carries), so the type reads it as a word and ``view_check`` looks it up there.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from pydantic import ConfigDict
from typing_extensions import TypedDict

from arbiter.core.viewtypes import SeatName, Shared, ViewType, bounded, count, text, word
from arbiter.games.mottainai.cards import MATERIALS, WINDOWS, deck_ids
from arbiter.games.mottainai.wutai import DRAWS, EDGES, LEAVES

STRICT = ConfigDict(extra="forbid", strict=True)
CARDS = 108 + 54
"""Base cards of two decks and the largest Wutai list: no zone holds more."""
SCORE = 10_000
"""Above any score the cards allow (162 cards of value 3, doubled for teams)."""

BaseCardId = Literal[tuple(deck_ids(2))]  # type: ignore[valid-type]
OmCardId = word("[a-z0-9]", "a-z0-9-", 40)
CARD = Shared(
    "CardId",
    BaseCardId | OmCardId,
    "A base card's instance id (kite, kite#2 in a two-deck game), or a Wutai card's id "
    "from the view's Wutai list.",
)
MATERIAL = Shared("Material", Literal[MATERIALS])
CardId = CARD.type
Material = MATERIAL.type
Cards = bounded(CardId, CARDS)
Seats = bounded(SeatName, 5)
Phase = Literal[
    "hand-limit", "old-task", "choose-task", "morning", "noon", "action", "night", "count",
    "over",
]
Moment = Literal[tuple(sorted({*WINDOWS, "after", "morning", "night"}))]  # type: ignore[valid-type]
"""A trigger's moment, or the window of the effect a pending choice belongs to."""


class Player(TypedDict):
    """One seat's temple and the sizes of its hidden zones."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    hand_count: count(CARDS)  # type: ignore[valid-type]
    waiting_count: count(CARDS)  # type: ignore[valid-type]
    task: CardId | None  # type: ignore[valid-type]
    task_face_down: bool
    helpers: Cards  # type: ignore[valid-type]
    craft_bench: Cards  # type: ignore[valid-type]
    sales: Cards  # type: ignore[valid-type]
    gallery: Cards  # type: ignore[valid-type]
    gift_shop: Cards  # type: ignore[valid-type]
    covered_helpers: bounded(Material, 5)  # type: ignore[valid-type]
    covered_sales: bounded(Material, 5)  # type: ignore[valid-type]
    hand: NotRequired[Cards]  # type: ignore[valid-type]
    waiting_seen: NotRequired[Cards]  # type: ignore[valid-type]
    bonus_turn: NotRequired[Literal[True]]
    hand_wutai: NotRequired[count(54)]  # type: ignore[valid-type]
    waiting_wutai: NotRequired[count(54)]  # type: ignore[valid-type]


class Deck(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    count: count(CARDS)  # type: ignore[valid-type]
    returned_by_you: NotRequired[Cards]  # type: ignore[valid-type]
    returned_publicly: NotRequired[Cards]  # type: ignore[valid-type]
    top: NotRequired[CardId]  # type: ignore[valid-type]


class Task(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    owner: SeatName  # type: ignore[valid-type]
    card: CardId  # type: ignore[valid-type]
    material: Material  # type: ignore[valid-type]
    done: count(1000)  # type: ignore[valid-type]
    total: count(1000)  # type: ignore[valid-type]


class Revealed(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    seat: SeatName  # type: ignore[valid-type]
    cards: Cards  # type: ignore[valid-type]
    hands: NotRequired[dict[SeatName, Cards]]  # type: ignore[valid-type]


class Trigger(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    moment: Moment
    used: Cards  # type: ignore[valid-type]


class End(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    reason: Literal["deck", "wutai-deck", "cup", "turtle", "wing"]
    seat: SeatName  # type: ignore[valid-type]
    turn: count(100_000, 1)  # type: ignore[valid-type]
    winner: NotRequired[SeatName]  # type: ignore[valid-type]
    wing: NotRequired[Literal["gallery", "gift_shop"]]


class Parts(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    works: count(SCORE)  # type: ignore[valid-type]
    sales: count(SCORE)  # type: ignore[valid-type]
    backorders: count(SCORE)  # type: ignore[valid-type]
    cards: count(SCORE)  # type: ignore[valid-type]
    total: count(SCORE)  # type: ignore[valid-type]


class SeatScore(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    parts: Parts
    gallery: count(CARDS)  # type: ignore[valid-type]
    gift_shop: count(CARDS)  # type: ignore[valid-type]
    covered_sales: bounded(Material, 5)  # type: ignore[valid-type]
    backorders: dict[Material, count(SCORE)]  # type: ignore[valid-type]
    card_points: dict[CardId, count(SCORE)]  # type: ignore[valid-type]


class Result(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    seats: dict[SeatName, SeatScore]  # type: ignore[valid-type]
    scores: dict[SeatName, count(2 * SCORE)]  # type: ignore[valid-type]
    ranking: bounded(Seats, 5, 1)  # type: ignore[valid-type]
    tiebreak: text(2000) | None  # type: ignore[valid-type]


class WutaiRow(TypedDict):
    """A card of a group's own Wutai list, as the view carries it (no note)."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    id: OmCardId  # type: ignore[valid-type]
    name: text(40, 1)  # type: ignore[valid-type]
    material: Material  # type: ignore[valid-type]
    effect: word("[a-z0-9]", "a-z0-9-", 40) | None  # type: ignore[valid-type]
    provenance: Literal["rules-text", "reported", "placeholder", "printed"]


class WutaiList(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    digest: word("sha256:", "a-z0-9:", 39)  # type: ignore[valid-type]
    rows: bounded(WutaiRow, 54, 6)  # type: ignore[valid-type]


class WutaiDeck(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    count: count(54)  # type: ignore[valid-type]
    returned_by_you: NotRequired[bounded(OmCardId, 54)]  # type: ignore[valid-type]
    returned_publicly: NotRequired[bounded(OmCardId, 54)]  # type: ignore[valid-type]


Tucked = TypedDict(
    "Tucked", {edge: Cards for edge in EDGES}, total=True
)
Tucked.__pydantic_config__ = STRICT  # type: ignore[attr-defined]


class Wutai(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    cards: Literal["builtin"] | WutaiList
    deck: WutaiDeck
    om: dict[OmCardId, Tucked]  # type: ignore[valid-type]
    draws: Literal[DRAWS]  # type: ignore[valid-type]
    works_end: bool
    leave: Literal[LEAVES]  # type: ignore[valid-type]
    tucking: NotRequired[OmCardId]  # type: ignore[valid-type]


class View(TypedDict):
    """What one seat (or a spectator) sees of a game of Mottainai."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    game: Literal["mottainai"]
    viewer: SeatName | None  # type: ignore[valid-type]
    seats: bounded(SeatName, 5, 2)  # type: ignore[valid-type]
    teams: bounded(bounded(SeatName, 2, 2), 2, 2) | None  # type: ignore[valid-type]
    works_to_end: Literal[5, 6]
    turn: count(100_000, 1)  # type: ignore[valid-type]
    current: SeatName  # type: ignore[valid-type]
    start: SeatName  # type: ignore[valid-type]
    phase: Phase
    task: Task | None
    queue: Seats  # type: ignore[valid-type]
    deck: Deck
    floor: Cards  # type: ignore[valid-type]
    players: dict[SeatName, Player]  # type: ignore[valid-type]
    revealed: Revealed | None
    copies: dict[CardId, CardId]  # type: ignore[valid-type]
    triggers: bounded(Trigger, 64)  # type: ignore[valid-type]
    end: End | None
    result: Result | None
    wutai: NotRequired[Wutai]


VIEW = ViewType(View, (CARD, MATERIAL), "What one seat (or a spectator) sees of a game of Mottainai.")
