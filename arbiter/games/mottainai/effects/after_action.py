"""After an action (Cup, Deck Of Cards, Gong, Plane, Ring).

See ``registry`` for what each function receives: ``ctx["action"]`` is the action just
taken (``prayer``, ``clerk``, ``potter``, ``smith``, …) and ``ctx["work"]`` the work it
completed, if any.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import card
from arbiter.games.mottainai.effects.dispatch import identity
from arbiter.games.mottainai.effects.registry import effect
from arbiter.games.mottainai.state import PUBLIC, State

OTHER_WING = {"gallery": "gift_shop", "gift_shop": "gallery"}


def _fx(seat: str, work: str, fx: str, **data: Any) -> Event:
    return Event("fx", {"seat": seat, "card": work, "fx": fx, **data})


def _wing_of(state: State, seat: str, work: str) -> str:
    return "gallery" if work in state.players[seat].gallery else "gift_shop"


def _after_prayer(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    return [{}] if ctx.get("action") == "prayer" else []


@effect("cup", offers=_after_prayer)
def cup(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """After a PRAYER, return Cup: the game ends at once (then scoring, without Cup)."""
    from arbiter.games.mottainai import actions

    state.players[seat].wing(_wing_of(state, seat, work)).remove(work)
    state.deck.append(work)
    state.known[work] = PUBLIC
    events.append(_fx(seat, work, "cup"))
    raise actions.GameEnds("cup", seat=seat)


def _paper_smith(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    done = ctx.get("work")
    if ctx.get("action") != "smith" or done is None or not state.deck:
        return []
    return [{}] if card(identity(state, done)).material == "PAPER" else []


@effect("deck-of-cards", offers=_paper_smith)
def deck_of_cards(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """After a SMITH action that completed a PAPER work, draw a card (M-R34: after Poem too)."""
    from arbiter.games.mottainai import actions

    actions.draw(state, seat, 1, "deck of cards", events)


def _gong_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    return _after_prayer(state, seat, work, ctx) if state.deck else []


@effect("gong", offers=_gong_offers)
def gong(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """After a PRAYER, draw 3 cards; then Gong goes to your waiting area (M-R36).

    Everyone sees Gong go there: views list it until Night, and it stays in place when
    hidden cards are resampled (M-R38).
    """
    from arbiter.games.mottainai import actions

    actions.draw(state, seat, 3, "gong", events)
    p = state.players[seat]
    p.wing(_wing_of(state, seat, work)).remove(work)
    p.waiting.append(work)
    state.memo.setdefault("seen_waiting", {}).setdefault(seat, []).append(work)  # M-R38
    events.append(_fx(seat, work, "gong"))


def _plane_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    if ctx.get("action") != "potter":
        return []
    return [{"target": w} for w in state.players[seat].works()]


@effect("plane", offers=_plane_offers)
def plane(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """After a POTTER action, move one of your works to the other wing (M-R37: a 5th ends)."""
    from arbiter.games.mottainai import actions

    target = params["target"]
    p = state.players[seat]
    side = _wing_of(state, seat, target)
    p.wing(side).remove(target)
    p.wing(OTHER_WING[side]).append(target)
    events.append(_fx(seat, work, "plane", target=target, wing=OTHER_WING[side]))
    actions.end_checks(state, seat)


def _ring_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    if ctx.get("action") != "clerk":
        return []
    mine = len(state.players[seat].sales)
    out: list[dict[str, Any]] = []
    for o in state.opponents(seat):
        sales = state.players[o].sales
        if len(sales) > mine:
            out.extend({"target": c} for c in sales)
    return out


@effect("ring", offers=_ring_offers)
def ring(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """After a CLERK action, take a sale of an opponent who has more sales than you."""
    target = params["target"]
    owner = next(o for o in state.opponents(seat) if target in state.players[o].sales)
    from arbiter.games.mottainai import actions

    state.players[owner].sales.remove(target)
    actions.into_temple(state, seat, [target], "sales", work)  # M-R119
    events.append(_fx(seat, work, "ring", target=target, owner=owner))
