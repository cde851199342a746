"""What each seat may know, the resampling of what it may not, and the invariants.

Public: the garden, the discard pile, acorns, objectives, landscapes, the top card of
every pile, hand sizes and the hand cards everyone saw arrive. Private: the rest of a
hand (its owner). Hidden from everyone: the deck's order and contents (its size is
public), the size of every pile and the cards buried in it (rules: nobody, owner
included, may look through or count a pile).
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

from arbiter.core.hidden import is_hidden
from arbiter.core.rng import Rng
from arbiter.games.momiji import zones
from arbiter.games.momiji.data import TOP
from arbiter.games.momiji.state import State, copy_state


def view(state: State, seat: str | None) -> dict[str, Any]:
    """Return what ``seat`` may know (``None``: a spectator)."""
    cards = state.cards
    t = state.turn
    players = {}
    for other, p in state.players.items():
        players[other] = {
            "hand": zones.in_hand_order(state, p.hand) if other == seat else None,
            "hand_size": len(p.hand),
            "known": list(p.known),
            "acorns": p.acorns,
            "piles": [{"type": q.type, "top": q.top, "closed": q.closed(cards)} for q in p.piles],
            "landscapes": [{"id": x, "used": x in p.used} for x in p.landscapes],
            "objectives": list(p.objectives),
        }
    ids = [x for p in state.players.values() for x in p.landscapes]
    tokens = list(state.centre) + [o for p in state.players.values() for o in p.objectives]
    return {
        "game": "momiji",
        "viewer": seat,
        "seats": list(state.seats),
        "types": list(state.types),
        "turn": {
            "seat": t.seat,
            "number": t.number,
            "phase": t.phase,
            "revealed": t.revealed,
            "discarded": t.discarded,
            "powered": t.powered,
            "limit": t.limit,
        },
        "deck": len(state.deck),
        "garden": zones.in_hand_order(state, state.garden),
        "discard": list(state.discard),
        "objectives": zones.in_pool_order(state, state.centre),
        "torii": {"closed": state.closed_piles(), "limit": state.torii_limit},
        "players": players,
        # A peer game's deal shows placeholders until it opens them (docs/peer.md §3.3).
        "landscapes": {
            x: _public(cards.landscapes[x], ("name", "set", "power", "text"))
            for x in ids
            if not is_hidden(x)
        },
        "objective_texts": {
            o: _public(cards.objectives[o], ("name", "measure", "text"))
            for o in sorted(tokens)
            if not is_hidden(o)
        },
        "ended": state.ended,
        "result": state.result,
    }


def _public(row: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: row[k] for k in keys}


def resample(state: State, seat: str, rng: Rng) -> State:
    """Return a copy with everything ``seat`` cannot see redrawn consistently.

    Redrawn: the deck (order and contents), the unknown part of the other hands, and the
    buried cards that never showed on top, in every pile (the seat's own included). Kept:
    sizes, top cards, cards once on top, and hand cards everyone saw arrive.
    """
    out = copy_state(state)
    cards = out.cards.cards
    pool = list(out.deck)
    for other in out.seats:
        if other != seat:
            pool += _unknown(out.players[other].hand, out.players[other].known)
    for player in out.players.values():
        for pile in player.piles:
            for i, shown in enumerate(pile.shown):
                if shown:
                    continue
                # Swap with an unseen card of the same type that keeps the pile rule.
                pool.append(pile.cards[i])
                below = cards[pile.cards[i - 1]].value if i else None
                above = cards[pile.cards[i + 1]].value
                kind = cards[pile.cards[i]].type
                fits = [
                    j
                    for j, code in enumerate(pool)
                    if cards[code].type == kind
                    and cards[code].value < TOP
                    and zones.steps_onto(below, cards[code].value)
                    and zones.steps_onto(cards[code].value, above)
                ]
                pile.cards[i] = pool.pop(rng.choice(fits))
    rng.shuffle(pool)
    for other in out.seats:
        if other == seat:
            continue
        player = out.players[other]
        k = len(player.hand) - len(player.known)
        player.hand = out.cards.sort(player.known + pool[:k])
        del pool[:k]
    out.deck = pool
    return out


def _unknown(hand: list[str], known: list[str]) -> list[str]:
    rest = list(hand)
    for code in known:
        rest.remove(code)
    return rest


def check_invariants(state: State) -> None:
    """Assert card conservation, the pile rule, known ⊆ hand and sane counters."""
    cards = state.cards
    places = list(state.deck) + state.garden + state.discard
    for seat, p in state.players.items():
        places += p.hand + [c for q in p.piles for c in q.cards]
        assert p.acorns >= 0, f"{seat} has {p.acorns} acorns"
        assert zones.holds(p.hand, p.known), f"{seat} knows cards it does not hold"
        assert set(p.used) <= set(p.landscapes), f"{seat} used a landscape it lacks"
        kinds = [q.type for q in p.piles]
        assert len(set(kinds)) == len(kinds), f"{seat} has two piles of one type"
        for q in p.piles:
            values = [cards.cards[c].value for c in q.cards]
            assert values and values[0] == 0, f"{seat}'s {q.type} pile does not start with a 0"
            assert all(b >= a for a, b in pairwise(values)), q
            assert TOP not in values[:-1], f"{seat}'s {q.type} pile goes on after a 3"
            assert all(cards.cards[c].type == q.type for c in q.cards), q
            assert len(q.shown) == len(q.cards) and q.shown[-1], q
    assert Counter(places) == Counter(cards.deck(state.types)), "cards are missing or duplicated"
    owned = [o for p in state.players.values() for o in p.objectives]
    assert len(set(owned + state.centre)) == len(owned) + len(state.centre)
