"""Continuous effects (Go Set, Turtle): always on, in play and at scoring (rules glossary).

See ``registry`` for what each function receives.
"""

from __future__ import annotations

from typing import Any

from arbiter.games.mottainai.cards import MATERIALS, card
from arbiter.games.mottainai.effects.dispatch import identity
from arbiter.games.mottainai.effects.registry import effect
from arbiter.games.mottainai.state import State

OTHER_WING = {"gallery": "gift_shop", "gift_shop": "gallery"}


@effect("go-set", queries=("wing_works",))
def go_set(
    state: State, seat: str, work: str, query: str, value: list[str], ctx: dict[str, Any]
) -> list[str]:
    """Count your STONE works in both wings: cover, game end, Tapestry (rules FAQ).

    Only ``wing_works`` asks: counts of works (Frog, Shuriken, Bench) use the wings as
    they are (FAQ, M-R11).
    """
    other = state.players[seat].wing(OTHER_WING[ctx["wing"]])
    extra = [w for w in other if w not in value and card(identity(state, w)).material == "STONE"]
    return value + extra if extra else value


@effect("turtle", queries=("instant_win",))
def turtle(
    state: State, seat: str, work: str, query: str, value: bool, ctx: dict[str, Any]
) -> bool:
    """Win at once with a work of each of the five materials (checked by ``end_checks``)."""
    if value:
        return True
    p = state.players[seat]
    mats = {card(identity(state, w)).material for w in p.gallery + p.gift_shop}
    return len(mats) == len(MATERIALS)
