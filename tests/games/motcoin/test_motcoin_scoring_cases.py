"""Mot Coin rules cases MC-5 and MC-6: price rise, HardFork split, market crash, winner.

Prices of the shipped table: No.6 15, No.8 17, No.10 18, No.11 19, No.12 20, No.13 21,
No.15 23, No.17 25, No.19 26, No.20 27, No.21 28, No.22 29, No.23 30.
"""

from __future__ import annotations

import json

from arbiter.games.motcoin import scoring
from arbiter.games.motcoin.cards import Catalog, builtin_table


def score(mc, cards, seats=None):
    state = mc.build(seats, cards=cards)
    return scoring.score(state)


# -- 5.1 Price rise ---------------------------------------------------------------------------


def test_MC_5_1_1_printed_price_rise_example(mc):
    """MC-5.1.1 (rules 5.1, printed example): 3 players, Mot Coins 15, 17, 20, 25, 26 give
    3 x 20 and 2 x 26; the dice move to the top card of each stack."""
    held = [("S1", []), ("6", [2]), ("8", [1]), ("12", []), ("17", [3]), ("19", [])]
    alice = score(mc, {"alice": held})["seats"]["alice"]
    assert [(p["cards"], p["price"], p["value"]) for p in alice["stacks"]] == [
        (["6", "8", "12"], 20, 60),
        (["17", "19"], 26, 52),
    ]
    assert [p["dice"] for p in alice["stacks"]] == [[2, 1], [3]]
    assert [p["loss"] for p in alice["stacks"]] == [3 * 3, 3 * 6]  # at No.12 x-3, No.19 x-6
    b = alice["breakdown"]
    assert (b["motcoin_value"], b["printed"], b["rise"]) == (112, 103, 9)


def test_MC_5_1_2_gap_is_four_with_four_or_five_players(mc):
    """MC-5.1.2 (rules 5.1): a gap of 4 stacks with 4-5 players, not with 3."""
    held = {"alice": [("6", []), ("11", [])]}  # 15 and 19
    assert score(mc, held)["seats"]["alice"]["breakdown"]["motcoin_value"] == 15 + 19
    for seats in (mc.SEATS4, mc.SEATS5):
        assert score(mc, held, seats)["seats"]["alice"]["breakdown"]["motcoin_value"] == 2 * 19


def test_MC_5_1_3_four_coins_under_a_29(mc):
    """MC-5.1.3 (rules 5.1): 4 Mot Coins stacked under a card worth 29 are all worth 29:
    total 145."""
    held = {"alice": [(c, []) for c in ("17", "19", "20", "21", "22")]}  # 25 26 27 28 29
    alice = score(mc, held)["seats"]["alice"]
    assert alice["stacks"][0]["cards"] == ["17", "19", "20", "21", "22"]
    assert alice["breakdown"]["motcoin_value"] == 145


def test_MC_5_1_4_stacks_chain_from_the_top_card(mc):
    """MC-5.1.4 (rules 5.1, ruling MC-R6): the gap is measured from the stack's top card, so
    15, 18, 21 chain into one stack although 15 and 21 are 6 apart."""
    alice = score(mc, {"alice": [("6", []), ("10", []), ("13", [])]})["seats"]["alice"]
    assert [p["cards"] for p in alice["stacks"]] == [["6", "10", "13"]]
    assert alice["breakdown"]["motcoin_value"] == 63


# -- 5.2 HardFork split -----------------------------------------------------------------------


def test_MC_5_2_1_hardfork_twice_stable_coin_once_the_cheapest(mc):
    """MC-5.2.1 (rules 5.2, printed example): after the 5.1 example the cheapest Mot Coin
    is worth 20: the HardFork is worth 40, the Stable Coin 20."""
    held = [("S1", []), ("1", []), ("6", []), ("8", []), ("12", []), ("17", []), ("19", [])]
    b = score(mc, {"alice": held})["seats"]["alice"]["breakdown"]
    assert (b["base"], b["hardfork_value"], b["stablecoin_value"]) == (20, 40, 20)
    assert b["profit"] == 112 + 40 + 20


def test_MC_5_2_2_value_after_the_rise(mc):
    """MC-5.2.2 (rules 5.2): a Mot Coin of 17 stacked under a 30 is worth 30, and HardFork
    and Stable Coin use 30 as their basis."""
    coins = [(c, []) for c in ("8", "12", "15", "19", "22", "23")]  # 17 20 23 26 29 30
    b = score(mc, {"alice": [("S1", []), ("9", []), *coins]})["seats"]["alice"]["breakdown"]
    assert (b["motcoin_value"], b["base"], b["hardfork_value"], b["stablecoin_value"]) == (
        180,
        30,
        60,
        30,
    )


def test_MC_5_2_3_without_mot_coin_they_are_worth_nothing(mc):
    """MC-5.2.3 (rules 5.2): owning only HardFork and Stable Coin, their value is 0."""
    b = score(mc, {"alice": [("S1", []), ("1", []), ("S4", [])]})["seats"]["alice"]["breakdown"]
    assert (b["profit"], b["hardforks"], b["stablecoins"]) == (0, 1, 2)


def test_MC_5_2_4_dice_on_hardfork_and_stable_coin_never_move(mc):
    """MC-5.2.4 (rules 5.2 and 5.3): their dice stay and cost their own crash value."""
    held = [("S1", [4, 3, 2]), ("1", [2]), ("6", [1]), ("8", [])]
    alice = score(mc, {"alice": held})["seats"]["alice"]
    assert [(o["card"], o["loss"]) for o in alice["others"]] == [("S1", 9 * 2), ("1", 2 * 12)]
    assert alice["stacks"][0]["dice"] == [1] and alice["stacks"][0]["top"] == "8"
    assert alice["breakdown"]["losses"] == 18 + 24 + 2


# -- 5.3 Market crash ---------------------------------------------------------------------------


def test_MC_5_3_1_printed_crash_example(mc):
    """MC-5.3.1 (rules 5.3, printed example): dice totalling 9 on No.12 (x-3) lose 27; a 1 on
    the x-6 card (No.19 in the card list; the example prints No.15) loses 6: total 33."""
    b = score(mc, {"alice": [("S1", []), ("12", [6, 3]), ("19", [1])]})["seats"]["alice"][
        "breakdown"
    ]
    assert b["losses"] == 33
    assert b["total"] == b["profit"] - 33


def test_MC_5_3_2_crash_value_times_faces(mc):
    """MC-5.3.2 (rules 5.3): x-7 holding a 4 and a 6 loses (4 + 6) x 7 = 70."""
    b = score(mc, {"alice": [("S1", []), ("21", [4, 6])]})["seats"]["alice"]["breakdown"]
    assert (b["profit"], b["losses"], b["total"]) == (28 + 28, 70, -14)


def test_MC_5_3_3_dice_moved_onto_the_top_card_use_its_crash_value(mc):
    """MC-5.3.3 (rules 5.1 and 5.3): No.3 shows no crash value, but stacked under No.4
    (x-1) its dice cost 1 each."""
    alice = score(mc, {"alice": [("S1", []), ("3", [5]), ("4", [])]})["seats"]["alice"]
    assert alice["stacks"][0]["top"] == "4" and alice["breakdown"]["losses"] == 5
    alone = score(mc, {"alice": [("S1", []), ("3", [5])]})["seats"]["alice"]
    assert alone["breakdown"]["losses"] == 0


# -- 6. Determining the winner -------------------------------------------------------------------


def test_MC_6_1_highest_total_wins_even_if_negative(mc):
    """MC-6.1 (rules 6): all totals negative, the highest still wins."""
    result = score(mc, {"alice": [("S1", [1])], "bob": [("S2", [2])], "carol": [("S3", [3])]})
    assert result["scores"] == {"alice": -2, "bob": -4, "carol": -6}
    assert result["ranking"] == [["alice"], ["bob"], ["carol"]]


def test_MC_6_2_ties_share_the_victory(mc):
    """MC-6.2 (rules 6, ruling MC-R12): equal totals share the place; no tie-break."""
    cards = {"alice": [("S1", [1]), ("12", [])], "bob": [("S2", []), ("11", [])]}
    state = mc.build(cards=cards)
    state.result = scoring.score(state)
    outcome = mc.engine.outcome(state)
    assert outcome.scores["alice"] == outcome.scores["bob"] == 38
    assert outcome.ranking == [["alice", "bob"], ["carol"]] and outcome.winners == ["alice", "bob"]
    assert outcome.tiebreak is None


def test_MC_6_3_available_dice_count_for_nothing(mc):
    """MC-6.3 (rules 6): remaining available dice are neither gains nor losses."""
    few = score(mc, {"alice": [("S1", []), ("12", [6, 6, 6, 6, 6, 6])]})["seats"]["alice"][
        "breakdown"
    ]
    many = score(mc, {"alice": [("S1", []), ("12", [])]})["seats"]["alice"]["breakdown"]
    assert (few["dice_left"], many["dice_left"]) == (3, 9)
    assert few["profit"] == many["profit"] and many["total"] == many["profit"]


def test_MC_6_4_the_end_is_scored_with_a_breakdown(mc):
    """MC-6.4 (rules 5 and 6): the 4th HardFork ends the game; the outcome has a breakdown per
    seat (ints) and the log has the scoring table and the winner."""
    state = mc.build(round=2, hardforks=3, draw=["24"], auction="12", cards={"alice": [("S1", [])]})
    events = mc.run(state, ("alice", mc.bid(2)), ("bob", mc.PASS), ("carol", mc.PASS))
    outcome = mc.engine.outcome(state).to_json()
    assert outcome["scores"] == {"alice": 40 - 6, "bob": 0 - 2 * (3 + 2 + 1), "carol": -12}
    assert outcome["winners"] == ["alice"]
    assert all(
        isinstance(v, int) for parts in outcome["breakdown"].values() for v in parts.values()
    )
    lines = mc.lines(events)
    assert (
        "Score alice: 1x20 = 20 (rise +0), Stable Coin S1 20; profit 40, crash -6, total 34."
        in lines
    )
    assert lines[-1] == "alice wins with 34."


def test_MC_5_1_5_equal_prices_stack_higher_number_on_top():
    """MC-5.1.5 (ruling MC-R6): in a group's own table two equal prices are 0 apart: they
    stack, the higher card number on top."""
    table = json.loads(json.dumps(builtin_table()))
    table["cards"][6]["price"] = 15  # No.7 now costs the same as No.6
    assert scoring.stacks(Catalog(table), ["7", "6"], 3) == [["6", "7"]]
