"""Card effects implemented so far through the framework, each test named after its card.

The rest play as plain works (``arbiter games`` lists them); issue 5 implements them.
"""

from __future__ import annotations

from arbiter.games.mottainai import scoring


def test_scroll_scores_three_points(mot):
    """Scroll (END): +3 points at the end."""
    state = mot.build(gift_shop={"alice": ["scroll"]}, hand={"alice": ["kite"]})
    s = scoring.score(state)["seats"]["alice"]
    assert s["parts"]["cards"] == 3 and s["card_points"] == {"scroll": 3}
    assert s["parts"]["total"] == 1 + 3


def test_bench_scores_two_per_stone_work_itself_included(mot):
    """Bench (END): +2 per STONE work, Bench counted (M-R11: each once)."""
    state = mot.build(
        gallery={"alice": ["bench", "frog"]}, gift_shop={"alice": ["kite"]}, hand={"alice": ["jar"]}
    )
    assert scoring.score(state)["seats"]["alice"]["card_points"] == {"bench": 4}


def test_bowl_puts_the_top_card_in_the_craft_bench_and_is_a_barrier(mot):
    """Bowl (morning): the deck's top card goes face up into the craft bench."""
    state = mot.build(gallery={"alice": ["bowl"]}, hand={"alice": ["kite"]}, deck=["jar"])
    assert mot.prompt(state) == ("alice", "effect")
    events = mot.play(state, "alice", {"kind": "use", "card": "bowl"})
    assert state.players["alice"].bench == ["jar"]
    moved = next(e for e in events if e.kind == "moved")
    assert (
        moved.barrier
        and mot.lines([moved])[0] == "Bowl: Jar [CLAY] goes from the deck to alice's craft bench."
    )
    assert mot.prompt(state) == ("alice", "task")


def test_bowl_may_be_declined(mot):
    """Bowl (rules FAQ: effects are optional)."""
    state = mot.build(gallery={"alice": ["bowl"]}, hand={"alice": ["kite"]}, deck=["jar"])
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].bench == [] and state.deck[0] == "jar"


def test_stool_draws_after_a_stone_clay_or_metal_work_not_after_paper(mot):
    """Stool (after a work): a STONE/CLAY/METAL work lets you draw a card; PAPER does not."""
    state = mot.build(
        gallery={"alice": ["stool"]}, hand={"alice": ["bell", "tower", "frog", "crane"]}
    )
    mot.play(state, "alice", mot.task("bell"))
    state.task["total"] = 2  # two actions for this test
    mot.play(state, "alice", mot.smith("crane", []))
    assert mot.prompt(state) == ("alice", "action")  # PAPER: nothing offered
    mot.play(state, "alice", mot.smith("tower", ["frog"]))
    assert mot.prompt(state) == ("alice", "effect")
    events = mot.play(state, "alice", {"kind": "use", "card": "stool"})
    draw = next(e for e in events if e.kind == "draw")
    assert draw.data == {"seat": "alice", "count": 1, "why": "stool"} and not draw.barrier


def test_stool_triggers_on_its_own_completion(mot):
    """Stool (M-R9): it is in play once placed, so its own completion triggers it."""
    state = mot.build(hand={"alice": ["bell", "stool", "frog"]})
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("stool", ["frog"]))
    assert [a.get("card") for a in mot.legal(state)] == ["stool", None]
