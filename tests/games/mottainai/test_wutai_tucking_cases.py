"""Wutai Mountain rules cases WUT-15: every card tucked under your temple may go under one
of your Om works instead, card by card — the card effects' cards too (M-R119).

Wutai rules, Adding to Om Works: "Any time you would be able to tuck a card under your
temple mat as a helper, material, or sale, you may choose to tuck it under one of your Om
works ... If you are tucking multiple cards, you can choose individually." MONK, POTTER
and CLERK name the Om work in their decision (WUT-7, M-R108); every effect that tucks
(Statue, Vase, Bowl, Kite, Umbrella, Chopsticks, Amulet, Ring, Bell, Robe, Socks, Flute,
Sword) puts its cards in the temple and then asks about each one (``place``).

Each effect's case plays it twice: without an Om work of alice's (bob's Om work does not
count) nothing is asked and the cards are in the temple as in the base game; with two,
each card is asked about in order — the first goes under Om 01, the others stay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from wutai_kit import use, wbuild

from arbiter.core.rng import Rng
from arbiter.games.mottainai import om
from arbiter.games.mottainai.narrate import EDGE_NAMES, FLOOR, TEMPLE_ZONES
from arbiter.games.mottainai.state import State

WORKS = ["om-01", "om-31"]
"""alice's Om works in the cases that have them (vanilla PAPER and CLAY placeholders)."""
Setup = Callable[[Any, list[str]], tuple[State, list[Any]]]


def place(card: str, work: str | None = None) -> dict[str, Any]:
    return {"kind": "place", "card": card} | ({"om": work} if work else {})


def table(mot, works: list[str], **zones: Any) -> State:
    """Return a Wutai table where alice owns the Om works ``works`` (gift shop) and bob Om 02."""
    shop = {"alice": list(works), "bob": ["om-02"], **zones.pop("gift_shop", {})}
    return wbuild(mot, gift_shop=shop, **zones)


def check_effect(mot, setup: Setup, expected: list[tuple[str, str]], by: str) -> None:
    """Play ``setup`` without and with Om works; ``expected``: the tucked (card, zone)s."""
    state, events = setup(mot, [])
    assert mot.prompt(state) is None or mot.prompt(state)[1] != "place"
    assert not any(e.kind == "place" for e in events)
    assert "placing" not in mot.engine.view(state, None)["wutai"]
    for c, zone in expected:
        assert c in getattr(state.players["alice"], zone)

    state, events = setup(mot, WORKS)
    placing = mot.engine.view(state, "bob")["wutai"]["placing"]
    assert [(e["card"], e["zone"]) for e in placing] == expected  # public, in order
    lines: list[str] = []
    for i, (c, _) in enumerate(expected):
        assert mot.prompt(state) == ("alice", "place")
        assert mot.legal(state) == [place(c)] + [place(c, w) for w in WORKS]  # never om-02
        played = mot.play(state, "alice", place(c, "om-01") if i == 0 else place(c))
        lines += mot.lines([e for e in played if e.kind == "place"])
    assert mot.prompt(state) != ("alice", "place")
    first, zone = expected[0]
    edge = om.ZONE_EDGE[zone]
    assert state.wutai["om"]["om-01"][edge] == [first]
    assert first not in getattr(state.players["alice"], zone)
    assert all(c in getattr(state.players["alice"], z) for c, z in expected[1:])
    where = TEMPLE_ZONES[zone]
    assert lines[0].startswith(f"alice tucks {FLOOR[first]} under Om 01 as an {EDGE_NAMES[edge]}")
    assert lines[0].endswith(f"instead of their {where} ({by}).")
    for line, (c, z) in zip(lines[1:], expected[1:], strict=True):
        assert (
            line
            == f"alice leaves {FLOOR[c]} in their {TEMPLE_ZONES[z]}, not under an Om work ({by})."
        )


# -- WUT-15.1 … 15.13: each effect that tucks -----------------------------------------------


def _statue(mot, works):
    state = table(
        mot, works, hand={"alice": ["bell", "statue", "bench"]}, floor=["jar", "kite", "vase"]
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("statue", ["bench"]))
    return state, mot.play(state, "alice", use("statue", cards=["jar", "kite"]))


def test_WUT_15_1_statue_two_floor_cards_each_to_the_craft_bench_or_an_om_work(mot):
    """WUT-15.1 (Wutai: Adding to Om Works; M-R119): Statue's two floor cards, as Om
    materials or craft-bench materials, chosen one at a time in the order named."""
    check_effect(mot, _statue, [("jar", "bench"), ("kite", "bench")], "Statue")


def _vase(mot, works):
    state = table(
        mot, works, hand={"alice": ["bell", "vase", "jar", "bowl"]}, floor=["fan", "kite", "mask"]
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("vase", ["bowl", "jar"]))
    return state, mot.play(state, "alice", use("vase", cards=["fan", "kite"]))


def test_WUT_15_2_vase_two_floor_cards_each_to_sales_or_an_om_work(mot):
    """WUT-15.2 (M-R119): Vase's two floor cards, as Om sales or sales, one at a time."""
    check_effect(mot, _vase, [("fan", "sales"), ("kite", "sales")], "Vase")


def _bowl(mot, works):
    state = table(mot, works, gallery={"alice": ["bowl"]}, hand={"alice": ["fan"]}, deck=["jar"])
    return state, mot.play(state, "alice", use("bowl"))


def test_WUT_15_3_bowl_the_decks_top_card_to_the_craft_bench_or_an_om_work(mot):
    """WUT-15.3 (M-R119): Bowl's card (the deck's top) as an Om material instead."""
    check_effect(mot, _bowl, [("jar", "bench")], "Bowl")


def _kite(mot, works):
    state = table(mot, works, gallery={"alice": ["kite", "statue"]}, hand={"alice": ["fan"]})
    return state, mot.play(state, "alice", use("kite", cards=["fan"], target="statue"))


def test_WUT_15_4_kite_a_hand_card_to_your_own_craft_bench_or_an_om_work(mot):
    """WUT-15.4 (M-R119): Kite's card given to your own craft bench may go under your Om
    work; Kite copies the work named either way."""
    check_effect(mot, _kite, [("fan", "bench")], "Kite")
    assert mot.engine.view(_kite(mot, WORKS)[0], None)["copies"] == {"kite": "statue"}


def _umbrella(mot, works):
    state = table(
        mot, works, gallery={"alice": ["umbrella"]}, helpers={"alice": ["mask"]}, deck=["kite"]
    )
    mot.play(state, "alice", use("umbrella"))  # Kite [CLOTH] to the floor: a CLOTH helper may move
    return state, mot.play(state, "alice", use("umbrella", target="mask"))


def test_WUT_15_5_umbrella_a_helper_to_sales_or_an_om_work(mot):
    """WUT-15.5 (M-R119): the helper Umbrella moves is tucked as a sale: or an Om sale."""
    check_effect(mot, _umbrella, [("mask", "sales")], "Umbrella")


def _chopsticks(mot, works):
    state = table(mot, works, gallery={"alice": ["chopsticks"]}, task={"alice": "jar"})
    assert mot.prompt(state) == ("alice", "old-task")
    return state, mot.play(state, "alice", use("chopsticks"))


def test_WUT_15_6_chopsticks_the_old_task_to_sales_or_an_om_work(mot):
    """WUT-15.6 (M-R119): Chopsticks' old task, as an Om sale instead."""
    check_effect(mot, _chopsticks, [("jar", "sales")], "Chopsticks")


def _amulet(mot, works):
    state = table(
        mot,
        works,
        gallery={"alice": ["amulet"]},
        hand={"alice": ["bell", "fan"]},
        bench={"alice": ["kite"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("fan", []))
    return state, mot.play(state, "alice", use("amulet", target="kite"))


def test_WUT_15_7_amulet_a_craft_bench_card_to_sales_or_an_om_work(mot):
    """WUT-15.7 (M-R119): the material Amulet sells, as an Om sale instead."""
    check_effect(mot, _amulet, [("kite", "sales")], "Amulet")


def _ring(mot, works):
    state = table(
        mot,
        works,
        gallery={"alice": ["ring"]},
        hand={"alice": ["fan"]},
        bench={"alice": ["kite"]},
        sales={"bob": ["jar", "vase"]},
    )
    mot.play(state, "alice", mot.task("fan"))
    mot.play(state, "alice", {"kind": "clerk", "card": "kite"})
    return state, mot.play(state, "alice", use("ring", target="jar"))


def test_WUT_15_8_ring_an_opponents_sale_to_your_sales_or_an_om_work(mot):
    """WUT-15.8 (M-R119): the sale Ring takes, as an Om sale instead."""
    check_effect(mot, _ring, [("jar", "sales")], "Ring")


def _bell(mot, works):
    state = table(mot, works, gallery={"alice": ["bell"]}, hand={"alice": ["fan"]}, deck=["jar"])
    mot.play(state, "alice", mot.task("fan"))
    return state, mot.play(state, "alice", use("bell"))


def test_WUT_15_9_bell_the_decks_top_card_to_sales_or_an_om_work(mot):
    """WUT-15.9 (M-R119): the card Bell sells, as an Om sale instead."""
    check_effect(mot, _bell, [("jar", "sales")], "Bell")


def _robe(mot, works):
    state = table(
        mot,
        works,
        gallery={"alice": ["robe"]},
        hand={"alice": ["fan"]},
        bench={"alice": ["kite", "mask"]},
    )
    mot.play(state, "alice", mot.task("fan"))
    return state, mot.play(state, "alice", use("robe", material="CLOTH"))


def test_WUT_15_10_robe_each_card_sold_to_sales_or_an_om_work_in_bench_order(mot):
    """WUT-15.10 (Wutai: "you can choose individually"; M-R119): every card Robe sells is
    placed on its own, in craft-bench order."""
    check_effect(mot, _robe, [("kite", "sales"), ("mask", "sales")], "Robe")


def _socks(mot, works):
    state = table(mot, works, gallery={"alice": ["socks"]}, hand={"alice": ["jar"]}, deck=["vase"])
    mot.play(state, "alice", mot.task("jar"))
    return state, mot.play(state, "alice", use("socks"))


def test_WUT_15_11_socks_the_decks_top_card_to_the_craft_bench_or_an_om_work(mot):
    """WUT-15.11 (M-R119): the card Socks collects, as an Om material instead."""
    check_effect(mot, _socks, [("vase", "bench")], "Socks")


def _flute(mot, works):
    state = table(
        mot, works, gallery={"alice": ["flute"], "bob": ["fan"]}, hand={"alice": ["tower"]}
    )
    mot.play(state, "alice", mot.task("tower"))
    return state, mot.play(state, "alice", use("flute", target="fan"))


def test_WUT_15_12_flute_an_opponents_paper_work_to_your_helpers_or_an_om_work(mot):
    """WUT-15.12 (M-R119): the work Flute takes on a MONK, as an Om helper instead."""
    check_effect(mot, _flute, [("fan", "helpers")], "Flute")


def _sword(mot, works):
    state = table(
        mot,
        works,
        gallery={"alice": ["sword"]},
        hand={"alice": ["tower"]},
        helpers={"bob": ["fan", "kite"]},
    )
    mot.play(state, "alice", mot.task("tower"))
    return state, mot.play(state, "alice", use("sword", target="fan"))


def test_WUT_15_13_sword_an_opponents_helper_to_your_helpers_or_an_om_work(mot):
    """WUT-15.13 (M-R119): the helper Sword hires, as an Om helper instead."""
    check_effect(mot, _sword, [("fan", "helpers")], "Sword")


# -- WUT-15.14 … the form of the choice (M-R119) ---------------------------------------------


def test_WUT_15_14_kite_to_an_opponents_craft_bench_asks_nothing(mot):
    """WUT-15.14 (M-R119: "your temple mat"): a card Kite gives to another player's bench
    is not tucked under your temple: no choice, for either player."""
    state = table(
        mot, WORKS, gallery={"alice": ["kite"], "bob": ["statue"]}, hand={"alice": ["fan"]}
    )
    mot.play(state, "alice", use("kite", cards=["fan"], target="statue"))
    assert mot.prompt(state) != ("alice", "place") and state.players["bob"].bench == ["fan"]


def test_WUT_15_15_the_choice_comes_before_the_after_action_trigger(mot):
    """WUT-15.15 (M-R119): where Bell's card goes is settled before the CLERK's "after"
    trigger: Ring then counts the sales as placed (an Om sale is no sale, M-R109)."""
    for where, ring in ((None, False), ("om-01", True)):
        state = table(
            mot,
            WORKS,
            gallery={"alice": ["bell", "ring"]},
            hand={"alice": ["fan"]},
            deck=["jar"],
            sales={"bob": ["vase"]},
        )
        mot.play(state, "alice", mot.task("fan"))
        mot.play(state, "alice", use("bell"))
        assert mot.prompt(state) == ("alice", "place")
        mot.play(state, "alice", place("jar", where))
        offered = use("ring", target="vase") in mot.legal(state)
        assert offered is ring, where  # bob has more sales only if Jar went under Om 01


def test_WUT_15_16_the_choice_comes_before_the_morning_after_chopsticks(mot):
    """WUT-15.16 (M-R119): Chopsticks' card is placed before the Morning's effects."""
    state = table(mot, WORKS, gallery={"alice": ["chopsticks", "bowl"]}, task={"alice": "jar"})
    mot.play(state, "alice", use("chopsticks"))
    assert mot.prompt(state) == ("alice", "place")
    mot.play(state, "alice", place("jar", "om-31"))
    assert mot.prompt(state) == ("alice", "effect") and use("bowl") in mot.legal(state)
    assert state.wutai["om"]["om-31"]["sales"] == ["jar"]


def test_WUT_15_17_refusals_say_which_card_and_whose_works(mot):
    """WUT-15.17 (M-R119, WUT-7.4): the cards are placed in order, under your own Om works
    only; nothing else is a decision at that prompt."""
    state, _ = _statue(mot, WORKS)
    assert "place jar first" in mot.illegal(state, "alice", place("kite")).message
    assert "not an Om work of yours" in mot.illegal(state, "alice", place("jar", "om-02")).message
    assert "not an Om work of yours" in mot.illegal(state, "alice", place("jar", "statue")).message
    mot.illegal(state, "alice", mot.DONE)
    mot.illegal(state, "bob", place("jar"))
    assert mot.engine.label(place("jar", "om-01")) == "place Jar under Om 01"


def test_WUT_15_18_a_decision_that_ends_the_game_places_nothing(mot):
    """WUT-15.18 (M-R119, M-R2; as M-R106): Bell selling the deck's last card ends the game
    at once: the card stays in the sales and nothing is asked."""
    state = table(mot, WORKS, gallery={"alice": ["bell"]}, hand={"alice": ["fan"]}, deck=["jar"])
    rest = state.deck[1:]
    del state.deck[1:]
    state.players["bob"].waiting += rest  # the deck holds Jar alone
    mot.play(state, "alice", mot.task("fan"))
    mot.play(state, "alice", use("bell"))
    assert state.over and state.end["reason"] == "deck"
    assert "jar" in state.players["alice"].sales and state.frames == []


def test_WUT_15_19_the_default_decision_leaves_the_card_in_the_temple(mot):
    """WUT-15.19 (M-R76, M-R119): on a timeout the card stays where the effect put it."""
    state, _ = _robe(mot, WORKS)
    assert mot.engine.default_action(state, "alice") == place("kite")


def test_WUT_15_20_views_show_the_cards_to_place_and_determinize_rebuilds_the_prompt(mot):
    """WUT-15.20 (M-R107, M-R119; bots): the cards still to place are public; a state
    rebuilt from any seat's view has the same prompt and, for alice, the same decisions."""
    state, _ = _statue(mot, WORKS)
    mot.play(state, "alice", place("jar", "om-01"))
    prompt = mot.engine.prompt(state)
    assert prompt.detail["card"] == "kite" and prompt.detail["by"] == "statue"
    for seat in ("alice", "bob"):
        view = mot.engine.view(state, seat)
        assert view["wutai"]["placing"] == [{"card": "kite", "zone": "bench", "by": "statue"}]
        rebuilt = mot.engine.determinize(view, seat, Rng(b"p" * 32), prompt.to_json())
        mot.engine.invariants(rebuilt)
        assert mot.engine.view(rebuilt, seat) == view
        assert mot.engine.prompt(rebuilt) == prompt
        assert mot.engine.legal_actions(rebuilt, "alice") == mot.legal(state)


@pytest.mark.parametrize(
    "setup", [_statue, _robe, _chopsticks], ids=["statue", "robe", "chopsticks"]
)
def test_WUT_15_21_placing_is_no_barrier(mot, setup):
    """WUT-15.21 (M-R90): placing reveals nothing: a batch may hold the effect and its
    places (a deck card turned up, Bell's, Bowl's, Socks', is one as before)."""
    state, events = setup(mot, WORKS)
    assert not any(e.barrier for e in events)
    while mot.prompt(state) == ("alice", "place"):
        played = mot.play(state, "alice", mot.legal(state)[-1])
        assert not any(e.barrier for e in played if e.kind != "night")  # Night ends the turn


def test_WUT_15_22_the_bots_tuck_where_an_om_effect_reads_a_new_type(mot):
    """WUT-15.22 (M-R110, M-R119; bots): the greedy evaluation counts the Om types an Om
    work's effect reads, so Statue's PAPER card goes under the Paper Om SMITH booster (a
    new Om-material-type) but stays on the craft bench when the only Om work is vanilla."""
    from arbiter.bots import greedy

    for works, expected in ((["om-01"], None), (["paper-booster"], "paper-booster")):
        state = table(
            mot, works, hand={"alice": ["bell", "statue", "bench"]}, floor=["doll", "jar"]
        )
        mot.play(state, "alice", mot.task("bell"))
        mot.play(state, "alice", mot.smith("statue", ["bench"]))
        mot.play(state, "alice", use("statue", cards=["doll", "jar"]))
        legal = mot.legal(state)
        assert legal[0] == place("doll")
        choice = greedy.choose(mot.engine, [state], "alice", legal, Rng(b"g" * 32), True)
        assert choice == place("doll", expected), works
