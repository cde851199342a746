"""Om works (Wutai Mountain): tucking cards under them and what the tucked cards are.

An Om work is a Wutai card completed in a wing. Cards tucked under it lie apart from the
temple, in ``state.wutai["om"][work]``: ``helpers`` (left edge), ``materials`` (bottom),
``sales`` (right). Being apart is what makes them give no action, support no work, score
nothing and escape cover (M-R109). They are face up: public (M-R107).

Tucking happens right after an Om work is completed, before its own or any "after"
effect (M-R106): a ``tuck`` frame on top of the trigger stack, one card per decision,
``done`` to stop. Afterwards any card tucked under its owner's temple may go under one of
the owner's Om works instead (rules: Adding to Om Works): a MONK, POTTER or CLERK action
names the work in its decision (``"om": WORK``, M-R108); a card effect's cards are placed
one at a time by ``place`` decisions once the effect's decision is made (M-R119). Every
card enters a temple through ``actions.into_temple``.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import MATERIAL, TASKS
from arbiter.games.mottainai.state import PUBLIC, State
from arbiter.games.mottainai.wutai import EDGES, is_om

ACTION_EDGE = {"monk": "helpers", "potter": "materials", "clerk": "sales"}
"""The Om edge matching each temple placement: helper, material, sale (rules: Adding)."""
ZONE_EDGE = {"helpers": "helpers", "bench": "materials", "sales": "sales"}
"""The Om edge matching each temple zone: a helper, a material (the craft bench), a sale."""
TUCK_HINT = (
    "tuck a hand card under the Om work just completed: "
    '{"kind": "tuck", "card": ID, "edge": "helpers"|"materials"|"sales"}, or done'
)
PLACE_HINT = (
    'leave the card where the effect tucked it, {"kind": "place", "card": ID}, or tuck it '
    'under one of your Om works instead: {"kind": "place", "card": ID, "om": WORK}'
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


def put(state: State, work: str, edge: str, cards: list[str]) -> None:
    """Tuck ``cards`` under Om work ``work``'s ``edge``."""
    assert state.wutai is not None
    state.wutai["om"].setdefault(work, empty())[edge].extend(cards)


# -- a card effect's cards, placed one at a time (M-R119) ---------------------------------


def ask_place(state: State, seat: str, cards: list[str], zone: str, by: str) -> None:
    """Ask ``seat`` where each of ``cards``, just tucked in its temple's ``zone`` by
    ``by``, goes: it stays, or goes under one of the seat's Om works (rules: "you can
    choose individually"). Nothing is asked of a seat without an Om work.

    One ``place`` frame holds the queue, first card first; ``lift`` puts it on top of the
    stack once the decision that tucked the cards is applied.
    """
    if not cards or not om_works(state, seat):
        return
    entries = [{"card": c, "zone": zone, "by": by} for c in cards]
    for frame in state.frames:
        if frame["type"] == "place":
            frame["queue"].extend(entries)
            return
    state.frames.append({"type": "place", "seat": seat, "queue": entries})


def lift(state: State) -> None:
    """Put an open ``place`` frame on top of the stack (M-R119).

    The choice belongs to the tucking itself: it comes before anything the same decision
    opened afterwards (a booster's "after" trigger, the Morning after Chopsticks).
    """
    frames = state.frames
    if len(frames) > 1 and frames[-1]["type"] != "place":
        placing = [f for f in frames if f["type"] == "place"]
        if placing:
            frames[:] = [f for f in frames if f["type"] != "place"] + placing


def place_actions(state: State, frame: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the decisions for the next card of a ``place`` frame: the temple, or each of
    the seat's Om works."""
    c = frame["queue"][0]["card"]
    out: list[dict[str, Any]] = [{"kind": "place", "card": c}]
    out += [{"kind": "place", "card": c, "om": w} for w in om_works(state, frame["seat"])]
    return out


def place(state: State, seat: str, action: dict[str, Any], events: list[Event]) -> None:
    """Apply a checked ``place`` decision: the next card stays or goes under an Om work."""
    frame = state.frames[-1]
    entry = frame["queue"].pop(0)
    if not frame["queue"]:
        state.frames.pop()
    c, zone = entry["card"], entry["zone"]
    data = {"seat": seat, "card": c, "zone": zone, "by": entry["by"]}
    work = action.get("om")
    if work is not None:
        getattr(state.players[seat], zone).remove(c)
        edge = ZONE_EDGE[zone]
        put(state, work, edge, [c])
        data |= {"work": work, "edge": edge}
    events.append(Event("place", data))


def placing(state: State) -> list[dict[str, Any]]:
    """Return a copy of the queue of the open ``place`` frame (empty: none)."""
    for frame in state.frames:
        if frame["type"] == "place":
            return [dict(entry) for entry in frame["queue"]]
    return []


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
