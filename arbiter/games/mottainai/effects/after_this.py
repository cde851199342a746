"""After you complete this work (Frog, Jar, Shuriken, Statue, Tablet, Vase).

See ``registry`` for what each function receives. They trigger only on the completion
of the card itself (``ctx["work"]``), whatever completed it (SMITH, CRAFT, Poem, Cloak).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from arbiter.core.engine import Event
from arbiter.core.hidden import faces
from arbiter.games.mottainai import om
from arbiter.games.mottainai.cards import MATERIALS, card
from arbiter.games.mottainai.effects.registry import effect
from arbiter.games.mottainai.state import PUBLIC, WINGS, State


def _fx(seat: str, work: str, fx: str, barrier: bool = False, **data: Any) -> Event:
    return Event("fx", {"seat": seat, "card": work, "fx": fx, **data}, barrier=barrier)


def _works(state: State, seat: str) -> int:
    """Return the number of the seat's works: each once, Go Set or not (rules FAQ)."""
    p = state.players[seat]
    return len(p.gallery) + len(p.gift_shop)


def _frog_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    mine = _works(state, seat)
    if state.memo.get("bonus_turn") or any(_works(state, o) < mine for o in state.opponents(seat)):
        return []
    return [{}]


@effect("frog", offers=_frog_offers)
def frog(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Take a bonus turn after this one if no opponent has fewer works (Frog counted)."""
    state.memo["bonus_turn"] = True
    events.append(_fx(seat, work, "frog"))


def _jar_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"material": m} for m in MATERIALS]


@effect("jar", offers=_jar_offers)
def jar(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Name a material: every opponent reveals their hand and gives you those cards.

    Rules FAQ: the whole hand is revealed, to everyone; the cards go to your waiting
    area. The hands are news to the acting seat: a barrier.
    """
    mat = params["material"]
    me = state.players[seat]
    # A peer game opens every opponent's hand at once: one round (M-R38, M-R124).
    faces([c for o in state.opponents(seat) for c in state.players[o].hand])
    hands: dict[str, list[str]] = {}
    taken: dict[str, list[str]] = {}
    for o in state.opponents(seat):
        p = state.players[o]
        # Shown and taken in card order, not the order they came in (M-R38): a hand's
        # order would tell everyone when each card was drawn.
        hands[o] = sorted(p.hand)
        taken[o] = [c for c in hands[o] if card(c).material == mat]
        p.hand = [c for c in p.hand if card(c).material != mat]
        me.waiting.extend(taken[o])
    shown = sorted(c for cards in hands.values() for c in cards)
    # ``taken``: which of the shown cards left their hands (public, as the event says): a
    # reader of the view must not think them still there (``determinize``).
    gone = sorted(c for cards in taken.values() for c in cards)
    state.revealed = {"seat": seat, "cards": shown, "hands": hands, "taken": gone}
    # Everyone knows these cards wait in the Jar owner's waiting area until Night (M-R38).
    state.memo.setdefault("seen_waiting", {}).setdefault(seat, []).extend(
        c for cards in taken.values() for c in cards
    )
    events.append(_fx(seat, work, "jar", True, material=mat, hands=hands, taken=taken))


def _steal_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    mine = _works(state, seat)
    out: list[dict[str, Any]] = []
    for o in state.opponents(seat):
        if _works(state, o) > mine:
            for target in state.players[o].works():
                out.extend({"target": target, "wing": wing} for wing in WINGS)
    return out


@effect("shuriken", offers=_steal_offers)
def shuriken(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Take a work of an opponent with more works than you into the wing you choose (M-R13).

    The stolen work's own "after you complete this" does not trigger; cover follows at
    once for both (it is computed from the wings). A full wing or Turtle ends the game.
    """
    from arbiter.games.mottainai import actions

    target, wing = params["target"], params["wing"]
    owner = next(o for o in state.opponents(seat) if target in state.players[o].works())
    victim = state.players[owner]
    victim.wing("gallery" if target in victim.gallery else "gift_shop").remove(target)
    state.players[seat].wing(wing).append(target)
    events.append(_fx(seat, work, "shuriken", target=target, owner=owner, wing=wing))
    actions.end_checks(state, seat)


def _two_floor_cards(
    state: State, seat: str, work: str, ctx: dict[str, Any]
) -> list[dict[str, Any]]:
    n = min(2, len(state.floor))
    return [{"cards": list(pick)} for pick in combinations(sorted(state.floor), n)] if n else []


def _floor_to(state: State, seat: str, work: str, cards: list[str], zone: str) -> Event:
    from arbiter.games.mottainai import actions

    for c in cards:
        state.floor.remove(c)
    actions.into_temple(state, seat, cards, zone, work)  # Wutai: or under Om works (M-R119)
    return _fx(seat, work, "floor-to", cards=list(cards), to=zone)


@effect("statue", offers=_two_floor_cards)
def statue(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Move 2 floor cards of your choice (all if fewer) to your craft bench."""
    events.append(_floor_to(state, seat, work, params["cards"], "bench"))


@effect("vase", offers=_two_floor_cards)
def vase(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Move 2 floor cards of your choice (all if fewer) to your sales."""
    events.append(_floor_to(state, seat, work, params["cards"], "sales"))


def _tablet_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    out = [{"option": "return"}] if state.floor else []
    return out + ([{"option": "deal"}] if state.deck else [])


def _shows_stone_and_metal(floor: list[str]) -> bool:
    mats = {card(c).material for c in floor}
    return "STONE" in mats and "METAL" in mats


@effect("tablet", offers=_tablet_offers)
def tablet(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Return the whole floor to the deck, or deal until the floor shows STONE and METAL.

    Returned floor cards go to the bottom in floor order, in everyone's sight (M-R32).
    Dealt cards are turned up: a barrier; an emptied deck ends the game (M-R2).
    """
    from arbiter.games.mottainai import actions

    if params["option"] == "return":
        cards = list(state.floor)
        state.floor.clear()
        for c in cards:
            om.bottom(state, c, PUBLIC)  # a Wutai card to the Wutai deck (M-R104)
        events.append(_fx(seat, work, "tablet-return", cards=cards))
        return
    dealt: list[str] = []
    while state.deck and not _shows_stone_and_metal(state.floor):
        top = actions.take_top(state)
        state.floor.append(top)
        dealt.append(top)
    # Cards turned up: a barrier; dealing nothing (the floor already shows both) is none.
    events.append(_fx(seat, work, "tablet-deal", bool(dealt), cards=dealt))
    actions.deck_check(state, seat)
