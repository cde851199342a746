"""The actions of a task (rules: Action Types) and the card moves they are made of.

CLERK, MONK, TAILOR, POTTER and SMITH are the tasks' own actions; any action may be
replaced by a CRAFT of the task's material or by a PRAYER (rules: Performing a task).
Every draw checks the deck: the game ends the moment it is empty (M-R2).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai import om
from arbiter.games.mottainai.cards import TASKS, card, faced
from arbiter.games.mottainai.cover import wing_count
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.state import HAND_LIMIT, WINGS, State
from arbiter.games.mottainai.wutai import is_om

PRAYER: dict[str, Any] = {"kind": "prayer"}
TASK_KINDS = {TASKS[m].lower(): m for m in TASKS}
"""The decision kind of each task's own action → the material of that task."""
TEMPLE_ZONE = {"monk": "helpers", "potter": "bench", "clerk": "sales"}
"""Where MONK, POTTER and CLERK tuck their card: a helper, a material, a sale."""


class GameEnds(Exception):
    """Raised the moment a game-end condition holds; the turn is not completed (M-R2, M-R3)."""

    def __init__(self, reason: str, **detail: Any):
        super().__init__(reason)
        self.reason = reason
        self.detail = detail


# -- card moves ---------------------------------------------------------------------------


def draw(state: State, seat: str, n: int, why: str, events: list[Event]) -> None:
    """Draw ``n`` cards, one at a time, into the seat's waiting area (rules: Waiting Area)."""
    if state.wutai is not None:
        draw_wutai(state, seat, n, why, events)
        return
    p = state.players[seat]
    drawn = 0
    for _ in range(n):
        top = state.deck.pop(0)
        state.known.pop(top, None)
        p.waiting.append(top)
        drawn += 1
        if not state.deck:
            events.append(Event("draw", {"seat": seat, "count": drawn, "why": why}))
            raise GameEnds("deck", seat=seat)  # M-R2: the last card is drawn.
    events.append(Event("draw", {"seat": seat, "count": drawn, "why": why}))


def wutai_draw(state: State, seat: str, why: str) -> bool:
    """Return whether the next card drawn to the seat's waiting area is a Wutai card.

    Rules (Wutai: Using Wutai Cards): when the waiting area holds no Wutai card; M-R103:
    on a PRAYER (``wutai_draws=any``: on any draw but a TAILOR's).
    """
    w = state.wutai
    assert w is not None
    if why != "prayer" and (w["draws"] != "any" or why == "tailor"):
        return False
    return not any(is_om(c) for c in state.players[seat].waiting)


def draw_wutai(state: State, seat: str, n: int, why: str, events: list[Event]) -> None:
    """Draw as ``draw``, a card at a time from the Wutai or the base deck (M-R103).

    Either deck running out ends the game at once (M-R2, M-R105).
    """
    w = state.wutai
    assert w is not None
    p = state.players[seat]
    drawn = om = 0
    for _ in range(n):
        from_wutai = wutai_draw(state, seat, why)
        deck = w["deck"] if from_wutai else state.deck
        top = deck.pop(0)
        state.known.pop(top, None)
        p.waiting.append(top)
        drawn += 1
        om += from_wutai
        if not deck:
            events.append(Event("draw", {"seat": seat, "count": drawn, "why": why, "wutai": om}))
            raise GameEnds("wutai-deck" if from_wutai else "deck", seat=seat)
    events.append(Event("draw", {"seat": seat, "count": drawn, "why": why, "wutai": om}))


def take_top(state: State) -> str:
    """Take the deck's top card for an effect; the caller places it, then calls ``deck_check``."""
    top = state.deck.pop(0)
    state.known.pop(top, None)
    return top


def deck_check(state: State, seat: str) -> None:
    """End the game if the deck is empty, whatever emptied it (M-R2)."""
    if not state.deck:
        raise GameEnds("deck", seat=seat)


def return_card(state: State, seat: str, iid: str, why: str, events: list[Event]) -> None:
    """Return a hand card face down to the bottom of the deck; only its owner knows it (M-R18)."""
    state.players[seat].hand.remove(iid)
    if state.wutai is not None and is_om(iid):
        state.wutai["deck"].append(iid)  # M-R104: to the bottom of the Wutai deck
    else:
        state.deck.append(iid)
    state.known[iid] = seat
    events.append(Event("return", {"seat": seat, "card": iid, "why": why}))


def into_temple(
    state: State,
    seat: str,
    cards: list[str],
    zone: str,
    by: str,
    under: str | None = None,
    ask: bool = True,
) -> None:
    """Tuck ``cards`` under the seat's temple in ``zone``: helpers, bench or sales.

    Every card that enters a temple comes through here. Wutai (Adding to Om Works): any
    time a card would be tucked under your temple you may tuck it under one of your Om
    works instead, card by card. A MONK, POTTER or CLERK names its place in its decision
    (``under``: an Om work, or None for the temple; ``ask=False``, M-R108); a card
    effect's cards are tucked here and their owner is then asked about each (M-R119).
    ``ask=False`` too when the temple is not the deciding seat's own (Kite's gift).
    """
    if under is not None:
        om.put(state, under, om.ZONE_EDGE[zone], cards)
        return
    getattr(state.players[seat], zone).extend(cards)
    if ask and state.wutai is not None:
        om.ask_place(state, seat, cards, zone, by)


def place_work(
    state: State,
    seat: str,
    work: str,
    wing: str,
    how: str,
    events: list[Event],
    support: list[str] | None = None,
) -> None:
    """Put a completed work in a wing, end the game on the 5th (6th) work, else trigger.

    M-R3: the game ends as soon as the work is placed; no "after" effect follows.
    """
    state.players[seat].wing(wing).append(work)
    data: dict[str, Any] = {"seat": seat, "card": work, "wing": wing, "how": how}
    if support is not None:
        data["support"] = list(support)
    events.append(Event("work", data))
    end_checks(state, seat)


def end_checks(state: State, seat: str) -> None:
    """End the game if the seat's works now win (Turtle) or fill a wing (M-R3).

    Call it whenever the seat's works change (completed, stolen, moved, copied).
    """
    if dispatch.query(state, seat, "instant_win", False):
        raise GameEnds("turtle", seat=seat, winner=seat)  # Turtle: "win immediately"
    limit = 6 if state.extended else 5
    for side in WINGS:
        if wing_count(state, seat, side) >= limit:
            raise GameEnds("wing", seat=seat, wing=side)


# -- what an action may be ----------------------------------------------------------------


def supports_needed(state: State, seat: str, work: str, via: str) -> int:
    """Return the supports a work needs: its value less one (rules: Completing a work)."""
    needed = card(work).value - 1
    return int(dispatch.query(state, seat, "supports", needed, {"work": work, "via": via}))


def smith_options(state: State, seat: str) -> list[dict[str, Any]]:
    """Return every SMITH: a hand work, supports of its material from the hand, a wing.

    Supports are listed in id order so that each choice has one spelling.
    """
    hand = faced(state.players[seat].hand)  # on a peer game's shared state: the shown cards
    out = []
    for work in hand:
        mat = card(work).material
        others = sorted(c for c in hand if c != work and card(c).material == mat)
        need = supports_needed(state, seat, work, "smith")
        if need > len(others):
            continue
        for support in combinations(others, need):
            for wing in WINGS:
                out.append({"kind": "smith", "work": work, "support": list(support), "wing": wing})
    return out


def craft_options(state: State, seat: str, mat: str) -> list[dict[str, Any]]:
    """Return every CRAFT of a ``mat`` work from hand with supports in the craft bench.

    Bench cards are public and never spent, so naming them adds nothing: the count decides.
    """
    p = state.players[seat]
    out = []
    on_bench = sum(1 for c in p.bench if card(c).material == mat)
    for work in faced(p.hand):
        if card(work).material == mat and supports_needed(state, seat, work, "craft") <= on_bench:
            for wing in WINGS:
                out.append({"kind": "craft", "work": work, "wing": wing})
    return out


def legal(state: State, seat: str) -> list[dict[str, Any]]:
    """Return every decision for the next action of the current task."""
    task = state.task
    assert task is not None
    mat = task["material"]
    kind = TASKS[mat].lower()
    p = state.players[seat]
    out: list[dict[str, Any]]
    if kind == "clerk":
        out = [{"kind": "clerk", "card": c} for c in p.bench]
    elif kind in ("monk", "potter"):
        out = [{"kind": kind, "card": c} for c in state.floor]
    elif kind == "tailor":
        out = [{"kind": "tailor"}]
    else:
        out = smith_options(state, seat)
    if state.wutai is not None:
        out += om.redirects(state, seat, kind, out)  # M-R108
    mask = task.get("mask", False)
    out += dispatch.boosts(state, seat, {"action": kind, "material": mat, "mask": mask})
    if mask:  # Mask: only the task's own action, or skip it (rules FAQ, M-R4)
        out.append({"kind": "done"})
        return out
    out += craft_options(state, seat, mat)
    out.append(PRAYER)
    return out


# -- performing an action -----------------------------------------------------------------


def perform(state: State, seat: str, action: dict[str, Any], events: list[Event]) -> None:
    """Perform one checked action of the current task (TAILOR only starts its returns)."""
    kind = action["kind"]
    p = state.players[seat]
    ctx: dict[str, Any] = {"action": kind}
    if kind in ("use", "done"):  # an action booster, or an action skipped under Mask
        task = state.task
        assert task is not None
        own = {"action": TASKS[task["material"]].lower(), "material": task["material"]}
        action_done(state, seat, dispatch.act(state, seat, action, own, events))
        return
    if kind == "prayer":
        draw(state, seat, 1, "prayer", events)
    elif kind in TEMPLE_ZONE:  # CLERK, MONK, POTTER; Wutai: "om" names an Om work (M-R108)
        c, under = action["card"], action.get("om")
        (p.bench if kind == "clerk" else state.floor).remove(c)
        into_temple(state, seat, [c], TEMPLE_ZONE[kind], kind, under, ask=False)
        if under is None:
            events.append(Event(kind, {"seat": seat, "card": c}))
        else:
            edge = om.ACTION_EDGE[kind]
            data = {"seat": seat, "card": c, "work": under, "edge": edge, "by": kind}
            events.append(Event("tuck", data))
    elif kind == "tailor":
        state.frames.append({"type": "tailor", "seat": seat, "task_action": True})
        dispatch.open_frame(state, seat, "before_tailor", {"action": "tailor"})
        return  # The action ends when the returns are done (``tailor_done``).
    else:
        work = action["work"]
        p.hand.remove(work)
        if kind == "smith":
            state.revealed = {"seat": seat, "cards": list(action["support"])}  # M-R17
        place_work(state, seat, work, action["wing"], kind, events, action.get("support"))
        ctx["work"] = work
    action_done(state, seat, ctx)


def tailor_done(state: State, seat: str, events: list[Event]) -> None:
    """M-R19: after the returns, draw until hand and waiting area hold five together."""
    frame = state.frames.pop()
    p = state.players[seat]
    missing = HAND_LIMIT - len(p.hand) - len(p.waiting)
    if missing > 0:
        draw(state, seat, missing, "tailor", events)
    else:
        events.append(Event("draw", {"seat": seat, "count": 0, "why": "tailor"}))
    if frame.get("task_action"):
        action_done(state, seat, {"action": "tailor"})


def action_done(state: State, seat: str, ctx: dict[str, Any]) -> None:
    """Count a finished action of the task and open its "after" trigger."""
    if state.task is not None:
        state.task["done"] += 1
    open_after(state, seat, ctx)


def open_after(state: State, seat: str, ctx: dict[str, Any]) -> None:
    """Open the "after" trigger of an action or of a completion (``ctx["work"]``).

    Wutai: after an Om work is completed its owner tucks cards first (M-R106), so the
    tucking decision goes on top of this trigger.
    """
    dispatch.open_frame(state, seat, "after", ctx)
    work = ctx.get("work")
    if state.wutai is not None and work is not None:
        om.after_completion(state, seat, work)
