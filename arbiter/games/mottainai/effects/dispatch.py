"""Offer the effects of one trigger, once each, in the order the player chooses.

A trigger opens a *frame* (plain data in ``state.frames``): the moment, its context and
what was used. While a frame has something to offer, the active player answers
``{"kind": "use", "card": WORK, ...}`` or ``{"kind": "done"}`` (effects are optional,
rules FAQ); an effect that itself triggers opens a new frame on top, which is answered
first, so every prompt resumes where it stopped. Poem and Cloak close their frame (they
come last, M-R8); effects of one group exclude each other (Sketch and Doll).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import INSTANCES, WINDOWS, Card, card
from arbiter.games.mottainai.effects.registry import ANSWERING, REGISTRY, Effect
from arbiter.games.mottainai.state import State

RUNNING: dict[str, Effect] = {}
"""The effects of the installed Wutai list's cards (``om_effects.RUNNING``, the same dict)."""


def effect_of(card_id: str) -> Effect:
    """Return the effect of a card id: a base card's, else a Wutai card's."""
    eff = REGISTRY.get(card_id)
    return eff if eff is not None else RUNNING[card_id]


MOMENTS = ("morning", "night", "before_task", "before_tailor", "after")
AFTER = ("after_this", "after_work", "after_action")


def identity(state: State, work: str) -> str:
    """Return the card a work counts as now (a Kite copy lasts until its turn ends)."""
    copies = state.memo.get("copies")
    return copies.get(work, work) if copies else work


# The seat's works are walked several times per decision, and most have no effect of the
# window asked for. These catalog-only indexes (instance ids, so ``kite#2`` too) let a walk
# skip them without a registry look-up; the registry stays the authority (tests swap
# effects in and out), which is sound because it keeps each effect in its card's window.
BY_WINDOW: dict[str, frozenset[str]] = {
    window: frozenset(i for i, c in INSTANCES.items() if c.window == window) for window in WINDOWS
}
"""Window → the instance ids of the cards of that window."""


def _moments(c: Card) -> tuple[str, ...]:
    """Return every ``moment`` for which ``_matches`` can accept an effect of card ``c``."""
    if c.window in AFTER:
        return ("after", c.window)
    if c.window == "morning_night":
        return (c.moment,)
    return (c.window,)


BY_MOMENT: dict[str, frozenset[str]] = {
    moment: frozenset(i for i, c in INSTANCES.items() if moment in _moments(c))
    for moment in sorted({m for c in INSTANCES.values() for m in _moments(c)})
}
"""Moment → the instance ids of the cards whose effect may answer a trigger at it."""
_NONE: frozenset[str] = frozenset()


def _registered(state: State, seat: str, ids: frozenset[str]) -> Sequence[tuple[str, Effect]]:
    """Return ``(work, effect)`` for the seat's works counting as one of ``ids``, wing order.

    Only works with a registered effect are listed.
    """
    p = state.players[seat]
    gallery, gift_shop = p.gallery, p.gift_shop
    if (
        (not gallery or ids.isdisjoint(gallery))
        and (not gift_shop or ids.isdisjoint(gift_shop))
        and "copies" not in state.memo
    ):
        return ()  # the common case, decided without a Python loop
    copies = state.memo.get("copies")
    out = []
    for work in gallery + gift_shop:
        model = copies.get(work, work) if copies else work  # as ``identity``
        if model in ids:
            cid = INSTANCES[model].id
            eff = REGISTRY.get(cid) or RUNNING.get(cid)
            if eff is not None:
                out.append((work, eff))
    return out


def _matches(eff: Effect, moment: str, work: str, ctx: dict[str, Any], state: State) -> bool:
    window = eff.window
    if moment == "after":
        if window == "after_this":
            return ctx.get("work") == work
        return window in AFTER
    if window == "morning_night":
        return card(identity(state, work)).moment == moment
    return window == moment


def candidates(
    state: State, seat: str, moment: str, ctx: dict[str, Any]
) -> list[tuple[str, Effect]]:
    """Return the seat's works whose implemented effect belongs to ``moment``."""
    out = []
    for work, eff in _registered(state, seat, BY_MOMENT.get(moment, _NONE)):
        if _matches(eff, moment, work, ctx, state):
            out.append((work, eff))
    return out


def open_frame(state: State, seat: str, moment: str, ctx: dict[str, Any]) -> None:
    """Open a trigger for ``seat`` if any of its works could answer it.

    An "after" trigger is opened by ``actions.open_after``, which puts Wutai's tucking
    decision on top of it (M-R106): the Om machinery hangs off the dispatch.
    """
    if candidates(state, seat, moment, ctx):
        state.frames.append(
            {
                "type": "effects",
                "seat": seat,
                "moment": moment,
                "ctx": ctx,
                "used": [],
                "groups": [],
                "closed": False,
            }
        )


def offers(state: State, frame: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the ``use`` decisions the frame offers now (empty: the trigger is over)."""
    if frame["type"] == "choice":
        return _choice_offers(state, frame)
    if frame["closed"]:
        return []
    seat, ctx = frame["seat"], frame["ctx"]
    out: list[dict[str, Any]] = []
    for work, eff in candidates(state, seat, frame["moment"], ctx):
        if work in frame["used"] or (eff.group is not None and eff.group in frame["groups"]):
            continue
        choices = eff.offers(state, seat, work, ctx) if eff.offers is not None else [{}]
        for params in choices:
            out.append({"kind": "use", "card": work, **params})
    return out


def offered(state: State, frame: dict[str, Any]) -> bool:
    """Whether the frame offers anything now (``flow.advance`` drops it if not): ``offers``
    made non-empty, except that an effect whose offers depend on a hidden hand answers
    through its ``exists`` (a fact on a peer game's shared state, M-R126). On a referee
    state the answer is exactly ``bool(offers(state, frame))``."""
    if frame["type"] == "choice":
        return bool(_choice_offers(state, frame))
    if frame["closed"]:
        return False
    seat, ctx = frame["seat"], frame["ctx"]
    for work, eff in candidates(state, seat, frame["moment"], ctx):
        if work in frame["used"] or (eff.group is not None and eff.group in frame["groups"]):
            continue
        if eff.exists is not None:
            if eff.exists(state, seat, work, ctx):
                return True
        elif eff.offers is None or eff.offers(state, seat, work, ctx):
            return True
    return False


def use(state: State, frame: dict[str, Any], action: dict[str, Any], events: list[Event]) -> None:
    """Resolve one checked ``use`` decision of the frame."""
    work = action["card"]
    if frame["type"] == "choice":  # a follow-up decision (``ask``)
        state.frames.pop()
        params = {k: v for k, v in action.items() if k not in ("kind", "card")}
        effect_of(frame["effect"]).resolve(state, frame["seat"], work, frame["ctx"], params, events)
        return
    eff = effect_of(card(identity(state, work)).id)
    frame["used"].append(work)
    if eff.last:
        frame["closed"] = True  # M-R8: nothing else of this trigger after Poem or Cloak.
    if eff.group is not None:
        frame["groups"].append(eff.group)
    params = {k: v for k, v in action.items() if k not in ("kind", "card")}
    events.append(
        Event("effect", {"seat": frame["seat"], "card": work, "as": identity(state, work)})
    )
    eff.resolve(state, frame["seat"], work, frame["ctx"], params, events)


def step_offers(state: State, seat: str, step: str) -> list[dict[str, Any]]:
    """Return the instead-of decisions that may replace Morning ``step``."""
    out: list[dict[str, Any]] = []
    for work, eff in _registered(state, seat, BY_WINDOW["instead_of"]):
        if eff.step == step:
            choices = eff.offers(state, seat, work, {"step": step}) if eff.offers else [{}]
            for params in choices:
                out.append({"kind": "use", "card": work, **params})
    return out


def use_step(state: State, seat: str, action: dict[str, Any], events: list[Event]) -> None:
    """Resolve an instead-of decision: it replaces its Morning step."""
    work = action["card"]
    eff = effect_of(card(identity(state, work)).id)
    params = {k: v for k, v in action.items() if k not in ("kind", "card")}
    events.append(Event("effect", {"seat": seat, "card": work, "as": identity(state, work)}))
    eff.resolve(state, seat, work, {"step": eff.step}, params, events)


def query(state: State, seat: str, name: str, value: Any, ctx: dict[str, Any] | None = None) -> Any:
    """Return ``value`` as the seat's passive effects (Go Set, Straw, …) modify it."""
    ids = ANSWERING.get(name)
    if ids is None:
        return value
    for work, eff in _registered(state, seat, ids):
        if name in eff.queries:
            value = eff.resolve(state, seat, work, name, value, ctx or {})
    return value


def has_window(state: State, seat: str, window: str) -> bool:
    """Return whether one of the seat's works has an implemented effect of ``window``."""
    return bool(_registered(state, seat, BY_WINDOW.get(window, _NONE)))


# -- follow-up choices, boosters and obstruction ------------------------------------------


def ask(
    state: State, seat: str, work: str, moment: str, ctx: dict[str, Any], optional: bool
) -> None:
    """Open a follow-up decision of ``work``'s effect (e.g. after a card is turned up).

    Its choices are the effect's ``offers`` for ``ctx`` (computed when asked, so they
    follow the state); ``done`` declines it when ``optional`` (resolved with
    ``ctx["declined"]``), otherwise one choice must be made.
    """
    state.frames.append(
        {
            "type": "choice",
            "seat": seat,
            "moment": moment,
            "card": work,
            "effect": card(identity(state, work)).id,
            "ctx": ctx,
            "optional": optional,
        }
    )


def _choice_offers(state: State, frame: dict[str, Any]) -> list[dict[str, Any]]:
    eff = effect_of(frame["effect"])
    assert eff.offers is not None
    work = frame["card"]
    return [
        {"kind": "use", "card": work, **params}
        for params in eff.offers(state, frame["seat"], work, frame["ctx"])
    ]


def frame_actions(state: State, frame: dict[str, Any]) -> list[dict[str, Any]]:
    """Return every decision at an effect prompt: its offers, and ``done`` if optional."""
    out = offers(state, frame)
    if frame.get("optional", True):
        out.append({"kind": "done"})
    return out


def decline(state: State, events: list[Event]) -> None:
    """Answer ``done`` at an effect prompt: close the trigger or decline the choice."""
    frame = state.frames.pop()
    if frame["type"] == "choice":
        ctx = {**frame["ctx"], "declined": True}
        effect_of(frame["effect"]).resolve(state, frame["seat"], frame["card"], ctx, {}, events)


def boosts(state: State, seat: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the action-booster decisions for the next action (effects/boosters.py)."""
    out: list[dict[str, Any]] = []
    for work, eff in _registered(state, seat, BY_WINDOW["boosters"]):
        if eff.offers is not None:
            for params in eff.offers(state, seat, work, ctx):
                out.append({"kind": "use", "card": work, **params})
    return out


def act(
    state: State, seat: str, action: dict[str, Any], ctx: dict[str, Any], events: list[Event]
) -> dict[str, Any]:
    """Perform a boosted action (``use``) or skip it (``done``, Mask: M-R4); return its context."""
    if action["kind"] == "done":
        events.append(Event("skip-action", {"seat": seat}))
        return {"action": "skip"}
    work = action["card"]
    eff = effect_of(card(identity(state, work)).id)
    params = {k: v for k, v in action.items() if k not in ("kind", "card")}
    events.append(Event("effect", {"seat": seat, "card": work, "as": identity(state, work)}))
    out: dict[str, Any] = eff.resolve(state, seat, work, ctx, params, events)
    return out


def obstruct(state: State, seat: str, owner: str) -> bool:
    """Apply the owner's obstruction as ``seat`` reaches its task (effects/obstruction.py).

    Mask marks the task; Curtain or Tower open a reveal-or-skip decision (True: the task
    waits for it). Never on the owner's own task.
    """
    task = state.task
    assert task is not None
    if query(state, owner, "mask", False):
        task["mask"] = True
    gates = _registered(state, owner, BY_WINDOW["obstruction"])
    if not gates:
        return False
    gate = {"owner": owner, "material": task["material"], "step": "applies"}
    for work, eff in gates:
        gate_offers = eff.offers
        if gate_offers is not None and gate_offers(state, seat, work, gate):
            ask(state, seat, work, "obstruction", {**gate, "step": "reveal"}, optional=True)
            return True
    return False
