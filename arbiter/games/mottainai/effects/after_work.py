"""After you complete a work (Amulet, Cloak, Poem, Stool).

See ``registry`` for what each function receives. They trigger on their own completion
too (M-R9). Poem and Cloak come last and open a new trigger for the work they complete,
in which these effects may be used again (rules glossary, M-R8, M-R34).
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai import om
from arbiter.games.mottainai.cards import MATERIAL, card, faced
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.effects.dispatch import identity
from arbiter.games.mottainai.effects.registry import effect
from arbiter.games.mottainai.facts import holds
from arbiter.games.mottainai.state import PUBLIC, WINGS, State


def _in_play(state: State, seat: str, work: str | None) -> bool:
    p = state.players[seat]
    return work is not None and (work in p.gallery or work in p.gift_shop)


def _return_work(state: State, seat: str, work: str) -> None:
    """Return a completed work to the deck's bottom, in everyone's sight (M-R32)."""
    p = state.players[seat]
    p.wing("gallery" if work in p.gallery else "gift_shop").remove(work)
    copies = state.memo.get("copies")
    if copies:
        copies.pop(work, None)  # a returned Kite is no longer a copy
    om.bottom(state, work, PUBLIC)  # a Wutai card to the Wutai deck (M-R104)


def _complete_free(
    state: State,
    seat: str,
    work: str,
    wing: str,
    how: str,
    ctx: dict[str, Any],
    events: list[Event],
) -> None:
    """Complete ``work`` for free and open its own trigger (same action, M-R34)."""
    from arbiter.games.mottainai import actions

    actions.place_work(state, seat, work, wing, how, events)
    actions.open_after(state, seat, {"action": ctx.get("action"), "work": work})


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


def _amulet_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    if ctx.get("work") is None:
        return []
    return [{"target": c} for c in state.players[seat].bench]


@effect("amulet", offers=_amulet_offers)
def amulet(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Sell a material after completing any work: craft bench to sales."""
    from arbiter.games.mottainai import actions

    state.players[seat].bench.remove(params["target"])
    actions.into_temple(state, seat, [params["target"]], "sales", work)  # M-R119
    events.append(
        Event("fx", {"seat": seat, "card": work, "fx": "sell", "target": params["target"]})
    )


def _cloak_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    if not _in_play(state, seat, ctx.get("work")):
        return []
    metal = [c for c in faced(state.players[seat].hand) if MATERIAL[c] == "METAL"]
    return [{"target": c, "wing": wing} for c in metal for wing in WINGS]


def _cloak_exists(state: State, seat: str, work: str, ctx: dict[str, Any]) -> bool:
    return _in_play(state, seat, ctx.get("work")) and holds(
        state, seat, lambda c: MATERIAL[c] == "METAL"
    )


@effect("cloak", offers=_cloak_offers, last=True, exists=_cloak_exists)
def cloak(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Return the work just completed; complete a METAL hand card for free instead."""
    done, metal = ctx["work"], params["target"]
    _return_work(state, seat, done)
    events.append(Event("fx", {"seat": seat, "card": work, "fx": "return-work", "target": done}))
    state.players[seat].hand.remove(metal)
    _complete_free(state, seat, metal, params["wing"], "cloak", ctx, events)


def _poem_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    if ctx.get("step") == "wing":  # the follow-up: the wing of the card turned up
        return [{"wing": wing} for wing in WINGS]
    done = ctx.get("work")
    if done is None or not _in_play(state, seat, done):
        return []
    return [{}] if card(identity(state, done)).material == "PAPER" else []


@effect("poem", offers=_poem_offers, last=True)
def poem(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Return the PAPER work just completed; complete the deck's top card for free.

    The top card is turned up first (public, a barrier); then the player picks its wing
    (M-R35) and it is completed, which opens its own trigger.
    """
    from arbiter.games.mottainai import actions

    if ctx.get("step") == "wing":
        top = actions.take_top(state)
        _complete_free(state, seat, top, params["wing"], "poem", ctx, events)
        return
    done = ctx["work"]
    _return_work(state, seat, done)
    top = state.deck[0]
    state.known[top] = PUBLIC  # face up on the deck until it is placed
    events.append(
        Event(
            "fx",
            {"seat": seat, "card": work, "fx": "poem", "target": done, "top": top},
            barrier=True,
        )
    )
    step = {"action": ctx.get("action"), "work": done, "step": "wing", "top": top}
    dispatch.ask(state, seat, work, "after", step, optional=False)
