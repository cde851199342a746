"""The exact type of a Mottainai view (``views.view``): ``schemas/view-mottainai.schema.json``.

Base cards are an enum of every instance id (``kite``, ``kite#2``); a Wutai card's id is
defined by the Wutai list the view names (the shipped one, or a group's own, which the
view carries), so the type reads it as a word and ``view_check`` looks it up there.
"""

# Field types are built by functions (bounds, card enums): mypy reads them as values.
# mypy: disable-error-code="valid-type,misc,attr-defined"

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

BaseCardId = Literal[tuple(deck_ids(2))]
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
    "hand-limit",
    "old-task",
    "choose-task",
    "morning",
    "noon",
    "action",
    "night",
    "count",
    "over",
]
Moment = Literal[tuple(sorted({*WINDOWS, "after", "morning", "night"}))]
"""A trigger's moment, or the window of the effect a pending choice belongs to."""


class Player(TypedDict):
    """One seat's temple and the sizes of its hidden zones."""

    __pydantic_config__ = STRICT
    hand_count: count(CARDS)
    waiting_count: count(CARDS)
    task: CardId | None
    task_face_down: bool
    helpers: Cards
    craft_bench: Cards
    sales: Cards
    gallery: Cards
    gift_shop: Cards
    covered_helpers: bounded(Material, 5)
    covered_sales: bounded(Material, 5)
    hand: NotRequired[Cards]
    waiting_seen: NotRequired[Cards]
    bonus_turn: NotRequired[Literal[True]]
    own_extra: NotRequired[count(5)]
    """Doll this turn: extra actions on the seat's own task (the current seat only)."""
    returned_at_limit: NotRequired[Literal[True]]
    """The current seat returned a card at this Morning's hand limit."""
    old_task_done: NotRequired[Literal[True]]
    """The current seat took this Morning's old-task step."""
    hand_wutai: NotRequired[count(54)]
    waiting_wutai: NotRequired[count(54)]


class Deck(TypedDict):
    __pydantic_config__ = STRICT
    count: count(CARDS)
    returned_by_you: NotRequired[Cards]
    returned_publicly: NotRequired[Cards]
    top: NotRequired[CardId]


class Task(TypedDict):
    __pydantic_config__ = STRICT
    owner: SeatName
    card: CardId
    material: Material
    done: count(1000)
    total: count(1000)


class Revealed(TypedDict):
    __pydantic_config__ = STRICT
    seat: SeatName
    cards: Cards
    hands: NotRequired[dict[SeatName, Cards]]
    taken: NotRequired[Cards]
    """Jar: the shown hand cards it took into the revealer's waiting area."""


class TriggerContext(TypedDict):
    __pydantic_config__ = STRICT
    action: NotRequired[str]
    work: NotRequired[CardId]
    card: NotRequired[CardId]
    owner: NotRequired[SeatName]
    material: NotRequired[Material]
    wing: NotRequired[str]


class Trigger(TypedDict):
    __pydantic_config__ = STRICT
    moment: Moment
    used: Cards
    ctx: NotRequired[TriggerContext]
    """What the trigger answers (the action done, the work completed, ...), when anything."""
    closed: NotRequired[Literal[True]]
    """The trigger was declined (``done``): it offers nothing more."""


class End(TypedDict):
    __pydantic_config__ = STRICT
    reason: Literal["deck", "wutai-deck", "cup", "turtle", "wing"]
    seat: SeatName
    turn: count(100_000, 1)
    winner: NotRequired[SeatName]
    wing: NotRequired[Literal["gallery", "gift_shop"]]


class Parts(TypedDict):
    __pydantic_config__ = STRICT
    works: count(SCORE)
    sales: count(SCORE)
    backorders: count(SCORE)
    cards: count(SCORE)
    total: count(SCORE)


class SeatScore(TypedDict):
    __pydantic_config__ = STRICT
    parts: Parts
    gallery: count(CARDS)
    gift_shop: count(CARDS)
    covered_sales: bounded(Material, 5)
    backorders: dict[Material, count(SCORE)]
    card_points: dict[CardId, count(SCORE)]


class Result(TypedDict):
    __pydantic_config__ = STRICT
    seats: dict[SeatName, SeatScore]
    scores: dict[SeatName, count(2 * SCORE)]
    ranking: bounded(Seats, 5, 1)
    tiebreak: text(2000) | None


class WutaiRow(TypedDict):
    """A card of a group's own Wutai list, as the view carries it (no note)."""

    __pydantic_config__ = STRICT
    id: OmCardId
    name: text(40, 1)
    material: Material
    effect: word("[a-z0-9]", "a-z0-9-", 40) | None
    provenance: Literal["rules-text", "reported", "placeholder", "printed"]


class WutaiList(TypedDict):
    __pydantic_config__ = STRICT
    digest: word("sha256:", "a-z0-9:", 39)
    rows: bounded(WutaiRow, 54, 6)


class WutaiDeck(TypedDict):
    __pydantic_config__ = STRICT
    count: count(54)
    returned_by_you: NotRequired[bounded(OmCardId, 54)]
    returned_publicly: NotRequired[bounded(OmCardId, 54)]


Tucked = TypedDict("Tucked", {edge: Cards for edge in EDGES}, total=True)
Tucked.__pydantic_config__ = STRICT


class Placing(TypedDict):
    """A card an effect tucked in a temple, waiting for its owner to say whether it goes
    under an Om work instead (M-R119)."""

    __pydantic_config__ = STRICT
    card: CardId
    zone: Literal["helpers", "bench", "sales"]
    by: CardId


class Wutai(TypedDict):
    __pydantic_config__ = STRICT
    cards: Literal["builtin"] | WutaiList
    deck: WutaiDeck
    om: dict[OmCardId, Tucked]
    draws: Literal[DRAWS]
    works_end: bool
    leave: Literal[LEAVES]
    tucking: NotRequired[OmCardId]
    placing: NotRequired[bounded(Placing, CARDS, 1)]


class View(TypedDict):
    """What one seat (or a spectator) sees of a game of Mottainai."""

    __pydantic_config__ = STRICT
    game: Literal["mottainai"]
    viewer: SeatName | None
    seats: bounded(SeatName, 5, 2)
    teams: bounded(bounded(SeatName, 2, 2), 2, 2) | None
    works_to_end: Literal[5, 6]
    turn: count(100_000, 1)
    current: SeatName
    start: SeatName
    phase: Phase
    task: Task | None
    queue: Seats
    deck: Deck
    floor: Cards
    players: dict[SeatName, Player]
    revealed: Revealed | None
    copies: dict[CardId, CardId]
    triggers: bounded(Trigger, 64)
    end: End | None
    result: Result | None
    wutai: NotRequired[Wutai]


VIEW = ViewType(
    View, (CARD, MATERIAL), "What one seat (or a spectator) sees of a game of Mottainai."
)
