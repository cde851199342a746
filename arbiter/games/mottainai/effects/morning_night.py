"""In the morning / at night (Bowl, Daidoro, Kite, Pin, Pinwheel, Umbrella).

See ``registry`` for what each function receives.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.effects.registry import effect
from arbiter.games.mottainai.state import State


def _deck_not_empty(
    state: State, seat: str, work: str, ctx: dict[str, Any]
) -> list[dict[str, Any]]:
    return [{}] if state.deck else []


@effect("bowl", offers=_deck_not_empty)
def bowl(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Put the deck's top card, face up, in your craft bench (then the deck may be empty, M-R2)."""
    from arbiter.games.mottainai import actions

    top = actions.take_top(state)
    state.players[seat].bench.append(top)
    # A card turned up from the deck: a barrier (rulings.md, information barriers).
    events.append(
        Event(
            "moved",
            {"seat": seat, "card": top, "from": "deck", "to": "bench", "by": work},
            barrier=True,
        )
    )
    actions.deck_check(state, seat)
