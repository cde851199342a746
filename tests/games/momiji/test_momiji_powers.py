"""Rules cases MOM-3.3.x: every landscape power behaviour (ruling MOM-R9), by behaviour id.

Landscapes of the shipped data: take-card (stone-lantern), acorns (old-oak), draw
(tea-house), hand-limit (storehouse), swap (koi-pond), reveal-two (moon-gate), leap
(waterfall, mountain-path).
"""

from __future__ import annotations

from arbiter.games.momiji.powers import POWERS

ALL = ["stone-lantern", "old-oak", "tea-house", "storehouse", "koi-pond", "moon-gate", "waterfall"]


def lands(*ids):
    return {"alice": list(ids)}


def test_every_behaviour_has_a_case_here():
    """Each behaviour id of the registry is used by a landscape tested below."""
    assert sorted(POWERS) == sorted(
        ["take-card", "acorns", "draw", "hand-limit", "swap", "reveal-two", "leap"]
    )


def test_MOM_3_3_1_take_card_takes_one_garden_card_then_refills(mj):
    """MOM-3.3.1 take-card: one card of your choice from the garden; the garden refills."""
    garden = ["maple-0", "maple-1", "ginkgo-0", "oak-2"]
    state = mj.build(garden=garden, deck=["cherry-0", "oak-0"], landscapes=lands("stone-lantern"))
    events = mj.play_(state, "alice", mj.power("stone-lantern", card="maple-1"))
    assert state.players["alice"].hand == ["maple-1"] == state.players["alice"].known
    assert mj.engine.view(state, None)["garden"] == ["maple-0", "ginkgo-0", "cherry-0", "oak-2"]
    assert [e.kind for e in events] == ["power", "take-card", "refill"] and events[-1].barrier
    mj.illegal(state, "alice", mj.power("stone-lantern", card="maple-1"))


def test_MOM_3_3_2_take_card_leaves_a_card_to_collect(mj):
    """MOM-3.3.2 take-card (MOM-R9): the garden's last card cannot be taken."""
    state = mj.build(garden=["maple-0"], deck=[], landscapes=lands("stone-lantern"))
    mj.illegal(state, "alice", mj.power("stone-lantern", card="maple-0"))
    mj.illegal(state, "alice", mj.power("stone-lantern", card="oak-0"))


def test_MOM_3_3_3_acorns_gives_two(mj):
    """MOM-3.3.3 acorns: pay one, take two."""
    state = mj.build(garden=["maple-0"], acorns={"alice": 1}, landscapes=lands("old-oak"))
    mj.play_(state, "alice", mj.power("old-oak"))
    assert state.players["alice"].acorns == 2
    mj.illegal(state, "alice", mj.power("old-oak", card="maple-0"))


def test_MOM_3_3_4_draw_is_private_and_a_barrier(mj):
    """MOM-3.3.4 draw: the top card of the deck, seen by its drawer only."""
    state = mj.build(garden=["maple-0"], deck=["oak-3", "oak-2"], landscapes=lands("tea-house"))
    events = mj.play_(state, "alice", mj.power("tea-house"))
    assert state.players["alice"].hand == ["oak-3"] and state.players["alice"].known == []
    assert events[-1].barrier
    assert mj.lines(events, "alice")[-1] == "alice draws oak 3 from the deck."
    assert mj.lines(events, "bob")[-1] == "alice draws a card from the deck."
    assert mj.engine.view(state, "bob")["players"]["alice"]["hand"] is None


def test_MOM_3_3_5_hand_limit_keeps_ten(mj):
    """MOM-3.3.5 hand-limit: the limit is 10 at the end of this turn, 8 again after."""
    hand = ["maple-0", "maple-1", "maple-2", "ginkgo-0", "ginkgo-1", "ginkgo-2", "oak-0", "oak-1"]
    garden = ["cherry-0", "cherry-1", "cherry-2", "oak-3"]
    state = mj.build(hands={"alice": hand}, garden=garden, landscapes=lands("storehouse"))
    mj.run(
        state,
        ("alice", mj.power("storehouse")),
        ("alice", mj.collect("cherry")),
        ("alice", mj.END),
    )
    detail = mj.engine.prompt(state).detail
    assert (detail["limit"], detail["excess"]) == (10, 1)
    events = mj.play_(state, "alice", {"kind": "hand-limit", "card": "oak-1"})
    assert events[-1].kind == "turn" and state.turn.limit == 8


def test_MOM_3_3_6_swap_a_hand_card_with_a_garden_card(mj):
    """MOM-3.3.6 swap: both cards are public afterwards; identical cards cannot swap."""
    state = mj.build(
        hands={"alice": ["ginkgo-1", "oak-3"]},
        garden=["maple-0R", "ginkgo-1"],
        landscapes=lands("koi-pond"),
    )
    mj.illegal(state, "alice", mj.power("koi-pond", give="ginkgo-1", take="ginkgo-1"))
    mj.illegal(state, "alice", mj.power("koi-pond", give="oak-3"))
    mj.play_(state, "alice", mj.power("koi-pond", give="oak-3", take="ginkgo-1"))
    assert state.players["alice"].hand == ["ginkgo-1", "ginkgo-1"]
    assert state.players["alice"].known == ["ginkgo-1"]
    assert state.garden == ["maple-0R", "oak-3"]


def test_MOM_3_3_7_reveal_two_adds_two_garden_cards(mj):
    """MOM-3.3.7 reveal-two: two more garden cards, a barrier; not an acorn reveal."""
    state = mj.build(
        garden=["maple-0"], deck=["oak-0", "oak-1", "oak-2"], landscapes=lands("moon-gate")
    )
    events = mj.play_(state, "alice", mj.power("moon-gate"))
    assert state.garden == ["maple-0", "oak-0", "oak-1"] and events[-1].barrier
    assert not state.turn.revealed
    mj.legal(state, "alice", mj.REVEAL)


def test_MOM_3_3_8_leap_ignores_the_step(mj):
    """MOM-3.3.8 leap: onto an open pile, any value not below its top; a 3 closes it."""
    piles = {"alice": [["maple-0"], ["ginkgo-0", "ginkgo-1"]]}
    hand = ["maple-3", "ginkgo-0L", "oak-0", "cherry-2"]
    state = mj.build(
        hands={"alice": hand}, piles=piles, garden=["oak-1"], landscapes=lands("waterfall")
    )
    assert "below" in mj.illegal(state, "alice", mj.power("waterfall", card="ginkgo-0L")).message
    assert "no oak pile" in mj.illegal(state, "alice", mj.power("waterfall", card="oak-0")).message
    mj.illegal(state, "alice", mj.power("waterfall", card="cherry-2"))
    events = mj.play_(state, "alice", mj.power("waterfall", card="maple-3"))
    assert state.players["alice"].piles[0].cards == ["maple-0", "maple-3"]
    assert events[-1].data["closed"] and "torii" in mj.lines(events)[-1]


def test_MOM_3_3_9_every_shipped_landscape_behaviour_is_playable(mj):
    """MOM-3.3.9: each shipped landscape lists at least one choice in a plain position."""
    hand = ["maple-1", "oak-0"]
    state = mj.build(
        hands={"alice": hand},
        piles={"alice": [["maple-0"]]},
        garden=["maple-0R", "ginkgo-0"],
        deck=["oak-1", "oak-2"],
        landscapes=lands(*ALL),
    )
    listed = {
        a["landscape"] for a in mj.engine.legal_actions(state, "alice") if a["kind"] == "power"
    }
    assert listed == set(ALL)
