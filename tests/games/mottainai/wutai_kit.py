"""Exact Wutai Mountain tables for the rules cases (``test_wutai_*.py``)."""

from __future__ import annotations

from typing import Any

from arbiter.games.mottainai import flow, wutai
from arbiter.games.mottainai.actions import GameEnds
from arbiter.games.mottainai.cards import deck_ids
from arbiter.games.mottainai.state import ZONES, Player, State


def wbuild(
    mot: Any,
    seats: list[str] | None = None,
    *,
    current: str | None = None,
    deck: list[str] | None = None,
    wdeck: list[str] | None = None,
    floor: list[str] | None = None,
    om: dict[str, dict[str, list[str]]] | None = None,
    draws: str = "prayer",
    works_end: bool = True,
    leave: str = "return",
    table: str = wutai.BUILTIN,
    **zones: dict[str, Any],
) -> State:
    """Return an exact Wutai table at the start of ``current``'s turn (its Morning runs).

    As ``mot.build``: ``zones`` maps a zone to {seat: cards}; base cards not placed go
    below ``deck``, Wutai cards not placed below ``wdeck``. ``om`` maps an Om work to its
    tucked cards by edge.
    """
    seats = list(seats or mot.SEATS2)
    decks = 2 if len(seats) >= 4 else 1
    key = wutai.register(table)
    wutai.ensure(key)
    players = {s: Player() for s in seats}
    placed: list[str] = list(deck or []) + list(wdeck or []) + list(floor or [])
    for zone, per_seat in zones.items():
        assert zone in (*ZONES, "task"), zone
        for seat, cards in per_seat.items():
            if zone == "task":
                players[seat].task = cards
                placed.append(cards)
            else:
                setattr(players[seat], zone, list(cards))
                placed += list(cards)
    tucked = {
        w: {e: list(under.get(e, [])) for e in wutai.EDGES} for w, under in (om or {}).items()
    }
    for under in tucked.values():
        for cards in under.values():
            placed += cards
    state = State(
        seats=seats,
        decks=decks,
        extended=False,
        teams=False,
        players=players,
        deck=list(deck or []) + [c for c in deck_ids(decks) if c not in placed],
        floor=list(floor or []),
        start=seats[0],
        current=current or seats[0],
        wutai={
            "table": key,
            "deck": list(wdeck or []) + [c for c in wutai.om_ids(key) if c not in placed],
            "om": tucked,
            "draws": draws,
            "works_end": works_end,
            "leave": leave,
        },
    )
    mot.events = []
    try:
        flow.advance(state, mot.events)
    except GameEnds as end:
        flow.finish(state, end, mot.events)
    mot.engine.invariants(state)
    return state


def wick_table(mot: Any) -> Any:
    """alice's turn with WICK in play, Fan (PAPER) tucked under it as an Om helper (so a
    PAPER card is of its type), Doll (PAPER) and Kite in hand; her PRAYER draws om-20, then
    WICK's Night trigger comes."""
    return wbuild(
        mot,
        wdeck=["om-20"],
        deck=["bell", "vase", "jar"],
        hand={"alice": ["doll", "kite"]},
        gallery={"alice": ["wick"]},
        om={"wick": {"helpers": ["fan"]}},
    )


def tuck(card: str, edge: str) -> dict[str, Any]:
    return {"kind": "tuck", "card": card, "edge": edge}


def use(card: str, **params: Any) -> dict[str, Any]:
    return {"kind": "use", "card": card, **params}
