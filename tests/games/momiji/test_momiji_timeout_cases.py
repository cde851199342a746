"""Momiji rules cases for deadlines: the cheapest legal move (MOM-R16) and a game scored
before its end (MOM-R17). Neither adds a rule to normal play.

The generic checks (legal at every prompt, blind to what the seat cannot see, equal to
the outcome at the end) run for every engine in tests/games/test_timeout_defaults.py.
"""

from __future__ import annotations

from arbiter.core.errors import IllegalAction
from arbiter.games.momiji import defaults, scoring


def test_MOM_R16_1_the_main_action_defaults_to_collecting_the_first_garden_type(mj):
    """MOM-R16.1: a collect costs nothing, so it wins over a play (cards), a reveal (an
    acorn) and an activation (three acorns); of several collects, the first type of the
    garden."""
    state = mj.build(
        hands={"alice": ["maple-0", "ginkgo-0"]},
        garden=["ginkgo-1", "oak-2", "oak-3"],
        acorns={"alice": 5},
    )
    assert mj.engine.default_action(state, "alice") == mj.collect("ginkgo")
    mj.play_(state, "alice", mj.engine.default_action(state, "alice"))
    assert "ginkgo-1" in state.players["alice"].hand


def test_MOM_R16_2_after_the_main_action_the_default_ends_the_turn(mj):
    """MOM-R16.2: after the main action, ending the turn costs nothing; a discard (two
    cards) or a power (an acorn) does."""
    state = mj.build(
        hands={"alice": ["maple-0", "maple-1", "oak-1"]},
        garden=["ginkgo-1"],
        landscapes={"alice": ["old-oak", "storehouse", "pagoda"]},
    )
    mj.play_(state, "alice", mj.collect("ginkgo"))
    assert mj.engine.prompt(state).detail["phase"] == "after"
    assert mj.engine.default_action(state, "alice") == mj.END
    mj.play_(state, "alice", mj.END)
    assert mj.turn(state) == "bob"


def test_MOM_R16_3_the_hand_limit_defaults_to_the_lowest_card_in_hand_order(mj):
    """MOM-R16.3: each hand-limit discard gives up one card; the lowest value goes, equal
    values in hand order (type order, then corners)."""
    hand = ["maple-2", "maple-3", "ginkgo-1", "ginkgo-2", "cherry-0", "oak-0", "oak-2"]
    garden = ["beech-1", "beech-2", "beech-3", "larch-3"]
    state = mj.build(mj.SEATS4, hands={"alice": hand}, garden=garden, acorns={"alice": 0})
    mj.run(state, ("alice", mj.collect("beech")), ("alice", mj.END))
    assert mj.engine.prompt(state).kind == "hand-limit"
    assert mj.engine.default_action(state, "alice") == {"kind": "hand-limit", "card": "cherry-0"}
    mj.play_(state, "alice", mj.engine.default_action(state, "alice"))
    assert mj.engine.default_action(state, "alice") == {"kind": "hand-limit", "card": "oak-0"}
    mj.play_(state, "alice", mj.engine.default_action(state, "alice"))
    assert mj.turn(state) == "bob"


def test_MOM_R16_4_with_nothing_to_collect_the_cheapest_play(mj):
    """MOM-R16.4: with an empty garden, a one-card play of a 0 costs least (no acorn, one
    card, value 0): a reveal would cost an acorn, a discard two cards."""
    state = mj.build(
        hands={"alice": ["maple-1", "ginkgo-0", "oak-0"]},
        piles={"alice": [["maple-0"]]},
        garden=[],
        deck=["cherry-0", "cherry-1"],
    )
    assert mj.engine.default_action(state, "alice") == mj.play("ginkgo-0")
    assert defaults.cost(state, mj.play("maple-1")) == (0, 1, 1)
    assert defaults.cost(state, {"kind": "discard", "cards": ["ginkgo-0", "oak-0"]}) == (0, 2, 0)
    assert defaults.cost(state, mj.REVEAL) == (1, 0, 0)


def test_MOM_R16_5_a_power_costs_its_acorn_and_the_hand_card_it_names(mj):
    """MOM-R16.5: a swap gives up the hand card it names; taking a garden card does not."""
    state = mj.build(hands={"alice": ["maple-2"]}, garden=["oak-0", "oak-1"])
    swap = mj.power("koi-pond", give="maple-2", take="oak-0")
    assert defaults.cost(state, swap) == (1, 1, 2)
    assert defaults.cost(state, mj.power("stone-lantern", card="oak-0")) == (1, 0, 0)
    assert defaults.cost(state, mj.power("waterfall", card="maple-2")) == (1, 1, 2)


def test_MOM_R16_6_only_the_seat_whose_turn_it_is_has_a_default(mj):
    """MOM-R16.6 (MOM-2): only the seat whose turn it is has a default decision."""
    state = mj.build(garden=["maple-0"])
    try:
        mj.engine.default_action(state, "bob")
    except IllegalAction as exc:
        assert exc.rule == "MOM-2"
    else:
        raise AssertionError("bob got a default out of turn")


def test_MOM_R17_1_early_end_scores_piles_acorns_and_objectives_now(mj):
    """MOM-R17.1 (MOM-6): a game ended now scores as the final scoring would: piles (top
    value × cards), acorns, activated objectives; ties by acorns (MOM-R12)."""
    piles = {"alice": [["maple-0", "maple-1"], ["ginkgo-0"]], "bob": [["cherry-0", "cherry-1"]]}
    state = mj.build(
        piles=piles, acorns={"alice": 1, "bob": 3}, objectives={"alice": ["wide-view"]}
    )
    provisional = mj.engine.provisional_outcome(state)
    assert provisional.to_json() == scoring.outcome(scoring.score(state)).to_json()
    assert provisional.breakdown["alice"] == {
        "piles": 2,
        "acorns": 1,
        "objectives": 10,
        "total": 13,
    }
    assert provisional.breakdown["bob"] == {"piles": 2, "acorns": 3, "objectives": 0, "total": 5}
    assert provisional.ranking == [["alice"], ["bob"]] and state.result is None


def test_MOM_R17_2_at_the_start_everyone_ties(mj):
    """MOM-R17.2: right after setup nobody has a pile or an objective and everyone has the
    same acorns: one shared place."""
    state, _ = mj.new_game(mj.SEATS3)
    provisional = mj.engine.provisional_outcome(state)
    assert provisional.ranking == [["alice", "bob", "carol"]]
    assert set(provisional.scores.values()) == {state.cards.starting_acorns}
