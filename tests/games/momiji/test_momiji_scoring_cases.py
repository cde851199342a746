"""Rules cases MOM-6.x: scoring, every objective measure (MOM-R11) and the tie-break (MOM-R12)."""

from __future__ import annotations

from arbiter.games.momiji import scoring
from arbiter.games.momiji.objectives import MEASURES, best

PILES = {
    "alice": [["maple-0", "maple-1", "maple-1L"], ["ginkgo-0", "ginkgo-0L"]],
    "bob": [["cherry-0", "cherry-1", "cherry-2", "cherry-3"]],
}


def ended(mj, **kw):
    """Return a built state that ends now (empty deck, turn ended): scores computed."""
    kw.setdefault("piles", PILES)
    kw.setdefault("acorns", {"alice": 0, "bob": 0})
    state = mj.build(deck=[], phase="after", **kw)
    state.events = mj.play_(state, "alice", mj.END)
    assert state.result is not None
    return state


# -- piles and acorns ---------------------------------------------------------------------------


def test_MOM_6_1_pile_scores_top_value_times_cards_and_acorns_one_each(mj):
    """MOM-6.1: maple 1x3 = 3, ginkgo 0x2 = 0, cherry 3x4 = 12; an acorn is a point."""
    state = ended(mj, acorns={"alice": 5, "bob": 1})
    seats = state.result["seats"]
    assert [p["points"] for p in seats["alice"]["piles"]] == [3, 0]
    assert seats["alice"]["breakdown"] == {"piles": 3, "acorns": 5, "objectives": 0, "total": 8}
    assert seats["bob"]["breakdown"]["total"] == 13
    assert state.result["ranking"] == [["bob"], ["alice"]]
    outcome = mj.engine.outcome(state)
    assert outcome.scores == {"alice": 8, "bob": 13} and outcome.winners == ["bob"]


# -- objectives -------------------------------------------------------------------------------------


def test_MOM_6_2_owner_meeting_best_scores_10_another_best_3(mj):
    """MOM-6.2: the owner scores 10 when best; every other best seat scores 3 (ties all)."""
    piles = {"alice": [["maple-0"], ["ginkgo-0"]], "bob": [["cherry-0"], ["oak-0"]]}
    state = ended(mj, piles=piles, objectives={"alice": ["wide-view"]})
    entry = state.result["objectives"][0]
    assert entry["best"] == ["alice", "bob"] and entry["points"] == {"alice": 10, "bob": 3}


def test_MOM_6_3_owner_not_best_scores_nothing_the_best_scores_3(mj):
    """MOM-6.3: an owner who does not meet it best scores nothing from it."""
    state = ended(mj, objectives={"alice": ["many-torii"]})
    assert state.result["objectives"][0]["points"] == {"bob": 3}
    assert state.result["seats"]["alice"]["breakdown"]["objectives"] == 0


def test_MOM_6_4_nobody_meets_a_most_objective_with_nothing(mj):
    """MOM-6.4 (MOM-R11): "most" needs at least one; all at zero means nobody scores."""
    state = ended(mj, piles={}, objectives={"bob": ["many-torii"]})
    entry = state.result["objectives"][0]
    assert entry["best"] == [] and entry["points"] == {}


def test_MOM_6_5_objectives_left_in_the_centre_score_nothing(mj):
    """MOM-6.5: only activated objectives score."""
    state = ended(mj, centre=["fresh-buds", "wide-view"])
    assert state.result["objectives"] == []


def test_MOM_6_6_each_measure(mj):
    """MOM-6.6 (MOM-R11): every measure on one position (alice, bob)."""
    state = mj.build(
        piles=PILES,
        hands={"alice": ["oak-1"], "bob": ["oak-2", "oak-3"]},
        acorns={"alice": 4, "bob": 1},
    )
    cases = {
        "most-zeros": ((3, 1), ["alice"]),
        "most-visible": ((2, 1), ["alice"]),
        "top-sum": ((1, 3), ["bob"]),
        "most-closed": ((0, 1), ["bob"]),
        "most-acorns": ((4, 1), ["alice"]),
        "fewest-hand": ((-1, -2), ["alice"]),
        "longest-pile": ((3, 4), ["bob"]),
    }
    assert sorted([*cases, "most-of-type"]) == sorted(MEASURES)
    for measure_id, (values, winners) in cases.items():
        got, who = best(state, {"measure": measure_id})
        assert (got["alice"], got["bob"]) == values and who == winners, measure_id
    got, who = best(state, {"measure": "most-of-type", "type": "ginkgo"})
    assert got == {"alice": 2, "bob": 0} and who == ["alice"]
    got, who = best(state, {"measure": "most-of-type", "type": "oak"})
    assert who == []


def test_MOM_6_7_fewest_cards_in_hand_is_met_even_with_none(mj):
    """MOM-6.7 (MOM-R11): fewest cards counts zero as best; a tie shares it."""
    state = mj.build()
    assert best(state, {"measure": "fewest-hand"})[1] == ["alice", "bob"]


# -- the tie-break ----------------------------------------------------------------------------------


def test_MOM_6_8_tie_broken_by_acorns_then_shared(mj):
    """MOM-6.8 (MOM-R12): equal scores: more acorns ranks first; equal acorns share."""
    assert scoring.rank({"a": 9, "b": 9, "c": 9}, {"a": 1, "b": 3, "c": 1}, ["a", "b", "c"]) == [
        ["b"],
        ["a", "c"],
    ]
    piles = {
        "alice": [["maple-0", "maple-1", "maple-2"]],
        "bob": [["cherry-0", "cherry-1", "cherry-2"]],
    }
    state = ended(mj, piles=piles, acorns={"alice": 2, "bob": 2})
    assert state.result["ranking"] == [["alice", "bob"]]
    assert state.result["tiebreak"] == scoring.TIEBREAK
    line = mj.lines(state.events)[-1]
    assert line.startswith("Shared victory: alice, bob with 8 points each (tie-break: most acorns")


def test_MOM_6_9_equal_scores_broken_by_acorns_are_named_in_the_log(mj):
    """MOM-6.9 (MOM-R12): a winner on the tie-break says so; a tie further down does not."""
    piles = {"alice": [["maple-0", "maple-1", "maple-2"]], "bob": [["cherry-0", "cherry-1"]]}
    state = ended(mj, piles=piles, acorns={"alice": 2, "bob": 6})
    assert state.result["ranking"] == [["bob"], ["alice"]]
    assert mj.lines(state.events)[-1] == (
        "bob wins with 8 points (tie-break: most acorns left, then shared (MOM-R12))."
    )
    piles = {**PILES, "carol": [["oak-0", "oak-1", "oak-1L"]]}
    state = ended(mj, piles=piles, acorns={"alice": 0, "bob": 0, "carol": 0}, seats=mj.SEATS3)
    assert state.result["scores"] == {"alice": 3, "bob": 12, "carol": 3}
    assert state.result["ranking"] == [["bob"], ["alice", "carol"]]
    assert mj.lines(state.events)[-1] == "bob wins with 12 points."
