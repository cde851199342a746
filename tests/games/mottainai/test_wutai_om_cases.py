"""Wutai Mountain rules cases WUT-6 … WUT-11: Om works, tucking, Om cards, the known cards.

Placeholder materials: om-01..om-10 PAPER, om-11..om-21 STONE, om-22..om-30 CLOTH,
om-31..om-40 CLAY, om-41..om-50 METAL; urn CLAY, wick CLOTH, paper-booster PAPER.
"""

from __future__ import annotations

from wutai_kit import tuck, use, wbuild, wick_table

from arbiter.games.mottainai import om, scoring
from arbiter.games.mottainai.state import PUBLIC

SMITH_OM = {"hand": {"alice": ["bell", "om-41", "ring", "sword"]}}
"""alice can take Bell as a SMITH task and complete om-41 (METAL 3) with Ring and Sword."""


def _smith_om(mot, state):
    mot.play(state, "alice", mot.task("bell"))
    return mot.play(state, "alice", mot.smith("om-41", ["ring", "sword"]))


# -- WUT-6 Completing Om works: tucking ---------------------------------------------------------


def test_WUT_6_1_tuck_right_after_completion_supports_included_before_after_effects(mot):
    """WUT-6.1 (Wutai: Completing Om Works; M-R106): right after an Om work is completed,
    before any effect, its owner tucks hand cards under its edges, the SMITH's supports too."""
    state = wbuild(mot, gallery={"alice": ["stool"]}, **SMITH_OM)
    _smith_om(mot, state)
    assert mot.prompt(state) == ("alice", "tuck")
    legal = mot.legal(state)
    assert tuck("ring", "helpers") in legal and tuck("sword", "sales") in legal
    assert not any(a["kind"] == "use" for a in legal)  # Stool waits for the tucking
    events = mot.play(state, "alice", tuck("ring", "helpers"))
    assert mot.lines(events) == ["alice tucks Ring [METAL] under Om 41 as an Om helper (SMITH)."]
    mot.play(state, "alice", tuck("sword", "materials"))
    # The hand is empty: the tucking is over and Stool's trigger comes.
    assert mot.prompt(state) == ("alice", "effect")
    assert use("stool") in mot.legal(state)
    under = state.wutai["om"]["om-41"]
    assert under == {"helpers": ["ring"], "materials": ["sword"], "sales": []}


def test_WUT_6_2_tucked_cards_are_public(mot):
    """WUT-6.2 (M-R107): tucked cards are face up: every view shows them."""
    state = wbuild(mot, **SMITH_OM)
    _smith_om(mot, state)
    mot.play(state, "alice", tuck("ring", "sales"))
    for viewer in (None, "alice", "bob"):
        shown = mot.engine.view(state, viewer)["wutai"]["om"]["om-41"]
        assert shown == {"helpers": [], "materials": [], "sales": ["ring"]}


def test_WUT_6_3_tucking_may_stop_at_once(mot):
    """WUT-6.3 (Wutai: "you may tuck any number"): done tucks nothing."""
    state = wbuild(mot, **SMITH_OM)
    _smith_om(mot, state)
    mot.play(state, "alice", mot.DONE)
    assert state.wutai["om"]["om-41"] == om.empty()
    assert sorted(state.players["alice"].hand) == ["ring", "sword"]


def test_WUT_6_4_a_craft_completes_an_om_work_too(mot):
    """WUT-6.4 (Wutai: "via a CRAFT or SMITH action"): CRAFT, with base supports."""
    state = wbuild(mot, hand={"alice": ["tower", "om-11", "kite"]}, bench={"alice": ["frog"]})
    mot.play(state, "alice", mot.task("tower"))
    mot.play(state, "alice", mot.craft("om-11"))
    assert mot.prompt(state) == ("alice", "tuck")
    mot.play(state, "alice", tuck("kite", "helpers"))
    assert state.wutai["om"]["om-11"]["helpers"] == ["kite"]


# -- WUT-7 Adding to Om works instead of the temple -----------------------------------------------


def test_WUT_7_1_monk_may_hire_under_an_om_work(mot):
    """WUT-7.1 (Wutai: Adding to Om Works; M-R108): MONK's card as an Om helper."""
    state = wbuild(mot, hand={"alice": ["tower"]}, gallery={"alice": ["om-01"]}, floor=["vase"])
    mot.play(state, "alice", mot.task("tower"))
    action = {"kind": "monk", "card": "vase", "om": "om-01"}
    assert action in mot.legal(state) and {"kind": "monk", "card": "vase"} in mot.legal(state)
    mot.play(state, "alice", action)
    assert (
        state.wutai["om"]["om-01"]["helpers"] == ["vase"] and state.players["alice"].helpers == []
    )


def test_WUT_7_2_potter_may_collect_under_an_om_work(mot):
    """WUT-7.2 (M-R108): POTTER's card as an Om material."""
    state = wbuild(mot, hand={"alice": ["jar"]}, gallery={"alice": ["om-01"]}, floor=["vase"])
    mot.play(state, "alice", mot.task("jar"))
    mot.play(state, "alice", {"kind": "potter", "card": "vase", "om": "om-01"})
    assert (
        state.wutai["om"]["om-01"]["materials"] == ["vase"] and state.players["alice"].bench == []
    )


def test_WUT_7_3_clerk_may_sell_under_an_om_work(mot):
    """WUT-7.3 (M-R108): CLERK's card as an Om sale (from the craft bench)."""
    state = wbuild(
        mot, hand={"alice": ["fan"]}, gallery={"alice": ["om-01"]}, bench={"alice": ["kite"]}
    )
    mot.play(state, "alice", mot.task("fan"))
    events = mot.play(state, "alice", {"kind": "clerk", "card": "kite", "om": "om-01"})
    assert state.wutai["om"]["om-01"]["sales"] == ["kite"] and state.players["alice"].sales == []
    assert "instead of the temple" in mot.lines(events)[0]


def test_WUT_7_4_only_your_own_om_works(mot):
    """WUT-7.4 (Wutai: "one of your Om works"): an opponent's Om work is no target."""
    state = wbuild(mot, hand={"alice": ["tower"]}, gallery={"bob": ["om-01"]}, floor=["vase"])
    mot.play(state, "alice", mot.task("tower"))
    assert not any("om" in a for a in mot.legal(state))
    mot.illegal(state, "alice", {"kind": "monk", "card": "vase", "om": "om-01"})


# -- WUT-8 What Om cards do not do ----------------------------------------------------------------


def test_WUT_8_1_om_helpers_give_no_actions(mot):
    """WUT-8.1 (Wutai: "You do not get extra actions from Om helpers"; M-R109)."""
    state = wbuild(
        mot,
        hand={"alice": ["fan"]},
        gallery={"alice": ["om-01"]},
        om={"om-01": {"helpers": ["doll"]}},
    )
    events = mot.play(state, "alice", mot.task("fan"))
    start = next(e for e in events if e.kind == "task-start")
    assert start.data["actions"] == 1


def test_WUT_8_2_om_materials_cannot_support(mot):
    """WUT-8.2 (Wutai: "cannot use Om materials to support completion of a work"; M-R109)."""
    state = wbuild(
        mot,
        hand={"alice": ["tower", "frog"]},
        gallery={"alice": ["om-01"]},
        om={"om-01": {"materials": ["statue"]}},
    )
    mot.play(state, "alice", mot.task("tower"))
    assert not any(a["kind"] == "craft" for a in mot.legal(state))
    mot.illegal(state, "alice", mot.craft("frog"))


def test_WUT_8_3_om_sales_do_not_score_and_nothing_tucked_is_covered(mot):
    """WUT-8.3 (Wutai: "Om sales do not count toward end game scoring ... not affected by
    cover"; M-R109, M-R117: the Om work scores and covers as a work of its material)."""
    state = wbuild(
        mot,
        gift_shop={"alice": ["om-02"]},
        om={"om-02": {"sales": ["fan", "doll"], "helpers": ["crane"]}},
        hand={"alice": ["kite"]},
    )
    sheet = scoring.score(state)["seats"]["alice"]
    assert sheet["parts"]["works"] == 1 and sheet["parts"]["sales"] == 0
    view = mot.engine.view(state, None)["players"]["alice"]
    assert view["covered_sales"] == [] and view["covered_helpers"] == []


# -- WUT-9 The known cards --------------------------------------------------------------------------


def test_WUT_9_1_urn_swaps_its_om_materials_with_the_floor(mot):
    """WUT-9.1 (Wutai rulebook, URN; M-R115): in the morning, all of Urn's Om materials and
    all floor cards change places; other Om works' materials stay."""
    state = wbuild(
        mot,
        hand={"alice": ["kite"]},
        gallery={"alice": ["urn", "om-31"]},
        om={"urn": {"materials": ["robe"]}, "om-31": {"materials": ["mask"]}},
        floor=["bell", "vase"],
    )
    assert mot.prompt(state) == ("alice", "effect") and use("urn") in mot.legal(state)
    events = mot.play(state, "alice", use("urn"))
    assert state.floor == ["robe"] and state.wutai["om"]["urn"]["materials"] == ["bell", "vase"]
    assert state.wutai["om"]["om-31"]["materials"] == ["mask"]
    assert "swaps Urn's Om materials (Robe)" in " ".join(mot.lines(events))
    # The line tells the swap as it was, whatever the table does next in the step (a card
    # tucked under Urn later): the event holds copies (found by a peer game's replay).
    state.wutai["om"]["urn"]["materials"].append("jar")
    state.floor.append("cup")
    line = next(x for x in mot.lines(events) if "Urn" in x and "swaps" in x)
    assert line.endswith("swaps Urn's Om materials (Robe) with the floor (Bell, Vase).")


def test_WUT_9_2_the_wick_example_types(mot):
    """WUT-9.2 (Wutai rulebook, the WICK example; M-R110): Om-helper-type CLERK or MONK,
    Om-material-type STONE, Om-sales-type METAL or STONE: only the cards under that work."""
    state = wbuild(
        mot,
        hand={"alice": ["kite"]},
        gallery={"alice": ["wick", "om-01"]},
        om={
            "wick": {
                "helpers": ["fan", "tower"],
                "materials": ["statue"],
                "sales": ["bell", "frog"],
            },
            "om-01": {"helpers": ["jar"]},
        },
    )
    assert om.describe_types(state, "wick", "helpers") == "CLERK or MONK"
    assert om.describe_types(state, "wick", "materials") == "STONE"
    assert om.describe_types(state, "wick", "sales") == "METAL or STONE"
    assert om.om_types(state, "wick", "helpers") == ["PAPER", "STONE"]


def test_WUT_9_3_wick_returns_an_om_helper_type_card_then_draws_two(mot):
    """WUT-9.3 (Wutai rulebook, WICK; M-R116): at night, return a hand card matching an Om
    helper under Wick; only then draw two cards (to the waiting area, base deck)."""
    state = wick_table(mot)
    mot.play(state, "alice", mot.NO_TASK)  # the PRAYER draws om-20
    assert mot.prompt(state) == ("alice", "effect")
    offers = [a for a in mot.legal(state) if a["kind"] == "use"]
    assert offers == [use("wick", target="doll"), use("wick", target="doll", option="no-draw")]
    mot.play(state, "alice", use("wick", target="doll"))
    assert state.deck[-1] == "doll"
    assert sorted(state.players["alice"].hand) == sorted(["kite", "om-20", "bell", "vase"])


def test_WUT_9_4_paper_booster_smiths_matching_works_without_supports(mot):
    """WUT-9.4 (research: the reported Paper Om work; M-R114): on a SMITH, complete with no
    support a work matching its Om-material-type."""
    state = wbuild(
        mot,
        hand={"alice": ["ring", "om-42", "vase"]},
        gallery={"alice": ["paper-booster"]},
        om={"paper-booster": {"materials": ["bell"]}},
    )
    mot.play(state, "alice", mot.task("ring"))
    legal = mot.legal(state)
    assert use("paper-booster", target="om-42", wing="gift_shop") in legal
    assert not any(a.get("target") == "vase" for a in legal)  # CLAY: no match
    events = mot.play(state, "alice", use("paper-booster", target="om-42", wing="gift_shop"))
    assert "om-42" in state.players["alice"].gift_shop
    assert any(e.kind == "work" and e.data["support"] == [] for e in events)
    assert mot.prompt(state) == ("alice", "tuck")  # om-42 is an Om work: tucking first


# -- WUT-10 The end by works ----------------------------------------------------------------------


def test_WUT_10_1_om_works_count_toward_the_wing_end(mot):
    """WUT-10.1 (M-R111): an Om work is a work: the 5th in a wing ends the game."""
    four = ["scroll", "tapestry", "teapot", "haniwa"]
    state = wbuild(mot, gallery={"alice": four}, **SMITH_OM)
    _smith_om(mot, state)
    assert state.over and state.end["reason"] == "wing"


def test_WUT_10_2_unless_om_works_end_is_no(mot):
    """WUT-10.2 (M-R111, om_works_end=no): Om works do not count toward the end."""
    four = ["scroll", "tapestry", "teapot", "haniwa"]
    state = wbuild(mot, works_end=False, gallery={"alice": four}, **SMITH_OM)
    _smith_om(mot, state)
    assert not state.over and mot.prompt(state) == ("alice", "tuck")


# -- WUT-11 Om works leaving play ------------------------------------------------------------------


def test_WUT_11_1_cloak_returns_an_om_work_and_its_tucked_cards(mot):
    """WUT-11.1 (M-R104, M-R112): Cloak returns the Om work just completed to the bottom of
    the Wutai deck; the cards under it go to the bottom of their decks, in sight."""
    state = wbuild(
        mot,
        gallery={"alice": ["cloak"]},
        hand={"alice": ["bell", "om-41", "ring", "sword", "coin"]},
    )
    _smith_om(mot, state)
    mot.play(state, "alice", tuck("ring", "helpers"))
    mot.play(state, "alice", mot.DONE)
    events = mot.play(state, "alice", use("cloak", target="coin", wing="gallery"))
    assert state.wutai["deck"][-1] == "om-41" and state.deck[-1] == "ring"
    assert state.known["om-41"] == PUBLIC and state.known["ring"] == PUBLIC
    assert "om-41" not in state.wutai["om"]
    assert any(e.kind == "om-orphans" for e in events)


def test_WUT_11_2_om_leave_floor(mot):
    """WUT-11.2 (M-R112, om_leave=floor): the tucked cards go to the floor instead."""
    state = wbuild(
        mot,
        leave="floor",
        gallery={"alice": ["cloak"]},
        hand={"alice": ["bell", "om-41", "ring", "sword", "coin"]},
    )
    _smith_om(mot, state)
    mot.play(state, "alice", tuck("ring", "helpers"))
    mot.play(state, "alice", mot.DONE)
    mot.play(state, "alice", use("cloak", target="coin", wing="gallery"))
    assert "ring" in state.floor and state.wutai["deck"][-1] == "om-41"


def test_WUT_11_3_a_stolen_om_work_keeps_its_cards(mot):
    """WUT-11.3 (M-R112): Shuriken moves an Om work with the cards under it."""
    state = wbuild(
        mot,
        hand={"alice": ["bell", "shuriken", "ring", "sword"]},
        gallery={"bob": ["om-01", "kite"]},
        om={"om-01": {"sales": ["fan"]}},
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("shuriken", ["ring", "sword"]))
    mot.play(state, "alice", use("shuriken", target="om-01", wing="gift_shop"))
    assert "om-01" in state.players["alice"].gift_shop
    assert state.wutai["om"]["om-01"]["sales"] == ["fan"]
    assert om.om_works(state, "alice") == ["om-01"]
