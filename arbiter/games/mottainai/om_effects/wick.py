"""WICK (Wutai rulebook): at night, you may return an Om-helper-type card from your hand;
if you do, you may draw two cards (M-R116: to the waiting area, as Pinwheel's draw)."""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.core.hidden import is_hidden
from arbiter.games.mottainai.cards import MATERIAL
from arbiter.games.mottainai.facts import holds
from arbiter.games.mottainai.om import om_types
from arbiter.games.mottainai.om_effects import om_effect
from arbiter.games.mottainai.state import State


def _offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    # Om-helper-type: the tasks of the cards under this work's left edge (M-R110). On a
    # peer game's shared state a card of the hand may be a placeholder: the decision that
    # returns it proves its type instead (``claims``, M-R129).
    types = om_types(state, work, "helpers")
    hand = [c for c in state.players[seat].hand if is_hidden(c) or MATERIAL[c] in types]
    return [{"target": c} for c in hand] + [{"target": c, "option": "no-draw"} for c in hand]


def _exists(state: State, seat: str, work: str, ctx: dict[str, Any]) -> bool:
    types = om_types(state, work, "helpers")
    return holds(state, seat, lambda c: MATERIAL[c] in types)


@om_effect(
    "wick",
    window="morning_night",
    moment="night",
    offers=_offers,
    types=("helpers",),
    exists=_exists,
)
def wick(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Return the card (a Wutai card to the Wutai deck); then draw two unless declined."""
    from arbiter.games.mottainai import actions

    actions.return_card(state, seat, params["target"], work, events)
    if params.get("option") != "no-draw":
        actions.draw(state, seat, 2, work, events)
