"""Mot Coin rules cases for deadlines: the default decision (MC-R14) and a game scored
before its end (MC-R15). Neither adds a rule to normal play.

The generic checks (legal at every prompt, blind to the draw pile, equal to the outcome
at the end) run for every engine in tests/games/test_timeout_defaults.py.
"""

from __future__ import annotations

from arbiter.core.errors import IllegalAction
from arbiter.games.motcoin import scoring


def test_MC_R14_1_a_bid_defaults_to_pass(mc):
    """MC-R14.1: at a bid the default is a pass, with dice to spare and a bid to beat;
    the pass is final for the card and the next seat decides."""
    state = mc.build(draw=["7", "8"], auction="20")
    mc.play(state, "alice", mc.bid(2))
    assert mc.engine.default_action(state, "bob") == mc.PASS
    mc.play(state, "bob", mc.engine.default_action(state, "bob"))
    assert state.auction.passed == ["bob"] and mc.turn(state) == "carol"


def test_MC_R14_2_everyone_timing_out_is_everyone_passing(mc):
    """MC-R14.2 (with MC-R4): three defaults in a row are three passes: the card leaves
    the game and every player applies -1."""
    state = mc.build(draw=["7", "8"], auction="20")
    for seat in ("alice", "bob", "carol"):
        mc.play(state, seat, mc.engine.default_action(state, seat))
    assert "20" in state.removed and state.auction.card == "7"


def test_MC_R14_3_remove_one_die_defaults_to_the_first_card_listed(mc):
    """MC-R14.3 (with MC-R5): a die must come back; the default takes it from the first
    card the prompt lists (holdings in the order the seat got them, Stable Coin first)."""
    state = mc.build(
        draw=["9", "10"],
        auction="8",
        cards={"bob": [("S2", [4, 2]), ("6", [5, 2])], "carol": [("7", [1]), ("S3", [3, 1])]},
    )
    mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert mc.engine.prompt(state).detail["cards"] == ["S2", "6"]
    assert mc.engine.default_action(state, "bob") == mc.remove("S2")
    mc.play(state, "bob", mc.engine.default_action(state, "bob"))
    assert mc.dice(state, "bob", "S2") == [4] and mc.dice(state, "bob", "6") == [5, 2]
    assert mc.engine.default_action(state, "carol") == mc.remove("7")


def test_MC_R14_4_only_the_seat_that_decides_has_a_default(mc):
    """MC-R14.4 (rules 4.2): only the seat the prompt names has a default decision."""
    state = mc.build(draw=["7", "8"], auction="20")
    for seat in ("bob", "carol"):
        try:
            mc.engine.default_action(state, seat)
        except IllegalAction as exc:
            assert exc.rule == "4.2" and "alice" in str(exc)
        else:
            raise AssertionError(f"{seat} got a default out of turn")


def test_MC_R15_1_early_end_scores_the_table_not_the_auction(mc):
    """MC-R15.1 (rules 5 and 6): a game ended now scores the cards and dice on the table
    as the final scoring does; the card on auction is nobody's and bid dice still count as
    available."""
    cards = {"alice": [("S1", [4, 3, 2]), ("12", [6, 5])], "bob": [("S2", [4, 3, 2]), ("6", [1])]}
    state = mc.build(draw=["7", "8"], auction="20", cards=cards)
    mc.play(state, "alice", mc.bid(3, 3))
    provisional = mc.engine.provisional_outcome(state)
    final = scoring.score(state)
    assert provisional.scores == final["scores"]
    assert provisional.ranking == final["ranking"]
    alice = provisional.breakdown["alice"]
    assert alice["motcoins"] == 1 and alice["dice_left"] == 9 - 5
    assert state.auction is not None and state.auction.high_seat == "alice"  # untouched


def test_MC_R15_2_at_the_start_everyone_ties(mc):
    """MC-R15.2: right after setup every seat holds only its Stable Coin with 4, 3, 2:
    worth nothing without a Mot Coin, the same crash for all: one shared place."""
    state, _ = mc.new_game()
    provisional = mc.engine.provisional_outcome(state)
    assert len(set(provisional.scores.values())) == 1
    assert provisional.ranking == [["alice", "bob", "carol"]]
    assert all(b["profit"] == 0 and b["losses"] > 0 for b in provisional.breakdown.values())
