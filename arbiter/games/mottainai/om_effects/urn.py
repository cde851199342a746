"""URN (Wutai rulebook): in the morning, you may swap all of its Om materials with all
the materials on the floor (M-R115)."""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.effects.registry import narrates
from arbiter.games.mottainai.om import tucked
from arbiter.games.mottainai.om_effects import om_effect
from arbiter.games.mottainai.state import State


def _offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    # Only this work's Om materials (rules: Om Work Effects); nothing to swap: no offer.
    return [{}] if state.floor or tucked(state, work)["materials"] else []


@om_effect("urn", window="morning_night", moment="morning", offers=_offers)
def urn(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Swap: this work's Om materials go to the floor, the floor's cards under this work."""
    assert state.wutai is not None
    under = state.wutai["om"].setdefault(work, {"helpers": [], "materials": [], "sales": []})
    mine, floor = list(under["materials"]), list(state.floor)
    under["materials"] = floor
    state.floor[:] = mine
    # Copies: the lists themselves live on in the table (the floor under the work may take
    # a tucked card later in the step), and the line tells the swap as it was.
    swap = {"to_floor": list(mine), "from_floor": list(floor)}
    events.append(Event("urn", {"seat": seat, "card": work, **swap}))


@narrates("urn", public=True)
def _line(d: dict[str, Any], viewer: str | None) -> str:
    from arbiter.games.mottainai.narrate import names

    return (
        f"Morning: {d['seat']} swaps Urn's Om materials ({names(d['to_floor'])}) with the "
        f"floor ({names(d['from_floor'])})."
    )
