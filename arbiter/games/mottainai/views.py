"""What each seat may know (redaction), the resampling of what it may not, and invariants.

Public: the floor, every temple (helpers, craft bench, sales, both wings), face-up tasks,
the count of every hand and waiting area, the deck's count. Private to its owner: the
hand, and which cards it returned to the deck (M-R18). Nobody: waiting areas, even their
owner's (M-R16), the face-down initial tasks (M-R14) and the deck's order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.core.rng import Rng
from arbiter.games.mottainai import om, wutai
from arbiter.games.mottainai.cards import deck_ids
from arbiter.games.mottainai.cover import covered
from arbiter.games.mottainai.state import PUBLIC, State, copy_state
from arbiter.games.mottainai.wutai import EDGES, is_om

TRIGGER_CONTEXT = ("action", "work", "card", "owner", "material", "wing")
"""What a trigger answers that everyone saw happen (the action, the work completed, the
card placed, the task's owner and material, the wing): an effect's offers depend on it.
Anything else a trigger carries (Fan's cards, shown to one seat) stays out."""


def _trigger(frame: dict[str, Any]) -> dict[str, Any]:
    """An open trigger as the view shows it (public, M-R8): its moment, the works used in
    it, and what it answers when that is not nothing (``determinize`` rebuilds offers
    from it, or a bot would plan uses the real table does not offer)."""
    out: dict[str, Any] = {"moment": frame["moment"], "used": list(frame.get("used", ()))}
    ctx = {k: frame["ctx"][k] for k in TRIGGER_CONTEXT if frame.get("ctx", {}).get(k) is not None}
    if ctx:
        out["ctx"] = ctx
    if frame.get("closed"):
        out["closed"] = True  # declined: it offers nothing more, though still open
    return out


TURN_FACTS = {
    "own_extra": "own_extra",
    "returned": "returned_at_limit",
    "old-task": "old_task_done",
}
"""The turn's settled facts (memo key → the view's name), all public (each came with a
public event): Doll's extra actions on the seat's own task, a card returned at the hand
limit (the Morning's offers close), the old task's step taken. A bot rebuilding the table
from the view (``determinize``) needs them, or it plans decisions the real table will not
offer."""


def _turn_facts(memo: dict[str, Any]) -> dict[str, Any]:
    return {shown: memo[key] for key, shown in TURN_FACTS.items() if memo.get(key)}


def view(state: State, seat: str | None) -> dict[str, Any]:
    """Return what ``seat`` may know (``None``: a spectator)."""
    players = {}
    seen_waiting = state.memo.get("seen_waiting", {})
    bonus_turn = state.memo.get("bonus_turn")
    for s in state.seats:
        p = state.players[s]
        entry: dict[str, Any] = {
            "hand_count": len(p.hand),
            "waiting_count": len(p.waiting),
            "task": None if p.face_down else p.task,
            "task_face_down": p.face_down,
            "helpers": list(p.helpers),
            "craft_bench": list(p.bench),
            "sales": list(p.sales),
            "gallery": list(p.gallery),
            "gift_shop": list(p.gift_shop),
        }
        entry["covered_helpers"], entry["covered_sales"] = covered(state, s)
        if s == seat:
            entry["hand"] = list(p.hand)
        # Cards everyone saw go to this waiting area this turn (Jar, Gong; M-R38).
        seen = seen_waiting.get(s)
        if seen:
            entry["waiting_seen"] = list(seen)
        if s == state.current and bonus_turn:
            entry["bonus_turn"] = True  # Frog (M-R30)
        if s == state.current:
            entry.update(_turn_facts(state.memo))
        players[s] = entry
    deck: dict[str, Any] = {"count": len(state.deck)}
    known = state.known
    if state.wutai is not None and known:  # Wutai cards are known in the Wutai deck
        known = {c: who for c, who in known.items() if not is_om(c)}
    if seat is not None:
        deck["returned_by_you"] = sorted(c for c, who in known.items() if who == seat)
    # Works and floor cards returned in everyone's sight (Tablet, Poem, Cloak, Cup, M-R32).
    public = sorted(c for c, who in known.items() if who == PUBLIC)
    if public:
        deck["returned_publicly"] = public
        if state.known.get(state.deck[0]) == PUBLIC:
            deck["top"] = state.deck[0]  # turned up and left on top (Dice, Fan: M-R15, M-R58)
    task = state.task
    out = {
        "game": "mottainai",
        "viewer": seat,
        "seats": list(state.seats),
        "teams": [[s, state.partner(s)] for s in state.seats[:2]] if state.teams else None,
        "works_to_end": 6 if state.extended else 5,
        "turn": state.turn,
        "current": state.current,
        "start": state.start,
        "phase": "over" if state.over else state.phase,
        "task": None
        if task is None
        else {k: task[k] for k in ("owner", "card", "material", "done", "total")},
        "queue": list(state.queue),
        "deck": deck,
        "floor": list(state.floor),
        "players": players,
        "revealed": None if state.revealed is None else dict(state.revealed),
        "copies": dict(state.memo.get("copies", {})),
        # The open triggers and the works already used in each (public, M-R8).
        "triggers": [_trigger(f) for f in state.frames if "moment" in f],
        "end": None if state.end is None else dict(state.end),
        "result": state.result,
    }
    if state.wutai is not None:
        out["wutai"] = wutai_view(state, seat, players)
    return out


def wutai_view(state: State, seat: str | None, players: dict[str, Any]) -> dict[str, Any]:
    """Add what Wutai makes public (M-R102, M-R107) and return the Wutai part of a view.

    Public: how many Wutai cards each hand and waiting area holds, the Wutai deck's size,
    the cards tucked under every Om work. A seat knows the Wutai cards it returned.
    """
    w = state.wutai
    assert w is not None
    for s in state.seats:
        p = state.players[s]
        players[s]["hand_wutai"] = sum(1 for c in p.hand if is_om(c))
        players[s]["waiting_wutai"] = sum(1 for c in p.waiting if is_om(c))
    deck: dict[str, Any] = {"count": len(w["deck"])}
    returned = {c: who for c, who in state.known.items() if is_om(c)}
    if seat is not None:
        deck["returned_by_you"] = sorted(c for c, who in returned.items() if who == seat)
    public = sorted(c for c, who in returned.items() if who == PUBLIC)
    if public:
        deck["returned_publicly"] = public
    key = w["table"]
    out: dict[str, Any] = {
        "cards": key if key == wutai.BUILTIN else {"digest": key, "rows": wutai.rows_public(key)},
        "deck": deck,
        "om": {work: {e: list(t[e]) for e in EDGES} for work, t in sorted(w["om"].items())},
        "draws": w["draws"],
        "works_end": w["works_end"],
        "leave": w["leave"],
    }
    tucking = [f["work"] for f in state.frames if f["type"] == "tuck"]
    if tucking:
        out["tucking"] = tucking[-1]
    placing = om.placing(state)
    if placing:
        out["placing"] = placing  # cards in a temple, public (M-R119)
    return out


def ensure_view(view: Mapping[str, Any]) -> None:
    """Install the Wutai list a view names (a custom list travels in the view)."""
    w = view.get("wutai")
    if not w:
        return
    cards = w["cards"]
    if cards == wutai.BUILTIN:
        wutai.ensure(wutai.register(wutai.BUILTIN))
        return
    key = cards["digest"]
    if key not in wutai.TABLES:
        rows = [{**r, "note": ""} for r in cards["rows"]]
        wutai.TABLES[key] = {"format": wutai.FORMAT, "cards": rows}
    wutai.ensure(key)


def resample(state: State, seat: str, rng: Rng) -> State:
    """Return a copy with everything ``seat`` cannot see redrawn consistently.

    Hidden from ``seat``: other hands (their sizes are public), every waiting area, the
    face-down tasks and the deck except the cards ``seat`` returned (which keep their
    places). Revealed cards stay in their hand; others' returned cards keep their places
    and stay known to whoever returned them.
    """
    out = copy_state(state)
    # Cards the last decision showed to everyone stay where they are (Jar: every hand).
    fixed_hand = set(out.revealed["cards"]) if out.revealed else set()
    for seen in out.memo.get("seen_waiting", {}).values():
        fixed_hand.update(seen)
    pool: list[str] = []
    slots: list[tuple[str, str, int]] = []  # (zone, owner, index)
    if out.wutai is not None:
        _resample_wutai(out, seat, rng, fixed_hand)
    for s in out.seats:
        p = out.players[s]
        if s != seat:
            for i, c in enumerate(p.hand):
                if c not in fixed_hand and not (out.wutai is not None and is_om(c)):
                    pool.append(c)
                    slots.append(("hand", s, i))
        for i, c in enumerate(p.waiting):
            if c not in fixed_hand and not (out.wutai is not None and is_om(c)):
                pool.append(c)
                slots.append(("waiting", s, i))
        if p.face_down and p.task is not None:
            pool.append(p.task)
            slots.append(("task", s, 0))
    others_known = {}
    for i, c in enumerate(out.deck):
        who = out.known.get(c)
        if who in (seat, PUBLIC):
            continue
        if who is not None:
            others_known[i] = who
        pool.append(c)
        slots.append(("deck", "", i))
    rng.shuffle(pool)
    for c, (zone, owner, i) in zip(pool, slots, strict=True):
        if zone == "deck":
            out.deck[i] = c
        elif zone == "task":
            out.players[owner].task = c
        else:
            getattr(out.players[owner], zone)[i] = c
    # Wutai cards' knowledge was redrawn by ``_resample_wutai`` already.
    keep = (seat, PUBLIC)
    wutai_on = out.wutai is not None
    out.known = {c: w for c, w in out.known.items() if w in keep or (wutai_on and is_om(c))}
    for i, who in others_known.items():
        out.known[out.deck[i]] = who
    return out


def _resample_wutai(out: State, seat: str, rng: Rng, fixed: set[str]) -> None:
    """Redraw the Wutai cards ``seat`` cannot see among the places that hold Wutai cards:
    other hands, every waiting area, the Wutai deck (those it returned keep their places;
    others' returns stay where they are and known to whoever returned them)."""
    w = out.wutai
    assert w is not None
    pool: list[str] = []
    slots: list[tuple[str, str, int]] = []
    for s in out.seats:
        p = out.players[s]
        zones = ("hand", "waiting") if s != seat else ("waiting",)
        for zone in zones:
            for i, c in enumerate(getattr(p, zone)):
                if is_om(c) and c not in fixed:
                    pool.append(c)
                    slots.append((zone, s, i))
    others_known = {}
    for i, c in enumerate(w["deck"]):
        who = out.known.get(c)
        if who in (seat, PUBLIC):
            continue
        if who is not None:
            others_known[i] = who
            del out.known[c]
        pool.append(c)
        slots.append(("deck", "", i))
    rng.shuffle(pool)
    for c, (zone, owner, i) in zip(pool, slots, strict=True):
        if zone == "deck":
            w["deck"][i] = c
        else:
            getattr(out.players[owner], zone)[i] = c
    for i, who in others_known.items():
        out.known[w["deck"][i]] = who


def invariants(state: State) -> None:
    """Assert card conservation: every card of the deck(s) in exactly one place."""
    places = list(state.deck) + list(state.floor)
    for p in state.players.values():
        places += p.hand + p.waiting + p.helpers + p.bench + p.sales + p.gallery + p.gift_shop
        if p.task is not None:
            places.append(p.task)
    expected = deck_ids(state.decks)
    deck = set(state.deck)
    w = state.wutai
    if w is not None:
        places += w["deck"]
        deck |= set(w["deck"])
        for under in w["om"].values():
            places += [c for e in EDGES for c in under[e]]
        expected = expected + wutai.om_ids(w["table"])
    assert sorted(places) == sorted(expected), "cards are missing or duplicated"
    assert all(c in deck for c in state.known), "a known returned card is not in the deck"
    for entry in om.placing(state):  # an effect's cards wait in the temple (M-R119)
        assert entry["card"] in getattr(state.players[state.current], entry["zone"])
    if state.task is not None:
        assert state.task["done"] <= state.task["total"] or state.phase == "count"
    for p in state.players.values():
        assert not p.face_down or p.task is not None


def deck_order_matters(before: State, after: State, seat: str) -> bool:
    """Whether a card left a deck (the base deck or Wutai's) while it held cards ``seat``
    returned: the seat's ``returned_by_you`` then follows from their places in it."""
    if not any(who == seat for who in before.known.values()):
        return False
    decks = [(before.deck, after.deck)]
    if before.wutai is not None and after.wutai is not None:
        decks.append((before.wutai["deck"], after.wutai["deck"]))
    return any(set(old) - set(new) for old, new in decks)
