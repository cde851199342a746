"""Landscape powers: one small behaviour per id, selected by the data's ``power`` field.

Each behaviour lists its decision fields, enumerates its choices, says why a choice is
illegal (from the acting seat's view) and applies it. The acorn, the once-per-turn and
once-per-game rules are checked around it (``rules.py``). Rulings: MOM-R9.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arbiter.core.engine import Event
from arbiter.games.momiji import zones
from arbiter.games.momiji.state import State

Params = dict[str, Any]
EXTRA_LIMIT = 10
"""The "keep two extra cards" power: a hand limit of 10 this turn."""


@dataclass(frozen=True)
class Power:
    """A landscape behaviour: fields, choices, why a choice is illegal, and its effect."""

    id: str
    fields: tuple[str, ...]
    options: Callable[[State, str], list[Params]]
    problem: Callable[[State, str, Params], str | None]
    apply: Callable[[State, str, Params, list[Event]], None]


POWERS: dict[str, Power] = {}

HAND_FIELDS = {"swap": "give", "leap": "card"}
"""The power field, per power id, that names a card leaving the hand (MOM-R9)."""


def behaviour(power_id: str, *fields: str) -> Callable[[type], type]:
    """Register a class holding ``options``, ``problem`` and ``apply`` as static methods."""

    def register(cls: type) -> type:
        hooks = (getattr(cls, name) for name in ("options", "problem", "apply"))
        POWERS[power_id] = Power(power_id, fields, *hooks)
        return cls

    return register


def _always(state: State, seat: str) -> list[Params]:
    return [{}]


def _none(state: State, seat: str, params: Params) -> str | None:
    return None


@behaviour("take-card", "card")
class TakeCard:
    """Take one card of your choice from the garden into your hand (then refill it)."""

    @staticmethod
    def options(state: State, seat: str) -> list[Params]:
        # MOM-R9: the garden must keep a card, so a collect stays possible.
        if len(state.garden) < 2:
            return []
        return [{"card": code} for code in zones.distinct(state.cards.sort(state.garden))]

    @staticmethod
    def problem(state: State, seat: str, params: Params) -> str | None:
        if params["card"] not in state.garden:
            return f"{params['card']} is not in the garden"
        if len(state.garden) < 2:
            return "the garden's last card cannot be taken"
        return None

    @staticmethod
    def apply(state: State, seat: str, params: Params, events: list[Event]) -> None:
        state.garden.remove(params["card"])
        zones.give(state, seat, [params["card"]], public=True)
        events.append(Event("take-card", {"seat": seat, "card": params["card"]}))
        zones.refill(state, events)


@behaviour("acorns")
class Acorns:
    """Take two acorns from the reserve."""

    options = staticmethod(_always)
    problem = staticmethod(_none)

    @staticmethod
    def apply(state: State, seat: str, params: Params, events: list[Event]) -> None:
        state.players[seat].acorns += 2
        events.append(Event("acorns", {"seat": seat, "acorns": 2}))


@behaviour("draw")
class Draw:
    """Draw the top card of the deck into your hand (only you see it)."""

    @staticmethod
    def options(state: State, seat: str) -> list[Params]:
        return [{}] if state.deck else []

    @staticmethod
    def problem(state: State, seat: str, params: Params) -> str | None:
        return None if state.deck else "the deck is empty"

    @staticmethod
    def apply(state: State, seat: str, params: Params, events: list[Event]) -> None:
        card = state.deck.pop(0)
        zones.give(state, seat, [card], public=False)
        events.append(Event("draw", {"seat": seat, "card": card}, barrier=True))


@behaviour("hand-limit")
class HandLimit:
    """Your hand limit is 10 at the end of this turn."""

    options = staticmethod(_always)
    problem = staticmethod(_none)

    @staticmethod
    def apply(state: State, seat: str, params: Params, events: list[Event]) -> None:
        state.turn.limit = EXTRA_LIMIT
        events.append(Event("hand-limit-raised", {"seat": seat, "limit": EXTRA_LIMIT}))


@behaviour("swap", "give", "take")
class Swap:
    """Swap one card of your hand with one card of the garden."""

    @staticmethod
    def options(state: State, seat: str) -> list[Params]:
        hand = zones.distinct(state.cards.sort(state.players[seat].hand))
        garden = zones.distinct(state.cards.sort(state.garden))
        return [{"give": g, "take": t} for g in hand for t in garden if g != t]

    @staticmethod
    def problem(state: State, seat: str, params: Params) -> str | None:
        if params["give"] not in state.players[seat].hand:
            return f"{params['give']} is not in your hand"
        if params["take"] not in state.garden:
            return f"{params['take']} is not in the garden"
        if params["give"] == params["take"]:
            return "swapping a card for an identical one changes nothing"
        return None

    @staticmethod
    def apply(state: State, seat: str, params: Params, events: list[Event]) -> None:
        zones.take(state, seat, [params["give"]])
        state.garden.remove(params["take"])
        zones.to_garden(state, [params["give"]])
        zones.give(state, seat, [params["take"]], public=True)
        events.append(Event("swap", {"seat": seat, **params}))


@behaviour("reveal-two")
class RevealTwo:
    """Reveal the top two cards of the deck into the garden."""

    @staticmethod
    def options(state: State, seat: str) -> list[Params]:
        return [{}] if state.deck else []

    @staticmethod
    def problem(state: State, seat: str, params: Params) -> str | None:
        return None if state.deck else "the deck is empty"

    @staticmethod
    def apply(state: State, seat: str, params: Params, events: list[Event]) -> None:
        shown = zones.reveal(state, 2)
        data = {"seat": seat, "cards": shown, "deck": len(state.deck), "paid": False}
        events.append(Event("reveal", data, barrier=True))


@behaviour("leap", "card")
class Leap:
    """Play one card onto one of your open piles, any value not below its top."""

    @staticmethod
    def options(state: State, seat: str) -> list[Params]:
        return [
            {"card": code}
            for code in zones.distinct(state.cards.sort(state.players[seat].hand))
            if Leap.problem(state, seat, {"card": code}) is None
        ]

    @staticmethod
    def problem(state: State, seat: str, params: Params) -> str | None:
        code = params["card"]
        if code not in state.players[seat].hand:
            return f"{code} is not in your hand"
        card = state.cards.cards[code]
        top = zones.top_value(state, seat, card.type)
        if top is None:
            return f"you have no {card.type} pile to leap onto (a new pile starts with a 0)"
        if top == 3:
            return f"your {card.type} pile is closed by a torii"
        if card.value < top:
            return f"{code} is below your {card.type} pile's top ({top})"
        return None

    @staticmethod
    def apply(state: State, seat: str, params: Params, events: list[Event]) -> None:
        code = params["card"]
        zones.take(state, seat, [code])
        _, closed = zones.place(state, seat, code, state.cards.cards[code].type, shown=True)
        events.append(Event("leap", {"seat": seat, "card": code, "closed": closed}))
