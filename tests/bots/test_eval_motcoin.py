"""Mot Coin's evaluation computes the profit itself (it runs hundreds of thousands of times
per searched game): it must agree with the final scoring's profit, and judge a bid by
the auction it settles."""

from __future__ import annotations

from botkit import positions

from arbiter.bots import eval_motcoin
from arbiter.games.motcoin import scoring


def test_the_profit_is_the_final_scorings() -> None:
    compared = 0
    for _engine, state, _seat in positions("motcoin", games=6, every=2, tag="profit"):
        numbers = eval_motcoin._numbers(state.cards)
        gap = scoring.rise_gap(len(state.seats))
        for player in state.players.values():
            expected = scoring.score_player(state.cards, player, gap)["breakdown"]["profit"]
            assert eval_motcoin.profit(numbers, player, gap) == expected
            compared += 1
    assert compared >= 300


def test_the_estimate_settles_the_open_auction_without_touching_the_state() -> None:
    settled = 0
    for engine, state, _seat in positions("motcoin", games=3, every=3, tag="settle"):
        if state.auction is None or state.auction.high_seat is None:
            continue
        before = engine.encode(state)
        worth = eval_motcoin.estimate(engine, state)
        assert engine.encode(state) == before
        after = eval_motcoin.settle(engine, state)
        # The high bidder now holds the card it bid for, with its bid's dice on it.
        holder = after.players[state.auction.high_seat]
        assert state.auction.card in [h.card for h in holder.holdings]
        assert set(worth) == set(state.seats)
        settled += 1
    assert settled >= 5
