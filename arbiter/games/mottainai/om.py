"""Om works (Wutai Mountain): tucking cards under them and what the tucked cards are.

An Om work is a Wutai card completed in a wing. Cards tucked under it lie apart from the
temple, in ``state.wutai["om"][work]``: ``helpers`` (left edge), ``materials`` (bottom),
``sales`` (right). Being apart is what makes them give no action, support no work, score
nothing and escape cover (M-R109). They are face up: public (M-R107).

Tucking happens right after an Om work is completed, before its own or any "after"
effect (M-R106): a ``tuck`` frame on top of the trigger stack, one card per decision,
``done`` to stop. Afterwards a MONK, POTTER or CLERK action may put its card under one of
the owner's Om works instead of the temple (``"om": WORK`` in the decision, M-R108).
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import MATERIAL, TASKS
from arbiter.games.mottainai.state import PUBLIC, State
from arbiter.games.mottainai.wutai import EDGES, is_om

ACTION_EDGE = {"monk": "helpers", "potter": "materials", "clerk": "sales"}
"""The Om edge matching each temple placement: helper, material, sale (rules: Adding)."""
TUCK_HINT = (
    "tuck a hand card under the Om work just completed: "
    '{"kind": "tuck", "card": ID, "edge": "helpers"|"materials"|"sales"}, or done'
)


def empty() -> dict[str, list[str]]:
    return {edge: [] for edge in EDGES}


def tucked(state: State, work: str) -> dict[str, list[str]]:
    """Return the cards under Om work ``work`` by edge (empty lists if none)."""
    w = state.wutai
    if w is None:
        return empty()
    return w["om"].get(work) or empty()


def om_types(state: State, work: str, edge: str) -> list[str]:
    """Return the materials of the cards under ``work``'s ``edge``, sorted (M-R110).

    Om-helper-type, Om-material-type and Om-sales-type: a card "matches" when its
    material is one of these (a task and its material go together: CLERK is PAPER).
    """
    return sorted({MATERIAL[c] for c in tucked(state, work)[edge]})


def describe_types(state: State, work: str, edge: str) -> str:
    """Return an Om type as the rulebook writes it: ``CLERK or MONK`` / ``STONE``."""
    mats = om_types(state, work, edge)
    if edge == "helpers":
        return " or ".join(TASKS[m] for m in mats) or "nothing"
    return " or ".join(mats) or "nothing"


def om_works(state: State, seat: str) -> list[str]:
    """Return the seat's Om works (Wutai cards in its wings), gallery first.

    A Kite copying an Om work is not one: it has no edge to tuck under (M-R112).
    """
    if state.wutai is None:
        return []
    p = state.players[seat]
    return [w for w in p.gallery + p.gift_shop if is_om(w)]


# -- tucking at completion (M-R106) -------------------------------------------------------


def after_completion(state: State, seat: str, work: str) -> None:
    """Open the tucking decision for an Om work just completed (on top of its trigger)."""
    if state.wutai is None or not is_om(work) or work not in state.players[seat].works():
        return
    state.wutai["om"].setdefault(work, empty())
    if state.players[seat].hand:
        state.frames.append({"type": "tuck", "seat": seat, "work": work})


def tuck_actions(state: State, frame: dict[str, Any]) -> list[dict[str, Any]]:
    """Return every decision of a tucking frame: a hand card under an edge, or done."""
    hand = state.players[frame["seat"]].hand
    out = [{"kind": "tuck", "card": c, "edge": e} for c in hand for e in EDGES]
    out.append({"kind": "done"})
    return out


def tuck(state: State, seat: str, action: dict[str, Any], events: list[Event]) -> None:
    """Tuck one hand card under the frame's Om work; the frame closes with an empty hand."""
    frame = state.frames[-1]
    work, c, edge = frame["work"], action["card"], action["edge"]
    p = state.players[seat]
    p.hand.remove(c)
    assert state.wutai is not None
    state.wutai["om"].setdefault(work, empty())[edge].append(c)
    events.append(Event("tuck", {"seat": seat, "card": c, "work": work, "edge": edge}))
    if not p.hand:
        state.frames.pop()


def tuck_done(state: State) -> None:
    state.frames.pop()


# -- instead of the temple (M-R108) -------------------------------------------------------


def redirects(
    state: State, seat: str, kind: str, plain: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Return the MONK/POTTER/CLERK decisions that put their card under an Om work."""
    works = om_works(state, seat)
    if not works or kind not in ACTION_EDGE:
        return []
    return [{**a, "om": w} for a in plain for w in works]


def place(state: State, seat: str, kind: str, c: str, work: str, events: list[Event]) -> None:
    """Perform a MONK (POTTER, CLERK) whose card goes under Om work ``work`` (M-R108)."""
    assert state.wutai is not None
    (state.players[seat].bench if kind == "clerk" else state.floor).remove(c)
    edge = ACTION_EDGE[kind]
    state.wutai["om"].setdefault(work, empty())[edge].append(c)
    events.append(Event("tuck", {"seat": seat, "card": c, "work": work, "edge": edge, "by": kind}))


# -- Om works leaving play (M-R112) -------------------------------------------------------


def sweep(state: State, events: list[Event]) -> None:
    """Deal with the cards under Om works that left play (returned, taken by Flute).

    ``om_leave=return``: each to the bottom of its own deck, in everyone's sight;
    ``om_leave=floor``: face up to the floor. Works moved between wings or stolen keep
    their cards (they are still in play).
    """
    w = state.wutai
    if w is None or not w["om"]:
        return
    in_play = {c for s in state.seats for c in state.players[s].works()}
    for work in sorted(w["om"]):
        if work in in_play:
            continue
        under = w["om"].pop(work)
        cards = [c for edge in EDGES for c in under[edge]]
        if not cards:
            continue
        if w["leave"] == "floor":
            state.floor.extend(cards)
        else:
            for c in cards:
                bottom(state, c, PUBLIC)
        events.append(Event("om-orphans", {"work": work, "cards": cards, "to": w["leave"]}))


def bottom(state: State, c: str, known: str) -> None:
    """Return a card to the bottom of its own deck (a Wutai card to the Wutai deck)."""
    w = state.wutai
    if w is not None and is_om(c):
        w["deck"].append(c)
    else:
        state.deck.append(c)
    state.known[c] = known
