"""Action boosters, "for your …" (Bell, Brick, Crane, Flute, Robe, Socks, Straw, Sword).

See ``registry`` for what each function receives. A booster is offered at every action
of its type the owner takes, on any task (rules glossary: "every time"), as
``{"kind": "use", "card": WORK, ...}`` in place of the plain action; it is that action
(the after-action trigger sees it so). ``ctx`` holds the task's own ``action`` kind,
its ``material`` and, when offering, ``mask``. Straw is passive (the ``supports`` query).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai import om
from arbiter.games.mottainai.cards import card, faced
from arbiter.games.mottainai.effects.dispatch import identity
from arbiter.games.mottainai.effects.registry import effect, narrates
from arbiter.games.mottainai.state import PUBLIC, WINGS, State

Params = list[dict[str, Any]]


def _actions() -> Any:
    from arbiter.games.mottainai import actions

    return actions


def _moved(seat: str, top: str, to: str, work: str) -> Event:
    # A card turned up from the deck: a barrier (rulings.md, information barriers).
    data = {"seat": seat, "card": top, "from": "deck", "to": to, "by": work}
    return Event("moved", data, barrier=True)


# -- CLERK: Bell, Robe --------------------------------------------------------------------


def _bell_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> Params:
    return [{}] if ctx["action"] == "clerk" and state.deck else []


@effect("bell", offers=_bell_offers)
def bell(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> dict[str, Any]:
    """CLERK: sell the deck's top card (face up) instead of a craft-bench card."""
    acts = _actions()
    top = acts.take_top(state)
    acts.into_temple(state, seat, [top], "sales", work)  # Wutai: or under an Om work (M-R119)
    events.append(_moved(seat, top, "sales", work))
    acts.deck_check(state, seat)
    return {"action": "clerk", "sold": [top]}


def _robe_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> Params:
    if ctx["action"] != "clerk":
        return []
    bench = state.players[seat].bench
    mats = sorted({card(c).material for c in bench})
    # One material with a single card is a plain CLERK: one spelling per choice (M-R24).
    return [{"material": m} for m in mats if sum(card(c).material == m for c in bench) > 1]


@effect("robe", offers=_robe_offers)
def robe(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> dict[str, Any]:
    """CLERK: sell every craft-bench card of one material (one action)."""
    p = state.players[seat]
    mat = params["material"]
    sold = [c for c in p.bench if card(c).material == mat]
    p.bench = [c for c in p.bench if card(c).material != mat]
    _actions().into_temple(state, seat, sold, "sales", work)  # M-R119
    events.append(Event("robe", {"seat": seat, "cards": sold, "material": mat}))
    return {"action": "clerk", "sold": sold}


@narrates("robe", public=True)
def _robe_line(d: dict[str, Any], viewer: str | None) -> str:
    return (
        f"{d['seat']} sells {len(d['cards'])} {d['material']} from the craft bench (CLERK, Robe)."
    )


# -- MONK / POTTER: Socks, Flute, Sword ---------------------------------------------------


def _socks_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> Params:
    return [{}] if ctx["action"] == "potter" and state.deck else []


@effect("socks", offers=_socks_offers)
def socks(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> dict[str, Any]:
    """POTTER: collect the deck's top card (face up) instead of a floor card."""
    acts = _actions()
    top = acts.take_top(state)
    acts.into_temple(state, seat, [top], "bench", work)  # M-R119
    events.append(_moved(seat, top, "bench", work))
    acts.deck_check(state, seat)
    return {"action": "potter", "card": top}


def _flute_targets(state: State, seat: str) -> list[tuple[str, str, str]]:
    """Return (card, owner, zone) an opponent's face-up task or PAPER work (M-R5, M-R14)."""
    out = []
    for o in state.opponents(seat):
        q = state.players[o]
        if q.task is not None and not q.face_down:
            out.append((q.task, o, "task"))
        for wing in WINGS:
            out += [
                (w, o, wing) for w in q.wing(wing) if card(identity(state, w)).material == "PAPER"
            ]
    return out


def _flute_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> Params:
    if ctx["action"] not in ("monk", "potter"):
        return []
    return [{"target": c} for c, _, _ in _flute_targets(state, seat)]


@effect("flute", offers=_flute_offers)
def flute(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> dict[str, Any]:
    """MONK/POTTER: take an opponent's task card or PAPER work (M-R5) instead of a floor card."""
    target = params["target"]
    _, owner, zone = next(t for t in _flute_targets(state, seat) if t[0] == target)
    q = state.players[owner]
    if zone == "task":
        q.task = None  # its task, if not yet performed this Noon, is skipped (no task)
    else:
        q.wing(zone).remove(target)
    kind = ctx["action"]
    acts = _actions()
    acts.into_temple(state, seat, [target], acts.TEMPLE_ZONE[kind], work)  # M-R119
    events.append(
        Event(
            "take",
            {"seat": seat, "card": target, "from": owner, "zone": zone, "as": kind, "by": work},
        )
    )
    return {"action": kind, "card": target}


def _sword_targets(state: State, seat: str, kind: str) -> list[tuple[str, str]]:
    zone = "helpers" if kind == "monk" else "bench"
    mine = len(getattr(state.players[seat], zone))
    out = []
    for o in state.opponents(seat):
        theirs = getattr(state.players[o], zone)
        if len(theirs) > mine:  # only from an opponent with more helpers (bench cards)
            out += [(c, o) for c in theirs]
    return out


def _sword_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> Params:
    if ctx["action"] not in ("monk", "potter"):
        return []
    return [{"target": c} for c, _ in _sword_targets(state, seat, ctx["action"])]


@effect("sword", offers=_sword_offers)
def sword(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> dict[str, Any]:
    """MONK: hire an opponent's helper; POTTER: collect from an opponent's craft bench.

    Only from an opponent who has more helpers (craft-bench cards) than you.
    """
    kind = ctx["action"]
    target = params["target"]
    owner = next(o for c, o in _sword_targets(state, seat, kind) if c == target)
    zone = "helpers" if kind == "monk" else "bench"
    getattr(state.players[owner], zone).remove(target)
    _actions().into_temple(state, seat, [target], zone, work)  # M-R119
    events.append(
        Event(
            "take",
            {"seat": seat, "card": target, "from": owner, "zone": zone, "as": kind, "by": work},
        )
    )
    return {"action": kind, "card": target}


ZONE_NAMES = {
    "task": "task",
    "gallery": "gallery",
    "gift_shop": "gift shop",
    "helpers": "helpers",
    "bench": "craft bench",
}


@narrates("take", public=True)
def _take_line(d: dict[str, Any], viewer: str | None) -> str:
    c = card(d["card"])
    to = "as a helper (MONK)" if d["as"] == "monk" else "into the craft bench (POTTER)"
    return (
        f"{d['seat']} takes {c.name} [{c.material}] from {d['from']}'s "
        f"{ZONE_NAMES[d['zone']]} {to}, with {card(d['by']).name}."
    )


# -- SMITH / CRAFT: Straw, Crane, Brick ----------------------------------------------------


@effect("straw", queries=("supports",))
def straw(state: State, seat: str, work: str, query: str, value: int, ctx: dict[str, Any]) -> int:
    """SMITH: CLOTH and CLAY works need one support fewer."""
    if ctx.get("via") == "smith" and card(ctx["work"]).material in ("CLOTH", "CLAY"):
        return max(0, value - 1)
    return value


def _crane_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> Params:
    """Crane (M-R52): return k ≥ 1 craft-bench PAPER cards as k of the supports needed."""
    acts = _actions()
    p = state.players[seat]
    paper = sorted(c for c in p.bench if card(c).material == "PAPER")
    if not paper:
        return []
    out: Params = []
    hand = faced(p.hand)  # on a peer game's shared state: the cards the decision shows
    if ctx["action"] == "smith":
        for w in hand:
            mat = card(w).material
            need = acts.supports_needed(state, seat, w, "smith")
            others = sorted(c for c in hand if c != w and card(c).material == mat)
            for k in range(1, min(need, len(paper)) + 1):
                for back in combinations(paper, k):
                    for sup in combinations(others, need - k):
                        cards = sorted(back + sup)
                        out += [
                            {"target": w, "cards": cards, "wing": g, "option": "smith"}
                            for g in WINGS
                        ]
    if not ctx.get("mask"):
        mat = ctx["material"]
        on_bench = sum(1 for c in p.bench if card(c).material == mat)
        for w in hand:
            if card(w).material != mat or mat == "PAPER":
                continue
            missing = acts.supports_needed(state, seat, w, "craft") - on_bench
            if 1 <= missing <= len(paper):
                for back in combinations(paper, missing):
                    out += [
                        {"target": w, "cards": list(back), "wing": g, "option": "craft"}
                        for g in WINGS
                    ]
    return out


@effect("crane", offers=_crane_offers)
def crane(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> dict[str, Any]:
    """SMITH or CRAFT: return craft-bench PAPER cards, each one extra support."""
    acts = _actions()
    p = state.players[seat]
    target, how = params["target"], params["option"]
    back = [c for c in params["cards"] if c in p.bench]
    support = [c for c in params["cards"] if c in p.hand]
    for c in back:  # public cards returned in everyone's sight: their place is public
        p.bench.remove(c)
        om.bottom(state, c, PUBLIC)  # a Wutai card to the Wutai deck (M-R104)
    events.append(Event("crane", {"seat": seat, "cards": back}))
    p.hand.remove(target)
    if how == "smith":
        state.revealed = {"seat": seat, "cards": list(support)}  # M-R17
    acts.place_work(
        state, seat, target, params["wing"], how, events, support if how == "smith" else None
    )
    return {"action": how, "work": target}


@narrates("crane", public=True)
def _crane_line(d: dict[str, Any], viewer: str | None) -> str:
    names = ", ".join(card(c).name for c in d["cards"])
    return f"{d['seat']} returns {names} (PAPER) from the craft bench as supports (Crane)."


def _slot_cards(state: State) -> list[str]:
    """Return the cards in every task slot, face-down ones excepted (M-R14)."""
    return [q.task for q in state.players.values() if q.task is not None and not q.face_down]


def _brick_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> Params:
    """Brick: supports from hand and task slots, at least one from a slot (else a SMITH)."""
    if ctx["action"] != "smith":
        return []
    acts = _actions()
    p = state.players[seat]
    slots = _slot_cards(state)
    out: Params = []
    hand = faced(p.hand)  # on a peer game's shared state: the cards the decision shows
    for w in hand:
        mat = card(w).material
        mine = [c for c in slots if card(c).material == mat]
        if not mine:
            continue
        need = acts.supports_needed(state, seat, w, "smith")
        pool = sorted(mine + [c for c in hand if c != w and card(c).material == mat])
        for sup in combinations(pool, need):
            if any(c in mine for c in sup):
                out += [{"target": w, "cards": list(sup), "wing": g} for g in WINGS]
    return out


@effect("brick", offers=_brick_offers)
def brick(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> dict[str, Any]:
    """SMITH: cards in any task slot count as hand cards for support (they stay put)."""
    acts = _actions()
    p = state.players[seat]
    target = params["target"]
    p.hand.remove(target)
    hand_part = [c for c in params["cards"] if c in p.hand]
    state.revealed = {"seat": seat, "cards": hand_part}  # M-R17: the hand supports
    acts.place_work(state, seat, target, params["wing"], "smith", events, params["cards"])
    return {"action": "smith", "work": target}
