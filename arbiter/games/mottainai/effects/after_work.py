"""After you complete a work (Amulet, Cloak, Poem, Stool).

See ``registry`` for what each function receives. They trigger on their own completion
too (M-R9).
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import card
from arbiter.games.mottainai.effects.dispatch import identity
from arbiter.games.mottainai.effects.registry import effect
from arbiter.games.mottainai.state import State


def _heavy_work(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    done = ctx.get("work")
    if done is None or not state.deck:
        return []
    return [{}] if card(identity(state, done)).material in ("STONE", "CLAY", "METAL") else []


@effect("stool", offers=_heavy_work)
def stool(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Draw a card to your waiting area after completing a STONE, CLAY or METAL work."""
    from arbiter.games.mottainai import actions

    actions.draw(state, seat, 1, "stool", events)
