"""The leak probe of peer games (issue 29, item 7): what each seat can compute from its
own transcript — every message, plus its own secret — after every step of whole games.

A seat can open a card when it holds the shares of every other seat: so its knowledge is
every placeholder whose other shares are all public. The probe checks that this is
exactly the cards opened to everyone and the cards it holds itself (its hand, its cards
buried at once), never a card of another seat or of the deck; that no seat's share of a
card it holds hidden was ever published; and that its view, computed from that knowledge,
is the referee's (``test_peer_protocol``). The resample test of referee games judges
views; this judges the transcript."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.peer_play import doubles, new_table, play

from arbiter.peer.protocol import PeerGame

GAMES = [("motcoin", 3, 1), ("momiji", 3, 4), ("momiji", 4, 5), ("momiji", 2, 9)]
GAMES += [("mottainai", 3, 2), ("mottainai", 5, 5), ("mottainai-wutai", 4, 10)]
"""Mottainai's: returns, facts and re-concealment (3 seats), Puppet's passes (5 seats, seed
5), Wutai's second deck with cards hidden again (4 seats, seed 10)."""


def computable(game: PeerGame, seat: str) -> set[str]:
    """The placeholders ``seat`` can open from the messages and its own secret."""
    out = set(game.opened)
    for card, shares in game.shares.items():
        # A card held by another seat opens with that seat's share alone (then it is in
        # ``opened``); any other, with every seat's, so this seat needs all the others'.
        owners = game.owners(card)
        if seat in owners and all(s in shares for s in owners if s != seat):
            out.add(card)
    out |= {card for card, (holder, _) in game.held.items() if holder == seat}
    return out


def probe(game: PeerGame) -> list[str]:
    """What any seat could compute beyond what it may know, now."""
    found = []
    for seat in game.seats:
        mine = {card for card, (holder, _) in game.held.items() if holder == seat}
        extra = computable(game, seat) - set(game.opened) - mine
        if extra:
            found.append(f"{seat} can open {sorted(extra)[:3]}")
        for card in mine - set(game.opened):
            if seat in game.shares.get(card, {}) and game.held[card][0] == seat:
                found.append(f"{seat}'s own share of its hidden {card} was published")
    return found


@pytest.mark.parametrize(("name", "seats", "seed"), GAMES)
def test_no_seat_can_open_more_than_it_may_know(name: str, seats: int, seed: int) -> None:
    wutai = name == "mottainai-wutai"
    table = new_table(
        "mottainai" if wutai else name, seats, seed, {"wutai": "yes"} if wutai else {}
    )
    seen: list[Any] = []
    table.game.on_settle.append(lambda: seen.append(probe(table.game)))
    choose = doubles(seed) if name == "momiji" else None
    play(table, seed, choose=choose)
    assert seen and table.game.over
    assert [found for found in seen if found] == []


def test_the_probe_sees_a_leak() -> None:
    """A share published where it must not be is caught: a holder's own share of a card
    it holds hidden, and every share but one seat's of a card of the deck."""
    table = play(new_table("momiji", 3, 4), 4, until=lambda t, _s: len(t.game.history) > 20)
    game = table.game
    assert probe(game) == []
    held, (holder, _) = next((c, h) for c, h in game.held.items() if c not in game.opened)
    game.shares.setdefault(held, {})[holder] = b"\x00" * 32
    assert any(f"{holder}'s own share of its hidden {held}" in line for line in probe(game))
    del game.shares[held][holder]
    placed = {c for c in game.shares} | set(game.held) | set(game.opened)
    deck = next(f"?d0.{i}" for i in range(70) if f"?d0.{i}" not in placed)
    game.shares[deck] = {"s0": b"\x00" * 32, "s1": b"\x00" * 32}
    assert any(line.startswith("s2 can open") and deck in line for line in probe(game))
