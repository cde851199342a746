"""The reported Paper Om work (M-R114): your SMITH may complete, without supports, a work
whose material matches this work's Om-material-type. Provisional: a player's account of
an open-beta card, not printed text."""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import MATERIAL, faced
from arbiter.games.mottainai.om import om_types
from arbiter.games.mottainai.om_effects import om_effect
from arbiter.games.mottainai.state import WINGS, State


def _offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    if ctx["action"] != "smith":
        return []
    from arbiter.games.mottainai import actions

    types = om_types(state, work, "materials")
    out = []
    for w in faced(state.players[seat].hand):  # a peer game's shared state: shown cards
        # A work needing no support anyway is a plain SMITH: one spelling (M-R24).
        if MATERIAL[w] in types and actions.supports_needed(state, seat, w, "smith") > 0:
            out += [{"target": w, "wing": g} for g in WINGS]
    return out


@om_effect("om-smith-booster", window="boosters", offers=_offers, types=("materials",))
def om_smith_booster(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> dict[str, Any]:
    """SMITH: complete the hand work with no support (nothing is revealed)."""
    from arbiter.games.mottainai import actions

    target = params["target"]
    state.players[seat].hand.remove(target)
    actions.place_work(state, seat, target, params["wing"], "smith", events, [])
    return {"action": "smith", "work": target}
