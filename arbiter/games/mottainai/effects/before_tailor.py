"""Before a TAILOR action (Dice, Fan, Puppet).

See ``registry`` for what each function receives. The trigger opens when a TAILOR action
starts (a task's, or Pin's), before its returns; a TAILOR replaced by CRAFT or PRAYER
opens nothing (rules glossary). Cards turned up from the deck are public: they stay
known in place (``State.known`` → ``PUBLIC``) and each turn-up is a barrier.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import card
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.effects.registry import effect, narrates
from arbiter.games.mottainai.state import PUBLIC, WINGS, State


def _actions() -> Any:
    from arbiter.games.mottainai import actions

    return actions


def _dice_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    if ctx.get("step") == "wing":
        return [{"wing": w} for w in WINGS]
    return [{}] if state.deck else []


@effect("dice", offers=_dice_offers)
def dice(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Turn up the deck's top card; if its value equals your hand size, complete it free.

    Otherwise it stays face up on top of the deck (M-R15).
    """
    if ctx.get("step") == "wing":
        acts = _actions()
        top = acts.take_top(state)
        acts.place_work(state, seat, top, params["wing"], "dice", events)
        acts.deck_check(state, seat)
        acts.open_after(state, seat, {"action": "effect", "work": top})
        return
    top = state.deck[0]
    state.known[top] = PUBLIC
    hand = len(state.players[seat].hand)
    match = card(top).value == hand
    events.append(
        Event("dice", {"seat": seat, "card": top, "hand": hand, "match": match}, barrier=True)
    )
    if match:
        dispatch.ask(state, seat, work, "before_tailor", {"step": "wing"}, optional=False)


@narrates("dice", public=True)
def _dice_line(d: dict[str, Any], viewer: str | None) -> str:
    c = card(d["card"])
    then = "it becomes a work" if d["match"] else "it stays face up on top of the deck"
    return (
        f"{d['seat']} turns up {c.name} [{c.material} {c.value}] with {d['hand']} cards "
        f"in hand (Dice): {then}."
    )


def _fan_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    if ctx.get("step") == "keep":
        return [{"target": c} for c in ctx["cards"]]
    return [{}] if len(state.deck) >= 2 else []


@effect("fan", offers=_fan_offers)
def fan(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Turn up the top 3 cards; return 2 of them, put the third back on top (M-R58)."""
    if ctx.get("step") == "keep":
        shown = ctx["cards"]
        keep = params["target"]
        del state.deck[: len(shown)]
        back = [c for c in shown if c != keep]
        state.deck.insert(0, keep)
        state.deck.extend(back)  # in the order they were turned up
        events.append(Event("fan", {"seat": seat, "cards": shown, "keep": keep}))
        return
    shown = state.deck[:3]
    for c in shown:
        state.known[c] = PUBLIC  # revealed: everyone knows them and where they go
    events.append(Event("fan", {"seat": seat, "cards": shown, "keep": None}, barrier=True))
    dispatch.ask(
        state, seat, work, "before_tailor", {"step": "keep", "cards": shown}, optional=False
    )


@narrates("fan", public=True)
def _fan_line(d: dict[str, Any], viewer: str | None) -> str:
    shown = ", ".join(f"{card(c).name} [{card(c).material}]" for c in d["cards"])
    if d["keep"] is None:
        return f"{d['seat']} turns up the top {len(d['cards'])} cards (Fan): {shown}."
    back = ", ".join(card(c).name for c in d["cards"] if c != d["keep"])
    return f"{d['seat']} puts {card(d['keep']).name} back on top and returns {back} (Fan)."


def _puppet_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"target": o} for o in state.opponents(seat)]


@effect("puppet", offers=_puppet_offers)
def puppet(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Return Puppet to swap hands: yours goes to the opponent's hand, theirs to your
    waiting area (unseen until Night, M-R16)."""
    p, q = state.players[seat], state.players[params["target"]]
    for wing in WINGS:
        if work in p.wing(wing):
            p.wing(wing).remove(work)
    state.deck.append(work)
    state.known[work] = PUBLIC  # a work returned in everyone's sight
    given, taken = p.hand, q.hand
    # In card order, not the order they came in (M-R128): the target learns nothing of
    # when the user drew each card, and a game with no referee can show the same.
    q.hand, p.hand = sorted(given), []
    p.waiting.extend(sorted(taken))
    events.append(
        Event("puppet", {"seat": seat, "target": params["target"], "given": given, "taken": taken})
    )


@narrates("puppet")
def _puppet_line(d: dict[str, Any], viewer: str | None) -> str:
    seat, target = d["seat"], d["target"]
    given, taken = d["given"], d["taken"]

    def cards(cs: list[str]) -> str:
        return ", ".join(card(c).name for c in sorted(cs)) or "nothing"

    if viewer == seat:  # it knows its own hand, not the cards reaching its waiting area
        gave = cards(given)
        got = f"{len(taken)} card{'s' if len(taken) != 1 else ''}"
    elif viewer == target:  # it knows both hands
        gave, got = cards(given), cards(taken)
    else:
        gave = f"{len(given)} card{'s' if len(given) != 1 else ''}"
        got = f"{len(taken)} card{'s' if len(taken) != 1 else ''}"
    return (
        f"{seat} returns Puppet and swaps hands with {target}: {target} receives {gave}; "
        f"{got} go to {seat}'s waiting area."
    )
