"""In the morning / at night (Bowl, Daidoro, Kite, Pin, Pinwheel, Umbrella).

See ``registry`` for what each function receives.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import card
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.effects.dispatch import identity
from arbiter.games.mottainai.effects.registry import effect, narrates
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
    actions.into_temple(state, seat, [top], "bench", work)  # M-R119
    # A card turned up from the deck: a barrier (rulings.md, information barriers).
    events.append(
        Event(
            "moved",
            {"seat": seat, "card": top, "from": "deck", "to": "bench", "by": work},
            barrier=True,
        )
    )
    actions.deck_check(state, seat)


def _actions() -> Any:
    from arbiter.games.mottainai import actions

    return actions


def _daidoro_offers(
    state: State, seat: str, work: str, ctx: dict[str, Any]
) -> list[dict[str, Any]]:
    return [{}] if state.deck and len(state.floor) < 3 else []


@effect("daidoro", offers=_daidoro_offers)
def daidoro(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Deal the deck's top cards face up to the floor until it holds 3 (M-R2 each card)."""
    acts = _actions()
    while len(state.floor) < 3:
        top = acts.take_top(state)
        state.floor.append(top)
        events.append(
            Event(
                "moved",
                {"seat": seat, "card": top, "from": "deck", "to": "floor", "by": work},
                barrier=True,
            )
        )
        acts.deck_check(state, seat)


def _kite_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    """A hand card to the bench of a player with works, and one of those works (M-R12)."""
    hand = state.players[seat].hand
    if not hand:
        return []
    targets = [
        w
        for s in state.seats
        for w in state.players[s].gallery + state.players[s].gift_shop
        if w != work
    ]
    return [{"cards": [c], "target": w} for c in hand for w in targets]


def _owner_of(state: State, work: str) -> str:
    return next(s for s in state.seats if work in state.players[s].works())


@effect("kite", offers=_kite_offers)
def kite(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Put a hand card in a player's craft bench; Kite copies one of that player's works.

    The copy is the work in every respect (name, material, value, effect) until this turn
    ends, at game end too (rules FAQ); ``dispatch.identity`` reads it.
    """
    given, target = params["cards"][0], params["target"]
    owner = _owner_of(state, target)
    state.players[seat].hand.remove(given)
    # Wutai: only a card tucked under your own temple may go under your Om works (M-R119).
    _actions().into_temple(state, owner, [given], "bench", work, ask=owner == seat)
    copy = identity(state, target)
    state.memo.setdefault("copies", {})[work] = copy
    events.append(
        Event("kite", {"seat": seat, "card": given, "to": owner, "target": target, "copy": copy})
    )
    _actions().end_checks(state, seat)  # the copy may complete a wing or Turtle's set


@narrates("kite", public=True)
def _kite_line(d: dict[str, Any], viewer: str | None) -> str:
    c, copy = card(d["card"]), card(d["copy"])
    return (
        f"Morning: {d['seat']} puts {c.name} [{c.material}] in {d['to']}'s craft bench; Kite "
        f"becomes {copy.name} ({copy.material} {copy.value}) until the turn ends."
    )


def _pin_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    """A TAILOR action, or (rules FAQ) a PRAYER or a CRAFT of CLOTH instead."""
    out: list[dict[str, Any]] = [{}, {"option": "prayer"}]
    for c in _actions().craft_options(state, seat, "CLOTH"):
        out.append({"option": "craft", "target": c["work"], "wing": c["wing"]})
    return out


@effect("pin", offers=_pin_offers)
def pin(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Take one TAILOR action (replaceable by PRAYER or CRAFT like any action)."""
    acts = _actions()
    option = params.get("option")
    if option == "prayer":
        acts.draw(state, seat, 1, "prayer", events)
        acts.action_done(state, seat, {"action": "prayer"})
    elif option == "craft":
        target = params["target"]
        state.players[seat].hand.remove(target)
        acts.place_work(state, seat, target, params["wing"], "craft", events)
        acts.action_done(state, seat, {"action": "craft", "work": target})
    else:
        # M-R57: the before-TAILOR effects apply; ``tailor_done`` ends the action.
        state.frames.append({"type": "tailor", "seat": seat, "task_action": True})
        dispatch.open_frame(state, seat, "before_tailor", {"action": "tailor"})


def _pinwheel_offers(
    state: State, seat: str, work: str, ctx: dict[str, Any]
) -> list[dict[str, Any]]:
    hand = state.players[seat].hand
    return [{"target": c} for c in hand] + [{"target": c, "option": "no-draw"} for c in hand]


@effect("pinwheel", offers=_pinwheel_offers)
def pinwheel(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """At night, return a hand card; only then you may draw a card (to the waiting area)."""
    acts = _actions()
    acts.return_card(state, seat, params["target"], "pinwheel", events)
    if params.get("option") != "no-draw":
        acts.draw(state, seat, 1, "pinwheel", events)


def _umbrella_offers(
    state: State, seat: str, work: str, ctx: dict[str, Any]
) -> list[dict[str, Any]]:
    if ctx.get("step") == "helper":
        mat = ctx["material"]
        return [{"target": h} for h in state.players[seat].helpers if card(h).material == mat]
    return [{}] if state.deck else []


@effect("umbrella", offers=_umbrella_offers)
def umbrella(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Turn the deck's top card onto the floor; then you may move a helper of its material
    to your sales."""
    p = state.players[seat]
    if ctx.get("step") == "helper":
        if not ctx.get("declined"):
            p.helpers.remove(params["target"])
            _actions().into_temple(state, seat, [params["target"]], "sales", work)  # M-R119
            events.append(Event("umbrella", {"seat": seat, "card": params["target"]}))
        return
    acts = _actions()
    top = acts.take_top(state)
    state.floor.append(top)
    data = {"seat": seat, "card": top, "from": "deck", "to": "floor", "by": work}
    events.append(Event("moved", data, barrier=True))
    acts.deck_check(state, seat)
    mat = card(top).material
    if any(card(h).material == mat for h in p.helpers):
        dispatch.ask(state, seat, work, "morning", {"step": "helper", "material": mat}, True)


@narrates("umbrella", public=True)
def _umbrella_line(d: dict[str, Any], viewer: str | None) -> str:
    c = card(d["card"])
    return f"{d['seat']} moves their {c.task} helper {c.name} to their sales (Umbrella)."
