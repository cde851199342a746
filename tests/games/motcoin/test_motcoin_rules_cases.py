"""Mot Coin rules cases MC-3 … MC-7 (setup, auctions, fluctuation, rounds, the end).

Each case cites the rules section (motcoin-rules.en.txt) or ruling (docs/rulings/motcoin.md).
Scoring cases (rules 5 and 6) are in test_scoring_cases.py.
"""

from __future__ import annotations

import json

import pytest

from arbiter.core.errors import SchemaViolation, UsageError
from arbiter.games.motcoin import cards, moves


def kinds(events):
    return [e.kind for e in events]


# -- 3. Setup ------------------------------------------------------------------------------


def test_MC_3_1_dice_and_stable_coins_by_player_count(mc):
    """MC-3.1 (rules 3): 9/8/7 dice; a Stable Coin each holding 4, 3, 2."""
    for seats, dice in ((None, 9), (mc.SEATS4, 8), (mc.SEATS5, 7)):
        state, events = mc.new_game(seats)
        for i, seat in enumerate(state.seats):
            player = state.players[seat]
            assert [(h.card, h.dice) for h in player.holdings] == [(f"S{i + 1}", [4, 3, 2])]
            assert player.available == dice - 3
        assert len(state.stable_supply) == 7 - len(state.seats)
        assert kinds(events)[:2] == ["setup", "reveal"]


def test_MC_3_2_first_player_is_first_seat(mc):
    """MC-3.2 (rules 3, ruling MC-R8): the first seat is first player and bids first."""
    state, _ = mc.new_game()
    assert state.first == "alice"
    assert mc.turn(state) == "alice"


# -- 4.1 Determine the card to auction ----------------------------------------------------------


def test_MC_4_1_1_round_one_auctions_the_lower_of_two(mc):
    """MC-4.1.1 (rules 4.1, printed example): No.2 and No.15 revealed: No.2 is auctioned."""
    state = mc.build(draw=["15", "2", "7", "8"], auction="6")
    events = mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.barrier and reveal.data["card"] == "2" and reveal.data["discarded"] == "15"
    assert state.auction is not None and state.auction.card == "2"
    assert state.discard == ["15"] and state.draw == ["7", "8"]


def test_MC_4_1_2_round_two_reveals_one_card(mc):
    """MC-4.1.2 (rules 4.1): in round 2 one card is revealed and auctioned."""
    state = mc.build(round=2, draw=["7", "8"], auction="6")
    events = mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    reveal = next(e for e in events if e.kind == "reveal")
    assert [c["id"] for c in reveal.data["shown"]] == ["7"]
    assert state.auction.card == "7" and state.draw == ["8"] and state.discard == []


def test_MC_4_1_3_discard_pile_is_public(mc):
    """MC-4.1.3 (rules 4.1, ruling MC-R10): every view shows the discard pile; the draw
    pile shows its count and (known) contents, never its order."""
    state = mc.build(draw=["9", "3", "20"], discard=["24", "12"], auction="6")
    for seat in (None, "alice", "bob"):
        view = mc.engine.view(state, seat)
        assert view["discard"] == ["24", "12"]
        assert view["draw_pile"] == {"count": 3, "cards": ["3", "9", "20"]}


# -- 4.2 Bidding -----------------------------------------------------------------------------


def test_MC_4_2_1_one_six_beats_four_fives(mc):
    """MC-4.2.1 (rules 4.2, example 1): Rikachi's single 6 beats Mori's four 5s."""
    state = mc.build(draw=["7", "8"], auction="6")
    mc.play(state, "alice", mc.bid(5, 5, 5, 5))
    mc.play(state, "bob", mc.bid(6))
    assert state.auction.high_seat == "bob" and state.auction.high == [6]
    assert moves.strength([6]) > moves.strength([5, 5, 5, 5])


def test_MC_4_2_2_more_ones_beat_an_equal_count_of_sixes(mc):
    """MC-4.2.2 (rules 4.2, example 2): Rei's 6 and three 1s beat Rikachi's 6."""
    state = mc.build(draw=["7", "8"], auction="6")
    mc.run(state, ("alice", mc.bid(6)), ("bob", mc.bid(6, 1, 1, 1)))
    assert state.auction.high_seat == "bob"


def test_MC_4_2_3_a_five_beats_ones(mc):
    """MC-4.2.3 (rules 4.2, example 3): Mimura's 6 and 5 beat Rei's 6 and three 1s."""
    state = mc.build(draw=["7", "8"], auction="6")
    mc.run(state, ("alice", mc.bid(6, 1, 1, 1)), ("bob", mc.bid(6, 5)))
    assert state.auction.high_seat == "bob"


def test_MC_4_2_4_equal_or_weaker_bids_are_illegal(mc):
    """MC-4.2.4 (rules 4.2, ruling MC-R2): a bid must be strictly stronger; order of faces
    does not matter."""
    state = mc.build(draw=["7", "8"], auction="6")
    mc.play(state, "alice", mc.bid(6, 5))
    for weak in (mc.bid(5, 6), mc.bid(6), mc.bid(5, 5, 5, 5, 5, 5), mc.bid(6, 4, 4)):
        error = mc.illegal(state, "bob", weak)
        assert error.rule == "4.2" and "not stronger" in error.message
    mc.play(state, "bob", mc.bid(6, 5, 1))


def test_MC_4_2_5_only_available_dice_can_bid(mc):
    """MC-4.2.5 (rules 4.2): fluctuation dice on cards cannot be used to bid."""
    state = mc.build(draw=["7", "8"], auction="6")  # 9 dice, 3 on the Stable Coin
    error = mc.illegal(state, "alice", mc.bid(1, 1, 1, 1, 1, 1, 1))
    assert error.rule == "4.2" and "6 available" in error.message
    mc.play(state, "alice", mc.bid(1, 1, 1, 1, 1, 1))


def test_MC_4_2_6_bids_go_clockwise_and_passes_are_final(mc):
    """MC-4.2.6 (rules 4.2): clockwise from the first player; a pass is final for the card."""
    state = mc.build(draw=["7", "8"], auction="6", first="bob")
    assert mc.turn(state) == "bob"
    mc.play(state, "bob", mc.bid(1))
    mc.play(state, "carol", mc.PASS)
    mc.play(state, "alice", mc.bid(2))
    assert mc.turn(state) == "bob"  # carol passed: she is skipped from now on
    mc.play(state, "bob", mc.bid(3))
    assert mc.turn(state) == "alice"
    assert mc.illegal(state, "carol", mc.bid(6, 6)).rule == "4.2"


def test_MC_4_2_7_rebid_with_any_dice(mc):
    """MC-4.2.7 (rules 4.2 and FAQ, ruling MC-R2): a new bid takes back the previous dice
    and may use any available dice, in any number and faces."""
    state = mc.build(draw=["7", "8"], auction="6")
    mc.run(state, ("alice", mc.bid(6, 6)), ("bob", mc.bid(6, 6, 1)), ("carol", mc.PASS))
    # All six dice, the earlier two included; bob cannot beat six 6s (MC-R7).
    events = mc.play(state, "alice", mc.bid(6, 6, 6, 6, 6, 6))
    assert mc.dice(state, "alice", "6") == [6, 6, 6, 6, 6, 6]
    assert state.players["alice"].available == 0
    assert "win" in kinds(events)


def test_MC_4_2_8_winner_puts_the_bid_dice_on_the_card(mc):
    """MC-4.2.8 (rules 4.2): faces kept; the winner becomes first player."""
    state = mc.build(draw=["7", "8"], auction="6")
    events = mc.run(state, ("alice", mc.bid(3, 6, 2)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert mc.dice(state, "alice", "6") == [6, 3, 2]
    assert state.players["alice"].available == 3
    assert state.first == "alice" and mc.turn(state) == "alice"
    assert "alice wins No.6 for [6 3 2]; the dice stay on it. alice is first player." in mc.lines(
        events
    )


def test_MC_4_2_9_everyone_passes(mc):
    """MC-4.2.9 (rules 4.2 and 4.3, ruling MC-R4): the card leaves the game (not the
    discard pile), the first player stays, every player applies -1."""
    state = mc.build(draw=["7", "8"], auction="20", first="bob")
    events = mc.run(state, ("bob", mc.PASS), ("carol", mc.PASS), ("alice", mc.PASS))
    assert "20" in state.removed and "20" not in state.discard
    assert state.first == "bob"
    for seat in state.seats:
        assert mc.dice(state, seat, state.players[seat].holdings[0].card) == [3, 2, 1]
    assert "Everyone passes: No.20 leaves the game; every player applies -1." in mc.lines(events)


def test_MC_4_2_10_last_seat_in_may_still_bid(mc):
    """MC-4.2.10 (ruling MC-R9): when the others passed without a bid, the last seat still
    decides, and a bid wins the card at once."""
    state = mc.build(draw=["7", "8"], auction="6")
    mc.run(state, ("alice", mc.PASS), ("bob", mc.PASS))
    assert mc.turn(state) == "carol"
    events = mc.play(state, "carol", mc.bid(1))
    assert mc.dice(state, "carol", "6") == [1] and "win" in kinds(events)


def test_MC_4_2_11_seat_that_cannot_bid_passes_automatically(mc):
    """MC-4.2.11 (ruling MC-R7): a seat with no stronger bid possible is passed for."""
    five = [5, 5, 5, 5, 5, 5]
    state = mc.build(draw=["7", "8"], auction="6", cards={"bob": [("S2", [4, 3, 2]), ("12", five)]})
    events = mc.play(state, "alice", mc.bid(1))
    assert [(e.kind, e.data.get("forced")) for e in events[1:2]] == [("pass", "cannot-bid")]
    assert mc.turn(state) == "carol"
    # With two dice left, bob cannot beat two 6s either.
    state = mc.build(draw=["7", "8"], auction="6", cards={"bob": [("12", [5] * 7)]})
    mc.play(state, "alice", mc.bid(6, 6))
    assert mc.turn(state) == "carol" and "bob" in state.auction.passed


def test_MC_4_2_12_listed_decisions_are_legal(mc):
    """MC-4.2.12 (rules 4.2): legal_actions lists pass and the weakest winning bid for every
    number of dice; check accepts each (and other bids too: the list is not complete)."""
    state = mc.build(draw=["7", "8"], auction="6")
    mc.play(state, "alice", mc.bid(6, 1))
    actions = mc.engine.legal_actions(state, "bob")
    assert actions == [
        mc.PASS,
        mc.bid(6, 2),
        mc.bid(6, 1, 1),
        mc.bid(6, 1, 1, 1),
        mc.bid(6, 1, 1, 1, 1),
        mc.bid(6, 1, 1, 1, 1, 1),
    ]
    for action in actions:
        mc.engine.check(state, "bob", action)
    mc.engine.check(state, "bob", mc.bid(6, 6, 6))
    assert mc.engine.legal_actions(state, "carol") == []
    assert mc.engine.legal_actions_complete is False


# -- 4.3 Price fluctuation ----------------------------------------------------------------------


def test_MC_4_3_1_printed_fluctuation_example(mc):
    """MC-4.3.1 (rules 4.3, printed example): -2 on 6, 6, 2, 1 keeps two 4s; two dice
    return to the pool."""
    state = mc.build(draw=["7", "8"], auction="15", cards={"bob": [("6", [6, 6]), ("10", [2, 1])]})
    events = mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    bob = state.players["bob"]
    assert [h.dice for h in bob.holdings] == [[4, 4], []]
    assert bob.available == 9 - 2
    line = "Fluctuation -2 (No.15) for bob: No.6 [6 6] -> [4 4]; No.10 [2 1] -> none (2 back); 2 dice back to the pool."
    assert line in mc.lines(events)


def test_MC_4_3_2_faces_stop_at_six(mc):
    """MC-4.3.2 (rules 4.3): a positive value raises every die; above 6 it stays at 6."""
    state = mc.build(draw=["8", "9"], auction="7", cards={"bob": [("S2", [6, 5, 1])]})
    mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert mc.dice(state, "bob", "S2") == [6, 6, 2]
    assert mc.dice(state, "carol", "S3") == [5, 4, 3]


def test_MC_4_3_3_the_winner_does_not_fluctuate(mc):
    """MC-4.3.3 (rules 4.3): all other players adjust all their fluctuation dice, Stable
    Coin included; the winner's dice stay."""
    state = mc.build(
        draw=["7", "8"], auction="20", cards={"alice": [("S1", [4, 3, 2]), ("6", [5])]}
    )
    mc.run(state, ("alice", mc.bid(2)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert mc.dice(state, "alice", "S1") == [4, 3, 2] and mc.dice(state, "alice", "6") == [5]
    assert mc.dice(state, "alice", "20") == [2]
    assert mc.dice(state, "bob", "S2") == [1] and state.players["bob"].available == 8


def test_MC_4_3_4_remove_one_die_takes_the_lowest(mc):
    """MC-4.3.4 (rules 4.3): "Remove one die" returns the lowest fluctuation die."""
    state = mc.build(draw=["9", "10"], auction="8", cards={"bob": [("S2", [4, 3]), ("6", [5, 2])]})
    events = mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert mc.dice(state, "bob", "6") == [5] and mc.dice(state, "bob", "S2") == [4, 3]
    assert mc.dice(state, "carol", "S3") == [4, 3]
    assert "Remove one die (No.8): bob takes back a 2 from No.6." in mc.lines(events)


def test_MC_4_3_5_lowest_die_on_several_cards_owner_chooses(mc):
    """MC-4.3.5 (rules 4.3, ruling MC-R5): when the lowest face lies on several cards,
    its owner names the card; seats choose clockwise from the winner."""
    state = mc.build(
        draw=["9", "10"],
        auction="8",
        cards={"bob": [("S2", [4, 2]), ("6", [5, 2])], "carol": [("S3", [3, 1]), ("7", [1])]},
    )
    mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    prompt = mc.engine.prompt(state)
    assert (prompt.seat, prompt.kind, prompt.detail["cards"]) == ("bob", "remove", ["S2", "6"])
    assert mc.engine.legal_actions(state, "bob") == [mc.remove("S2"), mc.remove("6")]
    assert mc.illegal(state, "bob", mc.PASS).rule == "4.3"
    assert mc.illegal(state, "bob", mc.remove("S1")).rule == "4.3"
    mc.play(state, "bob", mc.remove("6"))
    assert mc.dice(state, "bob", "6") == [5] and mc.dice(state, "bob", "S2") == [4, 2]
    assert mc.turn(state) == "carol"
    events = mc.play(state, "carol", mc.remove("S3"))
    assert mc.dice(state, "carol", "S3") == [3] and mc.dice(state, "carol", "7") == [1]
    assert [e.kind for e in events][-1] == "reveal" and state.auction.card == "9"


def test_MC_4_3_6_identical_lowest_dice_on_one_card_need_no_choice(mc):
    """MC-4.3.6 (ruling MC-R5): two equal lowest dice on the same card: no choice to make."""
    state = mc.build(draw=["9", "10"], auction="8", cards={"bob": [("S2", [4, 1, 1])]})
    mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert state.pending == [] and mc.dice(state, "bob", "S2") == [4, 1]


def test_MC_4_3_7_no_dice_no_fluctuation(mc):
    """MC-4.3.7 (rules 4.3): a player without fluctuation dice is unaffected."""
    state = mc.build(draw=["9", "10"], auction="8", cards={"bob": [("S2", [])]})
    events = mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert state.players["bob"].available == 9
    assert not [e for e in events if e.data.get("seat") == "bob" and e.kind == "take-back"]


# -- 4.4 End of round 1 and the end of the game --------------------------------------------------


def test_MC_4_4_1_round_change_reshuffles_the_discard_pile(mc):
    """MC-4.4.1 (rules 4, end of the 1st round): the discard pile, shuffled with the
    referee's RNG, becomes the draw pile; round 2 reveals one card."""
    discard = ["10", "11", "12", "13", "14"]
    state = mc.build(draw=[], discard=discard, auction="6")
    events = mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert state.round == 2 and state.discard == []
    assert sorted([*state.draw, state.auction.card], key=int) == discard
    assert [e.kind for e in events][-2:] == ["round", "reveal"] and events[-1].barrier
    assert "Round 2: the 5 discarded cards are shuffled into a new draw pile." in mc.lines(events)


def test_MC_4_4_2_fourth_hardfork_ends_the_game(mc):
    """MC-4.4.2 (rules 4, ruling MC-R1): the 4th HardFork revealed in round 2 is not
    auctioned; the game ends at once and is scored."""
    state = mc.build(round=2, hardforks=3, draw=["24", "7"], auction="6")
    events = mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert mc.engine.prompt(state) is None and state.auction is None
    assert state.ender == "24" and state.draw == ["7"]
    assert mc.engine.outcome(state) is not None
    assert "No.24 is the 4th HardFork: it is not auctioned and the game ends." in mc.lines(events)
    assert mc.illegal(state, "alice", mc.PASS).rule == "4"


def test_MC_4_4_3_hardfork_removed_by_all_pass_counts(mc):
    """MC-4.4.3 (ruling MC-R1): a HardFork put up for auction counts even when everyone
    passes and it leaves the game."""
    state = mc.build(round=2, hardforks=2, draw=["1", "18", "7"], auction="6")
    mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert state.auction.card == "1" and state.hardforks == 3
    mc.run(state, ("alice", mc.PASS), ("bob", mc.PASS), ("carol", mc.PASS))
    assert "1" in state.removed
    assert state.ender == "18" and mc.engine.prompt(state) is None


def test_MC_4_4_4_discarded_hardfork_does_not_count(mc):
    """MC-4.4.4 (ruling MC-R1): a HardFork sent to the discard pile in round 1 was not put up
    for auction and does not count; No.24 can never be auctioned in round 1."""
    state = mc.build(hardforks=0, draw=["24", "9", "18", "23"], auction="6")
    mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert state.auction.card == "9" and state.discard == ["24"] and state.hardforks == 1
    mc.run(state, ("alice", mc.bid(1)), ("bob", mc.PASS), ("carol", mc.PASS))
    assert state.auction.card == "18" and state.discard == ["24", "23"] and state.hardforks == 2


def test_MC_4_4_5_a_table_whose_no_24_is_not_a_hardfork_is_refused(mc, tmp_path):
    """MC-4.4.5 (rules 4, note: the 4th HardFork, No. 24, never appears in round 1; ruling
    MC-R13): a card table whose No. 24 is not a HardFork is refused with one line (a usage
    error, exit 2), as a file and embedded in a manifest; the shipped table passes."""
    table = json.loads(json.dumps(cards.builtin_table()))
    assert cards.problem(table) is None
    rows = {row["number"]: row for row in table["cards"]}
    rows[23].update(type="hardfork", fluctuation=-4, crash=-12)
    rows[23].pop("price")
    rows[24].update(type="motcoin", price=30, fluctuation=-3, crash=-9)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(table))
    with pytest.raises(UsageError) as caught:
        mc.engine.parse_options({"cards": str(path)})
    message = caught.value.message
    assert caught.value.exit_code == 2 and "\n" not in message
    assert "card No. 24 must be a HardFork" in message and "[1, 9, 18, 23]" in message
    with pytest.raises(SchemaViolation):
        mc.engine.check_options({"cards": table})


# -- 7. Double auction ----------------------------------------------------------------------------


def test_MC_7_1_double_auction_second_bidder_takes_the_stable_coin(mc):
    """MC-7.1 (rules 7, ruling MC-R3): No.4 comes with a Stable Coin; the last to pass who had
    bid takes it with the dice of their last bid; neither they nor the winner fluctuate."""
    state = mc.build(draw=["9", "10"], auction="4")
    stable = state.auction.stable
    assert stable == "S4"
    events = mc.run(
        state,
        ("alice", mc.bid(2)),
        ("bob", mc.bid(3)),
        ("carol", mc.PASS),
        ("alice", mc.bid(3, 1, 1)),
        ("bob", mc.PASS),
    )
    assert mc.dice(state, "alice", "4") == [3, 1, 1]
    assert mc.dice(state, "bob", stable) == [3]
    assert mc.dice(state, "alice", "S1") == [4, 3, 2] and mc.dice(state, "bob", "S2") == [4, 3, 2]
    assert mc.dice(state, "carol", "S3") == [3, 2, 1]
    assert "bob passed last after bidding and takes Stable Coin S4 with [3]." in mc.lines(events)


def test_MC_7_2_only_bidders_get_the_stable_coin(mc):
    """MC-7.2 (rules 7): a player who only passed gets no Stable Coin; with no second bidder
    it leaves the game; everyone but the winner fluctuates."""
    state = mc.build(draw=["9", "10"], auction="5")
    mc.run(state, ("alice", mc.PASS), ("bob", mc.PASS), ("carol", mc.bid(1)))
    assert "S4" in state.removed and state.players["bob"].holdings[-1].card == "S2"
    assert mc.dice(state, "bob", "S2") == [3, 2, 1]


def test_MC_7_3_double_auction_all_pass(mc):
    """MC-7.3 (rules 7, ruling MC-R4): everyone passes: card and Stable Coin leave the game
    and every player applies -1."""
    state = mc.build(draw=["9", "10"], auction="4")
    mc.run(state, ("alice", mc.PASS), ("bob", mc.PASS), ("carol", mc.PASS))
    assert {"4", "S4"} <= set(state.removed)
    assert all(mc.dice(state, s, f"S{i + 1}") == [3, 2, 1] for i, s in enumerate(state.seats))


def test_MC_7_4_stable_coin_goes_to_the_second_best_bid(mc):
    """MC-7.4 (ruling MC-R3): with four players the last bidder to pass holds the second
    best bid even after others dropped out; the earliest bid is not rewarded."""
    state = mc.build(mc.SEATS4, draw=["9", "10"], auction="4")
    mc.run(
        state,
        ("alice", mc.bid(1)),
        ("bob", mc.bid(2)),
        ("carol", mc.bid(3)),
        ("dave", mc.PASS),
        ("alice", mc.PASS),
        ("bob", mc.bid(4)),
        ("carol", mc.PASS),
    )
    assert mc.dice(state, "bob", "4") == [4] and mc.dice(state, "carol", "S5") == [3]
    assert mc.dice(state, "alice", "S1") == [3, 2, 1] and mc.dice(state, "carol", "S3") == [4, 3, 2]
