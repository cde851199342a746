"""Card effects of issue 5 part A: end-game scoring, continuous, before a task.

Each test is named after its card and built with the scenario builder (exact tables, no
shuffle), driving real decisions through ``check`` and ``apply``. The after-effects are in
``test_mottainai_cards_a_after.py`` and ``test_mottainai_cards_a_later.py``.
"""

from __future__ import annotations

from typing import Any

from mottainai_cardkit import use, uses

from arbiter.core.rng import Rng
from arbiter.games.mottainai import MottainaiEngine, scoring
from arbiter.games.mottainai.cover import helpers_covered, sales_covered, wing_count
from arbiter.games.mottainai.effects import missing


def sheet(state, seat: str = "alice") -> dict[str, Any]:
    return scoring.score(state)["seats"][seat]


def test_part_a_cards_are_no_longer_listed_as_missing():
    part_a = [
        *("coin", "haniwa", "lampshade", "pillar", "quilt", "tapestry", "teapot", "scroll"),
        *("bench", "go-set", "turtle", "frog", "jar", "shuriken", "statue", "tablet", "vase"),
        *("amulet", "cloak", "poem", "stool", "cup", "deck-of-cards", "gong", "plane", "ring"),
        *("figurine", "flag", "fountain"),
    ]
    assert not set(part_a) & set(missing())
    notes = " ".join(MottainaiEngine.info.notes)
    for name in ("Go Set", "Deck of Cards", "Haniwa", "Fountain", "Shuriken"):
        assert name not in notes


# -- end-game scoring -----------------------------------------------------------------


def test_coin_scores_each_backorder_twice(mot):
    """Coin (M-R7): every card that qualifies as a backorder scores twice."""
    state = mot.build(
        gift_shop={"alice": ["coin"]},
        sales={"alice": ["crane"]},
        hand={"alice": ["scroll", "poem"]},
    )
    s = sheet(state)
    assert s["backorders"] == {"PAPER": 4} and s["parts"]["backorders"] == 4


def test_coin_adds_nothing_without_the_sales_majority(mot):
    """Coin: only qualifying backorders are doubled; a tie qualifies nothing (M-R26)."""
    state = mot.build(
        gift_shop={"alice": ["coin"]},
        sales={"alice": ["crane"], "bob": ["doll"]},
        hand={"alice": ["scroll", "poem"]},
    )
    assert sheet(state)["backorders"] == {}


def test_coin_scores_at_a_real_game_end(mot):
    """Coin: the prayer drawing the last card ends the game; backorders double at scoring."""
    state = mot.build(
        gift_shop={"alice": ["coin"]},
        sales={"alice": ["crane"]},
        hand={"alice": ["scroll"]},
        deck=["kite"],
        leftover=("bob", "waiting"),
    )
    mot.play(state, "alice", mot.NO_TASK)
    assert state.end["reason"] == "deck"
    assert mot.engine.outcome(state).breakdown["alice"]["backorders"] == 2


def test_haniwa_scores_three_per_helper_of_the_most_hired_material(mot):
    """Haniwa: the material with the most helpers (choice if tied): +3 per such helper."""
    state = mot.build(
        gallery={"alice": ["haniwa"]},
        helpers={"alice": ["frog", "tower", "crane"]},
        hand={"alice": ["kite"]},
    )
    assert sheet(state)["card_points"] == {"haniwa": 6}


def test_haniwa_without_helpers_scores_nothing(mot):
    state = mot.build(gallery={"alice": ["haniwa"]}, hand={"alice": ["kite"]})
    assert sheet(state)["card_points"] == {"haniwa": 0}


def test_haniwa_counts_fountains_helpers_when_the_game_ends_during_the_task(mot):
    """Rules glossary (M-R6): Fountain's CLERK helpers count for Haniwa if the game ends
    during the task."""
    state = mot.build(
        gallery={"alice": ["fountain", "haniwa"]},
        helpers={"alice": ["crane"]},
        hand={"alice": ["doll", "frog", "tower"]},
        deck=["kite"],
        leftover=("bob", "waiting"),
    )
    mot.play(state, "alice", mot.task("doll"))
    mot.play(state, "alice", use("fountain", cards=["frog", "tower"]))
    assert sheet(state)["card_points"]["haniwa"] == 9  # 1 CLERK helper + 2 revealed
    mot.play(state, "alice", mot.PRAYER)  # the last card: the game ends during the task
    assert state.end["reason"] == "deck"
    assert state.result["seats"]["alice"]["card_points"]["haniwa"] == 9


def test_lampshade_claims_clay_and_metal_backorders_at_zero_sales(mot):
    """Rules FAQ: Quilt or Lampshade claim backorders in tied types, even with 0 sales."""
    state = mot.build(gift_shop={"alice": ["lampshade"]}, hand={"alice": ["jar", "bell", "crane"]})
    s = sheet(state)
    assert s["backorders"] == {"CLAY": 3, "METAL": 3}  # PAPER 0-0: not Lampshade's


def test_lampshade_claims_nothing_when_behind(mot):
    """Lampshade: ahead or tied only; an opponent with more CLAY sales keeps it."""
    state = mot.build(
        gift_shop={"alice": ["lampshade"]},
        sales={"bob": ["cup"]},
        hand={"alice": ["jar", "bell"]},
    )
    assert sheet(state)["backorders"] == {"METAL": 3}


def test_lampshade_lets_several_holders_claim_a_tied_material(mot):
    """Rules FAQ: several players with Lampshade or Quilt each claim the tied type."""
    state = mot.build(
        mot.SEATS4,
        gift_shop={"alice": ["lampshade"], "bob": ["lampshade#2"]},
        sales={"alice": ["cup"], "bob": ["cup#2"]},
        hand={"alice": ["jar"], "bob": ["jar#2"]},
    )
    assert sheet(state)["backorders"] == {"CLAY": 3}
    assert sheet(state, "bob")["backorders"] == {"CLAY": 3}


def test_pillar_covers_every_sale_of_the_most_sold_material(mot):
    """Pillar: all sales of your most-sold material are covered, whatever the gift shop."""
    state = mot.build(
        gallery={"alice": ["pillar"]},
        sales={"alice": ["jar", "cup", "crane"]},
        hand={"alice": ["kite"]},
    )
    s = sheet(state)
    assert s["covered_sales"] == ["CLAY"] and s["parts"]["sales"] == 6


def test_pillar_picks_the_best_of_tied_materials(mot):
    """Pillar (M-R33): tied materials: the arbiter picks the one scoring most."""
    state = mot.build(
        gallery={"alice": ["pillar"]},
        sales={"alice": ["crane", "doll", "bell", "gong"]},
        hand={"alice": ["kite"]},
    )
    assert sheet(state)["covered_sales"] == ["METAL"]


def test_pillar_without_sales_covers_nothing(mot):
    state = mot.build(gallery={"alice": ["pillar"]}, hand={"alice": ["kite"]})
    assert sheet(state)["covered_sales"] == []


def test_quilt_covers_paper_stone_and_cloth_sales_not_clay(mot):
    """Quilt: PAPER, STONE and CLOTH sales count as covered; CLAY still needs works."""
    state = mot.build(
        gallery={"alice": ["quilt"]},
        sales={"alice": ["frog", "tower", "crane", "jar"]},
        hand={"alice": ["bell"]},
    )
    s = sheet(state)
    assert s["covered_sales"] == ["PAPER", "STONE"] and s["parts"]["sales"] == 1 + 4


def test_quilt_claims_tied_backorders_at_zero_sales(mot):
    """Rules FAQ: Quilt claims its tied types at 0 sales, not CLAY or METAL."""
    state = mot.build(gallery={"alice": ["quilt"]}, hand={"alice": ["kite", "frog", "jar"]})
    assert sheet(state)["backorders"] == {"STONE": 2, "CLOTH": 2}


def test_tapestry_scores_one_per_work_in_its_wing(mot):
    """Tapestry: +1 per work in its own wing, itself included."""
    state = mot.build(
        gallery={"alice": ["tapestry", "crane", "jar"]},
        gift_shop={"alice": ["frog"]},
        hand={"alice": ["bell"]},
    )
    assert sheet(state)["card_points"] == {"tapestry": 3}


def test_tapestry_counts_go_set_stone_works_in_both_wings(mot):
    """Rules FAQ: with Go Set, STONE works count in both wings for Tapestry."""
    state = mot.build(
        gallery={"alice": ["tapestry"]},
        gift_shop={"alice": ["go-set", "frog", "jar"]},
        hand={"alice": ["bell"]},
    )
    assert sheet(state)["card_points"] == {"tapestry": 3}


def test_teapot_scores_three_per_bench_card_of_the_most_collected_material(mot):
    """Teapot: the material with most craft-bench cards: +3 per such card."""
    state = mot.build(
        gift_shop={"alice": ["teapot"]},
        bench={"alice": ["jar", "cup", "crane"]},
        hand={"alice": ["kite"]},
    )
    assert sheet(state)["card_points"] == {"teapot": 6}


def test_teapot_with_an_empty_bench_scores_nothing(mot):
    state = mot.build(gift_shop={"alice": ["teapot"]}, hand={"alice": ["kite"]})
    assert sheet(state)["card_points"] == {"teapot": 0}


# -- continuous -----------------------------------------------------------------------


def test_go_set_stone_works_in_the_gift_shop_cover_stone_helpers(mot):
    """Rules FAQ: Go Set: each STONE work counts in both wings for cover."""
    state = mot.build(
        gift_shop={"alice": ["go-set", "frog"]},
        helpers={"alice": ["tower", "statue", "stool", "tablet"]},
        hand={"alice": ["bench"]},
    )
    assert helpers_covered(state, "alice", "STONE")
    events = mot.play(state, "alice", mot.task("bench"))
    start = next(e for e in events if e.kind == "task-start")
    assert start.data["actions"] == 1 + 2 * 4 and start.data["covered"]


def test_go_set_stone_works_in_the_gallery_cover_stone_sales(mot):
    state = mot.build(
        gallery={"alice": ["go-set"]}, sales={"alice": ["frog", "tower"]}, hand={"alice": ["kite"]}
    )
    assert sales_covered(state, "alice", "STONE") and sheet(state)["parts"]["sales"] == 4


def test_go_set_counts_stone_works_in_both_wings_for_the_game_end(mot):
    """Rules FAQ: with Go Set, STONE works count toward ending the game in both wings."""
    state = mot.build(
        gallery={"alice": ["go-set", "frog", "statue"]},
        gift_shop={"alice": ["crane"]},
        hand={"alice": ["bell", "tablet", "tower"]},
    )
    assert wing_count(state, "alice", "gift_shop") == 4
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("tablet", ["tower"]))
    assert state.end == {
        "reason": "wing",
        "seat": "alice",
        "turn": 1,
        "wing": "gift_shop",
    }


def test_go_set_does_not_count_stone_works_twice_for_points_or_bench(mot):
    """M-R11: each STONE work counts once for its own points and for Bench."""
    state = mot.build(
        gallery={"alice": ["go-set", "bench"]},
        gift_shop={"alice": ["frog"]},
        hand={"alice": ["kite"]},
    )
    s = sheet(state)
    assert s["parts"]["works"] == 6 and s["card_points"] == {"bench": 6}


def test_go_set_does_not_count_twice_for_frog(mot):
    """Rules FAQ: Go Set does not make STONE works count as several works for Frog."""
    state = mot.build(
        gallery={"alice": ["go-set"]},
        gift_shop={"bob": ["crane", "doll"]},
        hand={"alice": ["bell", "frog", "tower"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("frog", ["tower"]))
    assert use("frog") in uses(mot, state)  # 2 works each, not 4 against 2


def test_go_set_does_not_count_twice_for_shuriken(mot):
    """Rules FAQ: nor for Shuriken: 2 works (Go Set, Shuriken) against 3 lets it steal."""
    state = mot.build(
        gallery={"alice": ["go-set"]},
        gift_shop={"bob": ["crane", "doll", "fan"]},
        hand={"alice": ["bell", "shuriken", "gong", "ring"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("shuriken", ["gong", "ring"]))
    assert use("shuriken", target="crane", wing="gallery") in uses(mot, state)


def test_turtle_wins_at_once_with_a_work_of_each_material(mot):
    """Turtle (M-R31): all five materials among your works: you win at once, whatever the
    scores; the rest of the turn does not happen."""
    state = mot.build(
        gallery={"alice": ["turtle", "crane", "frog", "quilt"]},
        gift_shop={"bob": ["scroll", "coin", "bench", "haniwa"]},
        hand={"alice": ["bell", "jar", "cup", "bowl"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    events = mot.play(state, "alice", mot.smith("jar", ["bowl", "cup"], "gift_shop"))
    assert state.end["reason"] == "turtle" and state.end["winner"] == "alice"
    out = mot.engine.outcome(state)
    assert out.scores["bob"] > out.scores["alice"] and out.winners == ["alice"]
    assert "Turtle wins the game at once" in " ".join(mot.lines(events))


def test_turtle_needs_all_five_materials(mot):
    state = mot.build(
        gallery={"alice": ["turtle", "crane", "frog"]},
        hand={"alice": ["bell", "jar", "cup", "bowl"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("jar", ["bowl", "cup"]))
    assert state.end is None


def test_turtle_counts_a_stolen_work(mot):
    """Turtle checks at any moment: a work taken with Shuriken can complete the set."""
    state = mot.build(
        gallery={"alice": ["turtle", "crane", "frog"], "bob": ["jar", "scroll", "bench"]},
        gift_shop={"alice": ["quilt"], "bob": ["tapestry", "coin", "haniwa"]},
        hand={"alice": ["bell", "shuriken", "gong", "ring"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("shuriken", ["gong", "ring"], "gift_shop"))
    assert state.end is None  # no CLAY work yet
    mot.play(state, "alice", use("shuriken", target="jar", wing="gift_shop"))
    state2 = state
    assert state2.end["reason"] == "turtle"


# -- before a task --------------------------------------------------------------------


def test_figurine_reveals_a_matching_card_for_one_more_action_on_an_opponents_task(mot):
    """Figurine: before an opponent's task, show a hand card of its material: +1 action."""
    state = mot.build(
        gallery={"alice": ["figurine"]},
        task={"bob": "bowl"},
        hand={"alice": ["kite", "cup", "frog"]},
    )
    mot.play(state, "alice", mot.task("kite"))
    assert mot.prompt(state) == ("alice", "effect")
    assert uses(mot, state) == [use("figurine", target="cup")]
    events = mot.play(state, "alice", use("figurine", target="cup"))
    start = next(e for e in events if e.kind == "task-start")
    assert start.data["actions"] == 2 and start.data["extra"] == 1
    assert not any(e.barrier for e in events)
    line = "Figurine: alice reveals Cup [CLAY] from their hand."
    assert line in mot.lines(events, "bob") and state.revealed == {
        "seat": "alice",
        "cards": ["cup"],
    }
    assert "cup" in state.players["alice"].hand  # the card stays in hand


def test_figurine_may_be_declined(mot):
    state = mot.build(
        gallery={"alice": ["figurine"]}, task={"bob": "bowl"}, hand={"alice": ["kite", "cup"]}
    )
    mot.play(state, "alice", mot.task("kite"))
    mot.play(state, "alice", mot.DONE)
    assert state.task["total"] == 1


def test_figurine_once_per_task_and_not_on_your_own(mot):
    """Figurine: at most +1 per opponent task (once per trigger); never on your own task."""
    state = mot.build(
        gallery={"alice": ["figurine"]},
        task={"bob": "bowl"},
        hand={"alice": ["jar", "cup", "dice"]},
    )
    mot.play(state, "alice", mot.task("jar"))
    mot.play(state, "alice", use("figurine", target="cup"))
    assert mot.prompt(state) == ("alice", "action")  # no second Figurine on bob's task
    mot.play(state, "alice", mot.PRAYER)
    mot.play(state, "alice", mot.PRAYER)
    assert mot.prompt(state) == ("alice", "action") and state.task["owner"] == "alice"
    assert state.task["total"] == 1  # own POTTER task: Figurine not offered


def test_figurine_needs_a_card_of_the_tasks_material(mot):
    state = mot.build(
        gallery={"alice": ["figurine"]}, task={"bob": "bowl"}, hand={"alice": ["kite"]}
    )
    mot.play(state, "alice", mot.task("kite"))
    assert mot.prompt(state) == ("alice", "action")


def test_flag_reveals_a_matching_card_for_one_more_action_on_your_own_task(mot):
    """Flag: before your own task, reveal a hand card of its material: +1 action."""
    state = mot.build(gallery={"alice": ["flag"]}, hand={"alice": ["kite", "quilt"]})
    mot.play(state, "alice", mot.task("kite"))
    assert uses(mot, state) == [use("flag", target="quilt")]
    events = mot.play(state, "alice", use("flag", target="quilt"))
    assert state.task["total"] == 2
    assert "Flag: alice reveals Quilt [CLOTH] from their hand." in mot.lines(events, None)


def test_flag_may_be_declined_and_not_on_an_opponents_task(mot):
    state = mot.build(
        gallery={"alice": ["flag"]}, task={"bob": "tapestry"}, hand={"alice": ["kite", "quilt"]}
    )
    mot.play(state, "alice", mot.task("kite"))
    assert state.task["owner"] == "bob" and mot.prompt(state) == ("alice", "action")
    mot.play(state, "alice", mot.PRAYER)
    assert state.task["owner"] == "alice" and mot.prompt(state) == ("alice", "effect")
    mot.play(state, "alice", mot.DONE)
    assert state.task["total"] == 1


def test_fountain_reveals_stone_cards_as_covered_clerk_helpers(mot):
    """Rules glossary (M-R6): Fountain's helpers are CLERK helpers and can be covered."""
    state = mot.build(
        gallery={"alice": ["fountain", "scroll"]}, hand={"alice": ["doll", "frog", "tower"]}
    )
    mot.play(state, "alice", mot.task("doll"))
    offered = uses(mot, state)
    assert offered == [
        use("fountain", cards=["frog"]),
        use("fountain", cards=["tower"]),
        use("fountain", cards=["frog", "tower"]),
    ]
    events = mot.play(state, "alice", use("fountain", cards=["frog"]))
    start = next(e for e in events if e.kind == "task-start")
    assert start.data["actions"] == 3 and start.data["covered"]  # 1 + 2 (covered by Scroll)
    assert state.revealed == {"seat": "alice", "cards": ["frog"]}


def test_fountain_helpers_past_the_cover_are_all_uncovered(mot):
    """Rules: Cover is all or nothing: 2 revealed, one PAPER work: 1 + 2 actions."""
    state = mot.build(
        gallery={"alice": ["fountain", "scroll"]}, hand={"alice": ["doll", "frog", "tower"]}
    )
    mot.play(state, "alice", mot.task("doll"))
    events = mot.play(state, "alice", use("fountain", cards=["frog", "tower"]))
    start = next(e for e in events if e.kind == "task-start")
    assert start.data["actions"] == 3 and not start.data["covered"]


def test_fountain_may_be_declined_and_only_before_a_clerk_task(mot):
    state = mot.build(
        gallery={"alice": ["fountain"]}, task={"bob": "kite"}, hand={"alice": ["doll", "frog"]}
    )
    mot.play(state, "alice", mot.task("doll"))
    assert state.task["owner"] == "bob" and mot.prompt(state) == ("alice", "action")  # TAILOR
    mot.play(state, "alice", mot.PRAYER)
    assert mot.prompt(state) == ("alice", "effect")
    mot.play(state, "alice", mot.DONE)
    assert state.task["total"] == 1 and "helpers" not in state.task


def test_fountain_reveal_keeps_its_cards_in_place_when_resampled(mot):
    """M-R17: a reveal is public until the next decision; resampling leaves it in hand."""
    state = mot.build(gallery={"alice": ["fountain"]}, hand={"alice": ["doll", "frog", "tower"]})
    mot.play(state, "alice", mot.task("doll"))
    mot.play(state, "alice", use("fountain", cards=["frog"]))
    for i in range(5):
        other = mot.engine.resample(state, "bob", Rng.for_entry(b"fountain", i))
        assert "frog" in other.players["alice"].hand
        assert mot.engine.view(other, "bob") == mot.engine.view(state, "bob")
