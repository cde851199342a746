"""The course of a game: setup, the actions of a turn, the end of a turn, the end.

Every function mutates the state in place and appends the events it causes. Decisions
arrive here checked (``rules.check``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from typing import Any

from arbiter.core.engine import Event, Prompt
from arbiter.core.rng import Rng
from arbiter.games.momiji import scoring, zones
from arbiter.games.momiji.data import catalog
from arbiter.games.momiji.powers import POWERS
from arbiter.games.momiji.state import (
    AFTER,
    GARDEN,
    HAND,
    HAND_LIMIT,
    LIMIT,
    MAIN,
    OBJECTIVE_COST,
    REVEAL,
    Player,
    State,
    Turn,
)

FIXED, RANDOM = "fixed", "random"
"""Landscape options: the first-game panoramas, or one random landscape of each set."""


def setup(
    data: dict[str, Any] | str, landscapes: str, seats: list[str], rng: Rng
) -> tuple[State, list[Event]]:
    """Build the deck of players + 2 types, deal hands, landscapes, objectives, the garden."""
    cards = catalog(data)
    n = len(seats)
    types = cards.types[: n + 2]  # MOM-R2: the first players + 2 types of the data.
    deck = cards.deck(types)
    rng.shuffle(deck)
    # Hands keep their cards in dealt order (sorted only when shown, ``zones.give``).
    hands = [deck[i * HAND : (i + 1) * HAND] for i in range(n)]
    del deck[: n * HAND]
    if landscapes == FIXED:
        panoramas = [list(p) for p in cards.panoramas[:n]]
    else:
        # MOM-R8: instead of the draft, each player gets one random landscape of each set.
        panoramas = [[] for _ in seats]
        for name in "ABC":
            ids = [i for i, row in cards.landscapes.items() if row["set"] == name]
            rng.shuffle(ids)
            for i in range(n):
                panoramas[i].append(ids[i])
    pool = cards.objective_ids(types)
    drawn = list(pool)
    rng.shuffle(drawn)
    # The setup reads no face it draws: in a peer game the objectives, random landscapes
    # and garden are placeholders that the views show everyone, so the deal opens them
    # and the hands in one round (docs/peer.md §3.3). Readers see the objectives in data
    # order (``zones.in_pool_order``).
    centre = drawn[: n + 2]
    players = {
        seat: Player(hands[i], cards.starting_acorns, panoramas[i]) for i, seat in enumerate(seats)
    }
    state = State(list(seats), data, types, players, Turn(seats[0]), deck=deck, centre=centre)
    zones.reveal(state, GARDEN)
    setup_data = {
        "seats": list(seats),
        "types": list(types),
        "deck": len(state.deck),
        "garden": list(state.garden),
        "acorns": cards.starting_acorns,
        "objectives": list(centre),
        "landscapes": {s: list(players[s].landscapes) for s in seats},
        "torii_limit": state.torii_limit,
        "data": data,
    }
    """Ids only: the narration looks their names up in ``data`` once they are known."""
    events = [Event("setup", setup_data)]
    # ``types`` lets the narration list a dealt hand in hand order (narrate.py).
    deals = [{"seat": s, "cards": list(players[s].hand), "types": list(types)} for s in seats]
    events += [Event("deal", d) for d in deals]
    events.append(Event("turn", {"seat": seats[0], "number": 1}))
    return state, events


def _objective(state: State, objective: str) -> dict[str, str]:
    row = state.cards.objectives[objective]
    return {"id": objective, "name": row["name"], "text": row["text"]}


def _landscape(state: State, landscape: str) -> dict[str, str]:
    row = state.cards.landscapes[landscape]
    keys = ("name", "set", "power", "text")
    return {"id": landscape, **{k: row[k] for k in keys}}


def prompt(state: State) -> Prompt | None:
    """Return who decides now and at which point of the turn (all public)."""
    if state.over:
        return None
    t = state.turn
    if t.phase == LIMIT:
        excess = len(state.players[t.seat].hand) - t.limit
        return _limit_prompt(t.seat, t.limit, excess)
    return _turn_prompt(t.seat, t.phase, t.number, t.discarded, t.powered, t.revealed)


# A prompt is a frozen value asked for at every decision (by the referee, ``check`` and
# the views): each distinct one is built once and shared; its detail is read-only.
@lru_cache(maxsize=4096, typed=True)
def _limit_prompt(seat: str, limit: int, excess: int) -> Prompt:
    hint = f"discard {excess} more card(s) down to the hand limit of {limit}"
    return Prompt(seat, "hand-limit", {"limit": limit, "excess": excess, "hint": hint})


@lru_cache(maxsize=4096, typed=True)
def _turn_prompt(
    seat: str, phase: str, number: int, discarded: bool, powered: bool, revealed: bool
) -> Prompt:
    if phase == MAIN:
        hint = "collect a type, play cards or activate an objective (minor actions allowed)"
        if revealed:
            hint = "collect one type from the garden (you paid to reveal)"
    else:
        hint = "use a minor action or end your turn"
    detail = {"phase": phase, "turn": number, "discarded": discarded}
    detail.update({"powered": powered, "hint": hint})
    return Prompt(seat, "turn", detail)


def apply(state: State, seat: str, action: dict[str, Any]) -> list[Event]:
    """Apply one checked decision of the seat whose turn it is."""
    events: list[Event] = []
    kind = action["kind"]
    if kind == "collect":
        collect(state, seat, action["type"], events)
    elif kind == "reveal":
        state.players[seat].acorns -= 1
        state.turn.revealed = True
        shown = zones.reveal(state, REVEAL)
        data = {"seat": seat, "cards": shown, "deck": len(state.deck), "paid": True}
        events.append(Event("reveal", data, barrier=True))
    elif kind == "play":
        play(state, seat, list(action["cards"]), action.get("at"), events)
    elif kind == "activate":
        activate(state, seat, action["objective"], events)
    elif kind == "discard":
        discard(state, seat, list(action["cards"]), events)
    elif kind == "power":
        power(state, seat, action, events)
    elif kind == "end":
        end_turn(state, events)
    else:
        trim(state, seat, action["card"], events)
    return events


# -- main actions ---------------------------------------------------------------------------


def collect(state: State, seat: str, kind: str, events: list[Event]) -> None:
    """Rules: take every garden card of one type into your hand."""
    cards = state.cards.cards
    taken = state.cards.sort([c for c in state.garden if cards[c].type == kind])
    state.garden = [c for c in state.garden if cards[c].type != kind]
    zones.give(state, seat, taken, public=True)
    events.append(Event("collect", {"seat": seat, "type": kind, "cards": taken}))
    zones.refill(state, events)
    after_main(state, events)


def play(
    state: State, seat: str, codes: list[str], at: list[int] | None, events: list[Event]
) -> None:
    """Rules: put 1-2 cards of one type, or one card of each of 2+ types, onto piles.

    New piles go where ``at`` says, else to the right end in card order (MOM-R5).
    """
    zones.take(state, seat, codes)
    kinds = zones.play_types(state, codes)
    single = len(set(kinds)) == 1
    piles: list[dict[str, Any]] = []
    for i, (code, kind) in enumerate(zip(codes, kinds, strict=True)):
        # The first of two same-type cards is buried at once: nobody sees it on top (in a
        # peer game it stays hidden, MOM-R21).
        shown = not single or i == len(codes) - 1
        new, closed = zones.place(state, seat, code, kind, shown)
        if piles and piles[-1]["type"] == kind:
            piles[-1].update(count=2, top=code, closed=closed)
        else:
            piles.append({"type": kind, "count": 1, "top": code, "new": new, "closed": closed})
    if at is not None:
        started = [p for p in piles if p["new"]]
        zones.arrange(state, seat, [p["type"] for p in started], at)
        for pile, position in zip(started, at, strict=True):
            pile["at"] = position
    events.append(Event("play", {"seat": seat, "piles": piles}))
    if not single:
        bonus(state, seat, events)
    after_main(state, events)


def bonus(state: State, seat: str, events: list[Event]) -> None:
    """Rules: after a play of 2+ types, each pair of neighbouring top cards in the row whose
    touching corners both show an acorn gives 2 acorns (MOM-R10: every pair in the row,
    not only those the play touched)."""
    cards = state.cards.cards
    row = state.players[seat].piles
    pairs = []
    for left, right in pairwise(row):
        if cards[left.top].right and cards[right.top].left:
            pairs.append([left.type, right.type])
    if pairs:
        state.players[seat].acorns += 2 * len(pairs)
        events.append(Event("bonus", {"seat": seat, "pairs": pairs, "acorns": 2 * len(pairs)}))


def activate(state: State, seat: str, objective: str, events: list[Event]) -> None:
    """Rules: pay 3 acorns and take an objective token into your area."""
    player = state.players[seat]
    player.acorns -= OBJECTIVE_COST
    state.centre.remove(objective)
    player.objectives.append(objective)
    events.append(Event("activate", {"seat": seat, **_objective(state, objective)}))
    after_main(state, events)


# -- minor actions --------------------------------------------------------------------------


def discard(state: State, seat: str, codes: list[str], events: list[Event]) -> None:
    """Rules: once per turn, discard two cards for an acorn."""
    zones.take(state, seat, codes)
    state.discard += codes
    state.players[seat].acorns += 1
    state.turn.discarded = True
    events.append(Event("discard", {"seat": seat, "cards": codes}))
    auto_end(state, events)


def power(state: State, seat: str, action: dict[str, Any], events: list[Event]) -> None:
    """Rules: once per turn, pay an acorn to use a landscape's power (once per game)."""
    player = state.players[seat]
    landscape = action["landscape"]
    player.acorns -= 1
    player.used.append(landscape)
    state.turn.powered = True
    row = state.cards.landscapes[landscape]
    events.append(Event("power", {"seat": seat, **_landscape(state, landscape)}))
    params = {k: v for k, v in action.items() if k not in ("kind", "landscape")}
    POWERS[row["power"]].apply(state, seat, params, events)
    auto_end(state, events)


# -- the end of a turn and of the game -------------------------------------------------------


def after_main(state: State, events: list[Event]) -> None:
    state.turn.phase = AFTER
    auto_end(state, events)


def minor_left(state: State) -> bool:
    """Return whether a minor action may still be possible (public facts only)."""
    t = state.turn
    player = state.players[t.seat]
    discard_left = not t.discarded and len(player.hand) >= 2
    power_left = not t.powered and player.acorns >= 1 and len(player.used) < len(player.landscapes)
    return discard_left or power_left


def auto_end(state: State, events: list[Event]) -> None:
    """End the turn at once after the main action when no minor action is left."""
    if state.turn.phase == AFTER and not minor_left(state):
        end_turn(state, events)


def end_turn(state: State, events: list[Event]) -> None:
    """Rules: the hand limit applies at the end of the turn; then the next player."""
    t = state.turn
    hand = len(state.players[t.seat].hand)
    if hand > t.limit:
        t.phase = LIMIT
        events.append(Event("over-limit", {"seat": t.seat, "hand": hand, "limit": t.limit}))
        return
    finish_turn(state, events)


def trim(state: State, seat: str, code: str, events: list[Event]) -> None:
    """Discard one card for the hand limit (face up, MOM-R6)."""
    zones.take(state, seat, [code])
    state.discard.append(code)
    hand = len(state.players[seat].hand)
    events.append(Event("trim", {"seat": seat, "card": code, "hand": hand}))
    if hand <= state.turn.limit:
        finish_turn(state, events)


def finish_turn(state: State, events: list[Event]) -> None:
    """MOM-R7: the game ends after the turn in which the deck ran out or the torii limit
    was reached; otherwise the next player clockwise takes a turn."""
    if not state.deck:
        end_game(state, "deck", events)
        return
    if state.closed_piles() >= state.torii_limit:
        end_game(state, "torii", events)
        return
    seat = state.next_seat(state.turn.seat)
    state.turn = Turn(seat, number=state.turn.number + 1, limit=HAND_LIMIT)
    events.append(Event("turn", {"seat": seat, "number": state.turn.number}))


def end_game(state: State, reason: str, events: list[Event]) -> None:
    """Score the game; the scoring reveals the piles, so the end is a barrier."""
    state.ended = reason
    result = scoring.score(state)
    state.result = result
    data = {"reason": reason, "closed": state.closed_piles(), "limit": state.torii_limit}
    events.append(Event("end", data, barrier=True))
    for seat in state.seats:
        events.append(Event("score", {"seat": seat, **result["seats"][seat]}))
    for entry in result["objectives"]:
        events.append(Event("objective", entry))
    events.append(Event("result", {k: result[k] for k in ("scores", "ranking", "tiebreak")}))
