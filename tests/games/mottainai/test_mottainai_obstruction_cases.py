"""Mottainai rules cases MOT-17: what a player is told on a task its owner obstructs.

A refusal caused by an obstruction card names that card and what it asks (Mask, Curtain,
Tower: ``mottainai-rules-summary.en.txt``, glossary and FAQ; rulings M-R4, M-R55, M-R56).
"""

from __future__ import annotations


def _masked_potter_task(mot):
    """Alice reaches bob's POTTER task; bob has Mask; alice's bench could pay for a Vase."""
    state = mot.build(
        gallery={"bob": ["mask"]},
        bench={"alice": ["jar", "cup"]},
        hand={"alice": ["coin", "vase"]},
        task={"bob": "teapot"},
        floor=["bowl"],
    )
    mot.play(state, "alice", mot.task("coin"))
    assert mot.prompt(state) == ("alice", "action") and state.task["owner"] == "bob"
    return state


def test_MOT_17_1_a_craft_refused_under_mask_names_mask_not_the_bench(mot):
    """MOT-17.1 (Mask, rules FAQ; M-R4, M-R56): on a Mask owner's task a CRAFT is refused
    because of Mask, even when the craft bench holds the supports; the refusal and the
    rule it cites name Mask and what it forbids. PRAYER likewise."""
    state = _masked_potter_task(mot)
    refused = mot.illegal(state, "alice", mot.craft("vase"))
    assert "bob's Mask forbids CRAFT and PRAYER" in refused.message
    assert "take its own action (potter) or done" in refused.message
    assert "craft bench" not in refused.message  # the bench holds 2 CLAY: not the reason
    assert refused.rule is not None and "Mask" in refused.rule
    refused = mot.illegal(state, "alice", mot.PRAYER)
    assert "bob's Mask forbids CRAFT and PRAYER" in refused.message and "Mask" in refused.rule
    refused = mot.illegal(state, "alice", {"kind": "tailor"})
    assert "under bob's Mask: take potter or done" in refused.message
    hint = mot.engine.prompt(state).detail["hint"]
    assert "bob's Mask" in hint and "no craft or prayer" in hint
    mot.play(state, "alice", {"kind": "potter", "card": "bowl"})  # its own action is fine


def test_MOT_17_2_the_curtain_and_tower_prompt_says_what_it_asks(mot):
    """MOT-17.2 (Curtain, Tower; M-R55): the reveal prompt names the card, the task, the
    material to reveal (the card stays in hand) and that done skips the whole task; it
    says nothing about the hand (here it holds no CLOTH)."""
    state = mot.build(
        gallery={"bob": ["curtain"]}, hand={"alice": ["bell", "frog"]}, task={"bob": "quilt"}
    )
    mot.play(state, "alice", mot.task("bell"))
    prompt = mot.engine.prompt(state)
    assert (prompt.seat, prompt.kind) == ("alice", "effect")
    detail = prompt.detail
    assert (detail["moment"], detail["owner"], detail["task"], detail["material"]) == (
        "obstruction",
        "bob",
        "TAILOR",
        "CLOTH",
    )
    hint = detail["hint"]
    assert hint.startswith("bob's Curtain guards their TAILOR task: reveal a CLOTH card")
    assert "stays in your hand" in hint and "done to skip the task" in hint
    assert "Frog" not in hint and "frog" not in hint
    state = mot.build(
        gallery={"bob": ["tower"]}, hand={"alice": ["bell", "frog"]}, task={"bob": "statue"}
    )
    mot.play(state, "alice", mot.task("bell"))
    hint = mot.engine.prompt(state).detail["hint"]
    assert hint.startswith("bob's Tower guards their MONK task: reveal a STONE card")


def test_MOT_17_3_a_reveal_of_the_wrong_material_says_which_is_needed(mot):
    """MOT-17.3 (Curtain, Tower; M-R55): revealing a card of another material is refused
    with the material the task needs, citing the card; so are a card not in hand and a
    reveal of more than one card."""
    state = mot.build(
        gallery={"bob": ["curtain"]},
        hand={"alice": ["bell", "frog", "robe"]},
        task={"bob": "quilt"},
    )
    mot.play(state, "alice", mot.task("bell"))
    refused = mot.illegal(state, "alice", {"kind": "use", "card": "curtain", "cards": ["frog"]})
    assert refused.message.startswith("Frog is STONE: bob's Curtain opens their TAILOR task")
    assert "a revealed CLOTH card" in refused.message and refused.rule == "Card: Curtain"
    refused = mot.illegal(state, "alice", {"kind": "use", "card": "curtain", "cards": ["jar"]})
    assert refused.message.startswith("jar is not in your hand")
    refused = mot.illegal(
        state, "alice", {"kind": "use", "card": "curtain", "cards": ["robe", "frog"]}
    )
    assert "reveal exactly one CLOTH card" in refused.message
    mot.play(state, "alice", {"kind": "use", "card": "curtain", "cards": ["robe"]})
    state = mot.build(
        gallery={"bob": ["tower"]},
        hand={"alice": ["bell", "jar", "frog"]},
        task={"bob": "statue"},
    )
    mot.play(state, "alice", mot.task("bell"))
    refused = mot.illegal(state, "alice", {"kind": "use", "card": "tower", "cards": ["jar"]})
    assert refused.message.startswith("Jar is CLAY: bob's Tower opens their MONK task")
    assert "a revealed STONE card" in refused.message and refused.rule == "Card: Tower"
