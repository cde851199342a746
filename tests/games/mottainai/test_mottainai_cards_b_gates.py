"""Card effects of issue 5 part B (2/3): obstruction and instead-of effects.

Named after their cards, built with the scenario builder; see test_mottainai_cards_b.py.
"""

from __future__ import annotations

from mottainai_cardkit import use, used_cards, uses


def test_curtain_opponent_reveals_a_matching_card_to_use_the_task(mot):
    """Curtain: on the owner's TAILOR task an opponent reveals CLOTH (it stays in hand)
    and then performs the whole task."""
    state = mot.build(
        gallery={"bob": ["curtain"]},
        helpers={"alice": ["kite"]},
        hand={"alice": ["bell", "mask", "robe"]},
        task={"bob": "quilt"},
    )
    mot.play(state, "alice", mot.task("bell"))
    assert mot.prompt(state) == ("alice", "effect")
    assert mot.legal(state) == [
        use("curtain", cards=["mask"]),
        use("curtain", cards=["robe"]),
        mot.DONE,
    ]
    events = mot.play(state, "alice", use("curtain", cards=["robe"]))
    assert "alice reveals Robe [CLOTH] to use bob's task (Curtain)." in mot.lines(events, "bob")
    assert "robe" in state.players["alice"].hand
    assert mot.engine.view(state, "bob")["revealed"] == {"seat": "alice", "cards": ["robe"]}
    assert state.task["owner"] == "bob" and state.task["total"] == 2  # helpers still count


def test_curtain_without_a_reveal_the_task_is_skipped(mot):
    """Curtain: no reveal (done, or nothing to reveal): no action at all on that task."""
    state = mot.build(
        gallery={"bob": ["curtain"]}, hand={"alice": ["bell", "frog"]}, task={"bob": "quilt"}
    )
    mot.play(state, "alice", mot.task("bell"))
    assert mot.legal(state) == [mot.DONE]  # asked even without CLOTH: the hand stays hidden
    events = mot.play(state, "alice", mot.DONE)
    assert "alice reveals nothing and skips bob's task (Curtain)." in mot.lines(events)
    assert state.task["owner"] == "alice"  # straight to her own task


def test_curtain_limits_tailor_and_smith_tasks_and_not_the_owners_own(mot):
    """Curtain: a CLERK task is open; on its owner's own turn it does nothing."""
    state = mot.build(gallery={"bob": ["curtain"]}, hand={"alice": ["bell"]}, task={"bob": "crane"})
    mot.play(state, "alice", mot.task("bell"))
    assert mot.prompt(state) == ("alice", "action") and state.task["owner"] == "bob"
    state = mot.build(gallery={"alice": ["curtain"]}, hand={"alice": ["bell", "coin"]})
    mot.play(state, "alice", mot.task("bell"))
    assert mot.prompt(state) == ("alice", "action") and state.task["owner"] == "alice"


def test_tower_gates_clerk_monk_and_potter_tasks(mot):
    """Tower: an opponent reveals a card of the task's material (STONE for MONK) or skips."""
    state = mot.build(
        gallery={"bob": ["tower"]},
        hand={"alice": ["bell", "frog", "jar"]},
        task={"bob": "statue"},
        floor=["cup"],
    )
    mot.play(state, "alice", mot.task("bell"))
    assert mot.legal(state) == [use("tower", cards=["frog"]), mot.DONE]
    mot.play(state, "alice", use("tower", cards=["frog"]))
    mot.play(state, "alice", {"kind": "monk", "card": "cup"})
    assert state.players["alice"].helpers == ["cup"]


def test_tower_skipped_and_not_on_tailor_tasks(mot):
    """Tower: done skips the task; a TAILOR task is not gated by Tower."""
    state = mot.build(
        gallery={"bob": ["tower"]}, hand={"alice": ["bell", "frog"]}, task={"bob": "statue"}
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.DONE)
    assert state.task["owner"] == "alice"
    state = mot.build(gallery={"bob": ["tower"]}, hand={"alice": ["bell"]}, task={"bob": "quilt"})
    mot.play(state, "alice", mot.task("bell"))
    assert mot.prompt(state) == ("alice", "action")


def test_mask_opponents_take_only_the_tasks_own_action(mot):
    """Mask: on the owner's task no CRAFT and no PRAYER; boosters of that action remain."""
    state = mot.build(
        gallery={"bob": ["mask"], "alice": ["bell"]},
        bench={"alice": ["fan", "doll"]},
        hand={"alice": ["coin", "scroll"]},
        task={"bob": "crane"},
    )
    mot.play(state, "alice", mot.task("coin"))
    legal = mot.legal(state)
    assert {a["kind"] for a in legal} == {"clerk", "use", "done"}
    mot.illegal(state, "alice", mot.PRAYER)
    mot.illegal(state, "alice", mot.craft("scroll"))
    mot.play(state, "alice", {"kind": "clerk", "card": "fan"})
    assert mot.PRAYER in mot.legal(state)  # her own task: Mask does nothing


def test_faq_mask_lets_an_action_be_skipped(mot):
    """Rules FAQ (M-R4): under Mask an action that cannot be done may be skipped (done)."""
    state = mot.build(gallery={"bob": ["mask"]}, hand={"alice": ["coin"]}, task={"bob": "crane"})
    mot.play(state, "alice", mot.task("coin"))
    assert mot.legal(state) == [mot.DONE]  # empty craft bench: no CLERK possible
    events = mot.play(state, "alice", mot.DONE)
    assert "alice skips this action (Mask)." in mot.lines(events)
    assert state.task["owner"] == "alice"


def test_bangle_opponents_get_no_helper_actions_on_its_owners_task(mot):
    """Bangle: an opponent's helpers give nothing on the owner's task; on others they do."""
    state = mot.build(
        mot.SEATS3,
        gallery={"bob": ["bangle"]},
        helpers={"alice": ["crane", "doll"]},
        hand={"alice": ["coin"]},
        task={"bob": "fan", "carol": "plane"},
    )
    events = mot.play(state, "alice", mot.task("coin"))
    starts = [e.data for e in events if e.kind == "task-start"]
    assert (starts[0]["owner"], starts[0]["actions"]) == ("bob", 1)


def test_bangle_stone_helpers_of_its_owner_are_always_covered(mot):
    """Bangle: all the owner's STONE helpers count as covered (2 actions each)."""
    state = mot.build(
        gallery={"alice": ["bangle"]},
        helpers={"alice": ["frog", "statue", "tablet"]},
        hand={"alice": ["amulet"]},
    )
    events = mot.play(state, "alice", mot.task("amulet"))
    start = next(e for e in events if e.kind == "task-start")
    assert start.data["actions"] == 1 + 2 * 3 and start.data["covered"]


# -- instead of a Morning step (Chopsticks, Handkerchief, Sketch, Doll) ---------------------


def test_chopsticks_puts_the_old_task_in_sales(mot):
    """Chopsticks: instead of discarding the old task to the floor, it becomes a sale."""
    state = mot.build(
        gallery={"alice": ["chopsticks"]}, task={"alice": "jar"}, hand={"alice": ["fan"]}
    )
    assert mot.prompt(state) == ("alice", "old-task")
    events = mot.play(state, "alice", use("chopsticks"))
    assert state.players["alice"].sales == ["jar"] and "jar" not in state.floor
    assert "Morning: alice's old task Jar [CLAY] goes to their sales (Chopsticks)." in mot.lines(
        events
    )
    assert mot.prompt(state) == ("alice", "task")


def test_chopsticks_may_be_declined_and_not_for_the_face_down_card(mot):
    """Chopsticks: done discards as usual; the face-down initial card is no task (M-R54)."""
    state = mot.build(
        gallery={"alice": ["chopsticks"]}, task={"alice": "jar"}, hand={"alice": ["fan"]}
    )
    mot.play(state, "alice", mot.DONE)
    assert state.floor == ["jar"] and state.players["alice"].sales == []
    state = mot.build(
        gallery={"alice": ["chopsticks"]}, face_down={"alice": "jar"}, hand={"alice": ["fan"]}
    )
    assert mot.prompt(state) == ("alice", "task") and state.floor == ["jar"]


def test_handkerchief_puts_a_hand_card_on_the_floor_instead_of_the_limit(mot):
    """Handkerchief: with 7 cards, one card to the floor replaces returning down to 5."""
    hand = ["fan", "jar", "vase", "cup", "bell", "gong", "ring"]
    state = mot.build(gallery={"alice": ["handkerchief"]}, hand={"alice": hand})
    assert mot.prompt(state) == ("alice", "return")
    events = mot.play(state, "alice", use("handkerchief", target="jar"))
    assert state.floor == ["jar"] and len(state.players["alice"].hand) == 6
    assert "Morning: alice puts Jar [CLAY] from hand on the floor (Handkerchief)." in mot.lines(
        events, "bob"
    )
    assert mot.prompt(state) == ("alice", "task")  # the hand-limit step is over


def test_faq_handkerchief_at_or_below_the_hand_limit(mot):
    """Rules glossary: Handkerchief may be used even at or below the hand limit."""
    state = mot.build(gallery={"alice": ["handkerchief"]}, hand={"alice": ["fan", "jar"]})
    assert mot.prompt(state) == ("alice", "return")
    assert mot.legal(state) == [
        use("handkerchief", target="fan"),
        use("handkerchief", target="jar"),
        mot.DONE,
    ]
    mot.play(state, "alice", use("handkerchief", target="fan"))
    assert state.floor == ["fan"]


def test_handkerchief_may_be_declined_and_is_gone_once_a_card_is_returned(mot):
    """Handkerchief: optional; after a hand-limit return it no longer replaces the step."""
    hand = ["fan", "jar", "vase", "cup", "bell", "gong"]
    state = mot.build(gallery={"alice": ["handkerchief"]}, hand={"alice": hand})
    mot.play(state, "alice", mot.ret("gong"))
    assert "handkerchief" not in used_cards(mot, state)
    assert state.floor == []


def test_sketch_makes_a_helper_the_task(mot):
    """Sketch: instead of a hand card, one of your helpers becomes the task."""
    state = mot.build(
        gallery={"alice": ["sketch"]}, helpers={"alice": ["frog"]}, hand={"alice": ["fan"]}
    )
    assert uses(mot, state) == [use("sketch", target="frog")]
    events = mot.play(state, "alice", use("sketch", target="frog"))
    p = state.players["alice"]
    assert p.helpers == [] and p.task == "frog" and p.hand == ["fan"]
    assert "Morning: alice takes their MONK helper Frog as the task (Sketch)." in mot.lines(events)
    assert state.task["owner"] == "alice" and state.task["material"] == "STONE"


def test_sketch_may_be_declined(mot):
    """Sketch: optional: a hand card is chosen as usual."""
    state = mot.build(
        gallery={"alice": ["sketch"]}, helpers={"alice": ["frog"]}, hand={"alice": ["fan"]}
    )
    mot.play(state, "alice", mot.task("fan"))
    assert state.players["alice"].helpers == ["frog"]


def test_doll_takes_an_opponents_task_with_one_more_action(mot):
    """Doll: take an opponent's task as yours (+1 action); they have none this Noon."""
    state = mot.build(
        mot.SEATS3,
        gallery={"alice": ["doll"]},
        hand={"alice": ["fan"]},
        task={"bob": "frog", "carol": "jar"},
    )
    assert uses(mot, state) == [use("doll", target="bob"), use("doll", target="carol")]
    events = mot.play(state, "alice", use("doll", target="bob"))
    assert state.players["bob"].task is None and state.players["alice"].task == "frog"
    assert "Morning: alice takes bob's task MONK (Frog) as their own, +1 action (Doll)." in (
        mot.lines(events)
    )
    owners = [e.data["owner"] for e in events if e.kind == "task-start"]
    assert owners == ["carol"]  # bob's task is gone
    mot.play(state, "alice", mot.PRAYER)
    assert state.task["owner"] == "alice" and state.task["total"] == 2


def test_doll_may_be_declined_and_never_takes_a_face_down_task(mot):
    """Doll: optional; M-R14: a face-down initial card cannot be taken."""
    state = mot.build(
        gallery={"alice": ["doll"]}, hand={"alice": ["fan"]}, face_down={"bob": "jar"}
    )
    assert uses(mot, state) == []
    mot.play(state, "alice", mot.task("fan"))
    assert state.players["alice"].task == "fan"


def test_glossary_sketch_and_doll_are_exclusive(mot):
    """Rules glossary: you cannot use both Sketch and Doll (both replace choosing a task)."""
    state = mot.build(
        gallery={"alice": ["sketch", "doll"]},
        helpers={"alice": ["frog"]},
        hand={"alice": ["fan"]},
        task={"bob": "jar"},
    )
    assert used_cards(mot, state) == ["sketch", "doll"]
    mot.play(state, "alice", use("doll", target="bob"))
    assert mot.prompt(state) != ("alice", "task")
    mot.illegal(state, "alice", use("sketch", target="frog"))
    assert state.players["alice"].helpers == ["frog"]


# -- morning / night (Daidoro, Kite, Pin, Pinwheel, Umbrella) -------------------------------
