"""Mottainai and Wutai Mountain played with the real peer protocol (docs/peer-mottainai.md,
step 4.5): real keys, shuffles (two decks with Wutai), shares, face-down returns with
their proofs (each to a new place in its deck), facts about a hidden hand with proofs of
presence or absence, hands re-randomised deck by deck and shown in arrival order. Every
reader's view after every step, every seat's log and the public log are the referee's
game the decks decrypt to, and another machine fed the same messages agrees."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from helpers.peer_play import new_table, play, referee_check

from arbiter.core.errors import Tampered
from arbiter.core.peer import elgamal, group
from arbiter.core.rng import Rng
from arbiter.peer import reveal, wire

GAMES = [(2, 3, False), (3, 1, False), (3, 6, True), (2, 8, True)]


@pytest.mark.parametrize(("seats", "seed", "wutai"), GAMES)
def test_a_peer_game_of_mottainai_is_the_referee_game_its_decks_decrypt_to(
    seats: int, seed: int, wutai: bool
) -> None:
    table = play(new_table("mottainai", seats, seed, {"wutai": "yes"} if wutai else {}), seed)
    referee_check(table)
    game = table.game
    assert len(game.decks) == (2 if wutai else 1)
    returns = [m for m in table.messages if "returns" in m]
    assert returns and game.returned, "cards went back face down, each to a new place"
    for new, (_seat, old) in game.returned.items():
        deck, slot = game.locate(new)
        assert slot >= len(deck.points.cards) and game.locate(old)[0] is deck
    assert any("rerandomise" in m for m in table.messages)


def test_a_returned_card_is_not_opened_for_its_returner() -> None:
    """M-R125, docs/peer-mottainai.md §3.2: the returner's view lists the card it put back
    (it knows it); nobody sends a share of it for that, so when another seat draws it
    later, the shares then sent open it to that seat alone."""
    table = play(new_table("mottainai", 3, 2), 2)
    game = table.game
    referee_check(table)
    for new, (_seat, _) in game.returned.items():
        sharers = set(game.shares.get(new, {}))
        holder = game.held.get(new, (None,))[0]
        if holder is None:
            assert new in game.opened or not sharers, f"{new} was shared while in the deck"
        else:
            assert holder not in sharers or new in game.opened


def test_facts_ride_on_the_decisions_that_ask_them() -> None:
    """M-R126: a decision whose step asks whether the hand holds a card (Cloak, Figurine,
    Flag, Fountain, WICK) carries the answer with its proof of presence or absence; every
    machine checks it, and the table follows it as the referee's prompt does."""
    table = play(new_table("mottainai", 4, 4, {"wutai": "yes"}), 4)
    referee_check(table)
    facts = [f for m in table.messages for f in m.get("facts", [])]
    assert facts, "the game asked facts"
    assert {f["holds"] for f in facts} == {True, False}
    for fact in facts:
        assert fact["faces"] == sorted(set(fact["faces"])) and fact["cards"]


def test_puppet_passes_each_hand_with_a_proof() -> None:
    """M-R128: Puppet's two hands change seats as ciphertexts re-encrypted to the other
    seat's key, with proofs; the target passes its hand in the round after the step; each
    side then sees the cards in card order, as the referee shows them."""
    table = play(new_table("mottainai", 5, 5), 5)
    referee_check(table)
    game = table.game
    assert game.stats.rounds["passes"] >= 1
    passes = [(m["seat"], p) for m in table.messages for p in m.get("passes", [])]
    assert {seat for seat, _ in passes} >= {p.holder for p in game.passed}
    for moved in game.passed:
        hidden = [c for c in moved.cards if c.startswith("?")]
        assert sorted(moved.cipher) == sorted(hidden)
        for card in hidden:  # held by the recipient now, unless it left its hand since
            assert (
                game.held[card][0] == moved.to
                or card in game.opened
                or any(m.holder == moved.to and card in m.cards for m in game.passed)
            )


def test_every_returned_card_decrypts_to_the_card_its_seat_held() -> None:
    table = play(new_table("mottainai", 3, 1), 1)
    game = table.game
    secrets = {s: p.reveal() for s, p in table.players.items()}
    known = reveal.faces(reveal.orders(game, secrets))
    for new, (seat, old) in game.returned.items():
        a, b = game.held[old][1]
        deck, _ = game.locate(old)
        held = deck.points.card(group.sub(b, group.mul(secrets[seat], a)))
        assert known[new] == held


def test_a_card_everyone_saw_is_hidden_again_before_it_goes_back() -> None:
    """M-R127, docs/peer-mottainai.md §3.3: a card shown and kept in hand is known by id;
    before its holder returns it face down, the holder hides it again under a new place
    (its deck's start under its key, which anyone computes), mixed with its hidden cards,
    and the return names a place, never the card."""
    table = play(new_table("mottainai", 4, 10, {"wutai": "yes"}), 10)
    referee_check(table)
    concealing = [m for m in table.messages if "conceal" in m]
    assert concealing, "a seat hid a card again"
    for message in concealing:
        assert "rerandomise" in message  # mixed with the hand it hides among
        named = message["decision"]
        hidden = set(message["conceal"])
        assert not hidden & {v for v in named.values() if isinstance(v, str)}
        assert any(r["card"].startswith("?") for r in message["returns"])


def test_a_forged_pass_is_refused_and_changes_nothing() -> None:
    """M-R128: a hand passed with a card that is not the one held (the seat's own fresh
    encryption put in its place) is refused with its reason; the game is unchanged."""
    table = new_table("mottainai", 5, 5)
    message: dict[str, Any] = {}
    chooser = Rng(bytes([5]) * 32)
    for _ in range(5000):
        game = table.game
        seat = next(s for s in table.players if game.owed(s) is not None)
        message = table.players[seat].compose(lambda _s, _seat, legal: chooser.choice(legal))
        if message.get("passes"):
            break
        game.receive(message)
    assert message.get("passes"), "Puppet came up"
    forged = copy.deepcopy(message)
    item = forged["passes"][0]
    hidden = [c for c in item["cards"] if c.startswith("?")]
    assert hidden
    own = elgamal.encrypt(group.hash_to_point(b"x", b"z"), game.keys[item["to"]], group.from_int(3))
    item["cipher"][0] = [wire.hexed(own[0]), wire.hexed(own[1])]
    before = (game.round, len(game.history), dict(game.held))
    with pytest.raises(Tampered, match="passed card"):
        game.receive(forged)
    assert (game.round, len(game.history), dict(game.held)) == before
    game.receive(message)  # the honest one is taken


SEARCH_GAME = (
    "0,0,0,0,0,0,0,0,0,4,1,3,1,1,2,5,0,3,2,1,1,0,0,0,0,0,3,1,1,0,0,3,1,0,0,1,2,2,"
    "3,2,11,0,0,1,2,0,0,2,5,0,2,1,0,0,7,1,5,3,6,5,1,8,2,2,2,4,3,8,0,4,7,7,1,0,0,"
    "0,0,0,6,1,3,2,3,2,0,0,0,6,1,3,1,0,0,0,0,1,5,4,0,0,3,0,3,2,3,0,1,1,6,5,0,1,0,"
    "1,0,5,1,1,0,1,0,5,0,3,2,3,1,4,0,0,2,0,1,7,3,1,35,0,0,0,1,0,0,1,3,1,2,6,6,4,"
    "2,1,1,0,0,0,0,4,0,0,0,0,0,1,1,0,0,4,1,4,1,2,1,1,4,4,53,1,1,0,3,0,2,0,1,2,0,"
    "1,0,1,3,0,4,4,1,5,0,"
)
"""The choices (indices into each legal list) of a 5-seat Wutai game of
``benchmarks/peer_games.py --level search`` (seed 2, seeded secrets) up to the decision that
hides a card again and claims it: found by that benchmark, where composing it crashed."""


def test_a_card_hidden_again_may_be_claimed_in_the_same_decision() -> None:
    """M-R127, M-R129: a decision that returns a card everyone saw (here Cloak, by WICK)
    hides it under a new place of its deck and proves its type on that place in the same
    message. The new place has no slot until the decision is taken, so the seat finds its
    deck by name (``deck_of``), as the checking side does."""
    picks = [int(p) for p in SEARCH_GAME.strip(",").split(",")]
    table = new_table("mottainai", 5, 2, {"wutai": "yes"})
    fallback = Rng(bytes([2]) * 32)

    def choose(_state: Any, _seat: str, legal: list[Any]) -> Any:
        return legal[picks.pop(0)] if picks else fallback.choice(legal)

    claimed = []
    while not table.game.over:
        seat = next(s for s in table.players if table.game.owed(s) is not None)
        message = table.players[seat].compose(choose)
        table.messages.append(message)
        table.game.receive(message)
        if "conceal" in message and "claims" in message:
            claimed.append(message)
    assert claimed, "the game reached the decision"
    for message in claimed:
        new = {r["card"] for r in message["returns"]}
        assert {c["card"] for c in message["claims"]} <= new
        assert not set(message["conceal"]) & new
    referee_check(table)
