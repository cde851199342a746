"""Setup (rules: Setup): hands, face-down tasks, the floor and the start player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.core.engine import Event
from arbiter.core.errors import UsageError
from arbiter.core.hidden import faces
from arbiter.core.rng import Rng
from arbiter.games.mottainai import flow, wutai
from arbiter.games.mottainai.actions import GameEnds
from arbiter.games.mottainai.cards import card, deck_ids
from arbiter.games.mottainai.state import HAND_LIMIT, Player, State


def setup(options: Mapping[str, Any], seats: list[str], rng: Rng) -> tuple[State, list[Event]]:
    """Shuffle, deal five cards, a face-down task and a floor card each; start the game."""
    if not 2 <= len(seats) <= 5:
        raise UsageError(f"Mottainai seats 2 to 5 players, not {len(seats)}")
    teams = bool(options.get("teams", False))
    if teams and len(seats) != 4:
        raise UsageError("team play needs exactly 4 players (partners sit across)")
    # Rules: Cards: one deck for 2-3 players, both decks shuffled together for 4-5 (M-R20).
    decks = 2 if len(seats) >= 4 else 1
    deck = deck_ids(decks)
    rng.shuffle(deck)
    players = {seat: Player() for seat in seats}
    # Wutai (M-R101): 4 base cards and 1 Wutai card each; every other step uses the base deck.
    base_hand = HAND_LIMIT - 1 if options.get("wutai") else HAND_LIMIT
    for seat in seats:
        players[seat].hand = deck[:base_hand]
        del deck[:base_hand]
    table = None
    if options.get("wutai"):
        table = wutai_setup(options, seats, players, rng)
    for seat in seats:
        players[seat].task = deck.pop(0)
        players[seat].face_down = True  # Rules: Setup: a face-down task in every temple.
    floor = [deck.pop(0) for _ in seats]
    start = start_player(seats, floor)
    state = State(
        seats=list(seats),
        decks=decks,
        extended=bool(options.get("extended", False)),
        teams=teams,
        players=players,
        deck=deck,
        floor=floor,
        start=start,
        current=start,
        wutai=table,
    )
    data = {
        "seats": list(seats),
        "decks": decks,
        "extended": state.extended,
        "teams": teams,
        "floor": {seat: floor[i] for i, seat in enumerate(seats)},
        "start": start,
        "deck": len(deck),
    }
    if table is not None:
        data["wutai"] = wutai.setup_summary(table)
    events = [Event("setup", data)]
    events += [Event("deal", {"seat": s, "cards": list(players[s].hand)}) for s in seats]
    events.append(Event("turn", {"seat": start, "turn": 1}))
    try:
        flow.advance(state, events)
    except GameEnds as end:  # pragma: no cover - nothing at setup can end the game
        flow.finish(state, end, events)
    return state, events


def wutai_setup(
    options: Mapping[str, Any], seats: list[str], players: dict[str, Player], rng: Rng
) -> dict[str, Any]:
    """Shuffle the one Wutai deck (whatever the player count) and deal one card each."""
    key = wutai.register(options.get("wutai_cards", wutai.BUILTIN))
    wutai.ensure(key)
    om_deck = wutai.om_ids(key)
    rng.shuffle(om_deck)
    for seat in seats:
        players[seat].hand.append(om_deck.pop(0))
    return {
        "table": key,
        "deck": om_deck,
        "om": {},
        "draws": options.get("wutai_draws", "prayer"),
        "works_end": bool(options.get("om_works_end", True)),
        "leave": options.get("om_leave", "return"),
    }


def start_player(seats: list[str], floor: list[str]) -> str:
    """Rules: Setup: the floor card first in alphabetical order starts; ties: seat order (M-R10)."""
    faces(floor)  # a peer game opens the whole floor at once: one round, not one per card
    best = min(range(len(seats)), key=lambda i: (card(floor[i]).name.casefold(), i))
    return seats[best]
