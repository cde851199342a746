"""Card effects of issue 5 part B: action boosters, obstruction, instead-of, morning/night
and before a TAILOR action.

Each test is named after its card and built with the scenario builder (exact tables, no
shuffle), driving real decisions through ``check`` and ``apply``: the main effect, the
"may" declined, each limit of the text; the rules FAQ and glossary answers have tests
of their own (``test_faq_…``, ``test_glossary_…``).
"""

from __future__ import annotations

from typing import Any

from arbiter.games.mottainai import scoring
from arbiter.games.mottainai.effects import missing
from arbiter.games.mottainai.state import PUBLIC


def use(card: str, **params: Any) -> dict[str, Any]:
    return {"kind": "use", "card": card, **params}


def uses(mot, state) -> list[dict[str, Any]]:
    return [a for a in mot.legal(state) if a["kind"] == "use"]


def used_cards(mot, state) -> list[str]:
    return [a["card"] for a in uses(mot, state)]


def barrier_kinds(events) -> list[str]:
    """Return the kinds of the barrier events (Night, which ends every turn, left out)."""
    return [e.kind for e in events if e.barrier and e.kind != "night"]


PART_B = [
    "bell",
    "brick",
    "crane",
    "flute",
    "robe",
    "socks",
    "straw",
    "sword",
    "bangle",
    "curtain",
    "mask",
    "tower",
    "chopsticks",
    "handkerchief",
    "sketch",
    "doll",
    "daidoro",
    "kite",
    "pin",
    "pinwheel",
    "umbrella",
    "dice",
    "fan",
    "puppet",
]


def test_part_b_cards_are_no_longer_listed_as_missing():
    assert not set(PART_B) & set(missing())


# -- action boosters: CLERK (Bell, Robe) ----------------------------------------------------


def test_bell_sells_the_deck_top_card_and_is_a_barrier(mot):
    """Bell: on a CLERK action the card sold may be the deck's top card (face up)."""
    state = mot.build(gallery={"alice": ["bell"]}, hand={"alice": ["scroll"]}, deck=["jar"])
    mot.play(state, "alice", mot.task("scroll"))
    assert use("bell") in mot.legal(state)
    events = mot.play(state, "alice", use("bell"))
    assert state.players["alice"].sales == ["jar"] and state.deck[0] != "jar"
    assert barrier_kinds(events) == ["moved"]
    assert "Bell: Jar [CLAY] goes from the deck to alice's sales." in mot.lines(events, "bob")


def test_bell_may_be_declined(mot):
    """Bell (rules FAQ: effects are optional): the plain CLERK and PRAYER remain."""
    state = mot.build(
        gallery={"alice": ["bell"]},
        bench={"alice": ["fan"]},
        hand={"alice": ["scroll"]},
        deck=["jar"],
    )
    mot.play(state, "alice", mot.task("scroll"))
    mot.play(state, "alice", {"kind": "clerk", "card": "fan"})
    assert state.players["alice"].sales == ["fan"] and state.deck[0] == "jar"


def test_bell_only_on_clerk_actions_but_on_any_players_task(mot):
    """Bell: every CLERK action its owner takes, an opponent's task too; not on MONK."""
    state = mot.build(gallery={"alice": ["bell"]}, hand={"alice": ["frog"]}, task={"bob": "crane"})
    mot.play(state, "alice", mot.task("frog"))
    assert mot.prompt(state) == ("alice", "action")
    assert state.task["owner"] == "bob" and use("bell") in mot.legal(state)
    mot.play(state, "alice", mot.PRAYER)
    assert state.task["owner"] == "alice"  # her MONK task
    assert "bell" not in used_cards(mot, state)


def test_robe_sells_every_craft_bench_card_of_one_material_in_one_action(mot):
    """Robe: a CLERK action may move every bench card of one material to sales."""
    state = mot.build(
        gallery={"alice": ["robe"]},
        bench={"alice": ["jar", "vase", "bell"]},
        hand={"alice": ["scroll"]},
    )
    mot.play(state, "alice", mot.task("scroll"))
    assert uses(mot, state) == [use("robe", material="CLAY")]  # limit: one METAL is a CLERK
    events = mot.play(state, "alice", use("robe", material="CLAY"))
    p = state.players["alice"]
    assert p.sales == ["jar", "vase"] and p.bench == ["bell"]
    assert "alice sells 2 CLAY from the craft bench (CLERK, Robe)." in mot.lines(events)
    assert mot.prompt(state) == ("bob", "task")  # it was one action: the task is over


def test_robe_may_be_declined(mot):
    """Robe (effects optional): a plain CLERK sells one card."""
    state = mot.build(
        gallery={"alice": ["robe"]}, bench={"alice": ["jar", "vase"]}, hand={"alice": ["scroll"]}
    )
    mot.play(state, "alice", mot.task("scroll"))
    mot.play(state, "alice", {"kind": "clerk", "card": "vase"})
    assert state.players["alice"].sales == ["vase"] and state.players["alice"].bench == ["jar"]


# -- action boosters: MONK / POTTER (Socks, Flute, Sword) ------------------------------------


def test_socks_collects_the_deck_top_card_and_is_a_barrier(mot):
    """Socks: a POTTER action may take the deck's top card into the craft bench."""
    state = mot.build(gallery={"alice": ["socks"]}, hand={"alice": ["cup"]}, deck=["fan"])
    mot.play(state, "alice", mot.task("cup"))
    events = mot.play(state, "alice", use("socks"))
    assert state.players["alice"].bench == ["fan"]
    assert barrier_kinds(events) == ["moved"]


def test_socks_may_be_declined_and_not_on_other_tasks(mot):
    """Socks: optional; and only POTTER actions (not a CLERK task)."""
    state = mot.build(
        gallery={"alice": ["socks"]},
        hand={"alice": ["cup"]},
        floor=["frog"],
        deck=["fan"],
        task={"bob": "crane"},
    )
    mot.play(state, "alice", mot.task("cup"))
    assert "socks" not in used_cards(mot, state)  # bob's CLERK task
    mot.play(state, "alice", mot.PRAYER)
    mot.play(state, "alice", {"kind": "potter", "card": "frog"})
    assert state.players["alice"].bench == ["frog"]


def test_flute_takes_an_opponents_task_or_paper_work(mot):
    """Flute (M-R5): MONK/POTTER may take an opponent's task (any material) or PAPER work;
    a task taken before it is performed is not performed (no task)."""
    state = mot.build(
        mot.SEATS3,
        gallery={"alice": ["flute"], "carol": ["scroll", "frog"]},
        hand={"alice": ["bell"]},
        task={"bob": "tower", "carol": "coin"},
    )
    mot.play(state, "alice", mot.task("bell"))
    assert state.task["owner"] == "bob"  # a MONK task
    assert sorted(a["target"] for a in uses(mot, state)) == ["coin", "scroll", "tower"]
    events = mot.play(state, "alice", use("flute", target="coin"))
    assert state.players["alice"].helpers == ["coin"] and state.players["carol"].task is None
    assert "alice takes Coin [METAL] from carol's task as a helper (MONK), with Flute." in (
        mot.lines(events)
    )
    # carol's task is gone: next comes alice's own SMITH task.
    assert state.task["owner"] == "alice"


def test_flute_may_be_declined_and_never_takes_a_face_down_task(mot):
    """Flute: optional; M-R14: the face-down initial task is no task to take."""
    state = mot.build(
        gallery={"alice": ["flute"]},
        hand={"alice": ["frog"]},
        floor=["jar"],
        face_down={"bob": "coin"},
    )
    mot.play(state, "alice", mot.task("frog"))  # bob has no face-up task: alice's MONK
    assert "flute" not in used_cards(mot, state)
    mot.play(state, "alice", {"kind": "monk", "card": "jar"})
    assert state.players["alice"].helpers == ["jar"]


def test_sword_hires_from_an_opponent_with_more_helpers_only(mot):
    """Sword: MONK may hire an opponent's helper if they have more helpers than you."""
    state = mot.build(
        mot.SEATS3,
        gallery={"alice": ["sword"]},
        helpers={"alice": ["fan"], "bob": ["jar", "vase"], "carol": ["cup"]},
        hand={"alice": ["frog"]},
    )
    mot.play(state, "alice", mot.task("frog"))
    # carol has 1 helper, like alice: not a target (limit).
    assert sorted(a["target"] for a in uses(mot, state)) == ["jar", "vase"]
    mot.play(state, "alice", use("sword", target="vase"))
    assert state.players["alice"].helpers == ["fan", "vase"]
    assert state.players["bob"].helpers == ["jar"]


def test_sword_collects_from_a_larger_craft_bench_or_is_declined(mot):
    """Sword: POTTER may take from an opponent's bench holding more cards; optional."""
    state = mot.build(
        gallery={"alice": ["sword"]},
        bench={"bob": ["jar"]},
        hand={"alice": ["cup", "teapot"]},
        floor=["vase"],
    )
    mot.play(state, "alice", mot.task("cup"))
    assert uses(mot, state) == [use("sword", target="jar")]
    state.task["total"] = 2  # two actions for this test
    mot.play(state, "alice", use("sword", target="jar"))
    assert state.players["alice"].bench == ["jar"]
    assert "sword" not in used_cards(mot, state)  # equal benches now (limit)
    mot.play(state, "alice", {"kind": "potter", "card": "vase"})


# -- action boosters: SMITH / CRAFT (Straw, Crane, Brick) -----------------------------------


def test_straw_smith_needs_one_support_fewer_for_cloth_and_clay(mot):
    """Straw: SMITH of CLOTH needs 0 supports, CLAY 1; METAL and STONE unchanged."""
    state = mot.build(
        gallery={"alice": ["straw"]}, hand={"alice": ["bell", "kite", "jar", "vase", "frog"]}
    )
    mot.play(state, "alice", mot.task("bell"))
    smiths = [a for a in mot.legal(state) if a["kind"] == "smith"]
    assert mot.smith("kite", []) in smiths and mot.smith("jar", ["vase"]) in smiths
    assert not any(a["work"] == "frog" for a in smiths)  # STONE still needs one
    mot.play(state, "alice", mot.smith("jar", ["vase"]))
    assert state.players["alice"].gallery == ["straw", "jar"]


def test_straw_does_not_help_a_craft(mot):
    """Straw (limit): "for your SMITH" only: a CRAFT of CLAY still needs 2 on the bench."""
    state = mot.build(
        gallery={"alice": ["straw"]}, bench={"alice": ["cup"]}, hand={"alice": ["jar", "vase"]}
    )
    mot.play(state, "alice", mot.task("jar"))
    assert not any(a["kind"] == "craft" for a in mot.legal(state))


def test_crane_returns_craft_bench_paper_as_supports_for_a_smith(mot):
    """Crane: on a SMITH, PAPER bench cards returned count as supports (M-R52)."""
    state = mot.build(
        gallery={"alice": ["crane"]},
        bench={"alice": ["fan", "doll"]},
        hand={"alice": ["bell", "gong", "ring"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    action = use("crane", target="gong", cards=["doll", "ring"], wing="gift_shop", option="smith")
    assert action in mot.legal(state)
    events = mot.play(state, "alice", action)
    p = state.players["alice"]
    assert p.gift_shop == ["gong"] and p.bench == ["fan"] and p.hand == ["ring"]
    assert state.deck[-1] == "doll" and state.known["doll"] == PUBLIC  # returned in sight
    assert "alice returns Doll (PAPER) from the craft bench as supports (Crane)." in mot.lines(
        events
    )


def test_crane_helps_a_craft_and_may_be_declined(mot):
    """Crane: a CRAFT too (the missing supports, M-R52); declining leaves the bench alone."""
    state = mot.build(
        gallery={"alice": ["crane"]},
        bench={"alice": ["fan", "cup"]},
        hand={"alice": ["jar", "vase"]},
    )
    mot.play(state, "alice", mot.task("vase"))
    assert uses(mot, state) == [
        use("crane", target="jar", cards=["fan"], wing=w, option="craft")
        for w in ("gallery", "gift_shop")
    ]
    mot.play(state, "alice", mot.PRAYER)
    assert state.players["alice"].bench == ["fan", "cup"]


def test_brick_counts_task_slot_cards_as_supports(mot):
    """Brick: SMITH may use cards in any task slot (its own included) as supports."""
    state = mot.build(
        gallery={"alice": ["brick"]},
        hand={"alice": ["bell", "gong"]},
        task={"bob": "ring"},
    )
    mot.play(state, "alice", mot.task("bell"))
    assert mot.prompt(state) == ("alice", "action") and state.task["owner"] == "bob"
    action = use("brick", target="gong", cards=["bell", "ring"], wing="gallery")
    assert action in mot.legal(state)
    mot.play(state, "alice", action)
    assert state.players["alice"].gallery == ["brick", "gong"]
    assert state.players["bob"].task == "ring" and state.players["alice"].task == "bell"


def test_brick_never_counts_a_face_down_task_and_may_be_declined(mot):
    """Brick: M-R14 the face-down card is not a task (M-R53); optional."""
    state = mot.build(
        gallery={"alice": ["brick"]},
        hand={"alice": ["bell", "gong", "ring"]},
        face_down={"bob": "coin"},
    )
    mot.play(state, "alice", mot.task("bell"))
    # Her own task slot (bell) counts; bob's face-down coin does not.
    assert {(a["target"], tuple(a["cards"])) for a in uses(mot, state)} == {
        ("gong", ("bell", "ring")),
        ("ring", ("bell", "gong")),
    }
    mot.play(state, "alice", mot.PRAYER)
    assert state.players["alice"].gallery == ["brick"]


# -- obstruction (Curtain, Tower, Mask, Bangle) ----------------------------------------------


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


def test_daidoro_deals_to_the_floor_until_it_holds_three(mot):
    """Daidoro: deck cards face up onto the floor until 3 lie there; each is a barrier."""
    state = mot.build(
        gallery={"alice": ["daidoro"]}, hand={"alice": ["fan"]}, floor=["jar"], deck=["cup", "vase"]
    )
    events = mot.play(state, "alice", use("daidoro"))
    assert state.floor == ["jar", "cup", "vase"]
    assert barrier_kinds(events) == ["moved", "moved"]
    assert "Daidoro: Cup [CLAY] goes from the deck to the floor." in mot.lines(events, "bob")


def test_daidoro_may_be_declined_and_does_nothing_with_three_on_the_floor(mot):
    """Daidoro: optional; not offered when the floor already holds 3 cards."""
    state = mot.build(gallery={"alice": ["daidoro"]}, hand={"alice": ["fan"]}, floor=["jar"])
    mot.play(state, "alice", mot.DONE)
    assert state.floor == ["jar"]
    state = mot.build(
        gallery={"alice": ["daidoro"]}, hand={"alice": ["fan"]}, floor=["jar", "cup", "vase"]
    )
    assert mot.prompt(state) == ("alice", "task")


def _kite_table(mot, **extra: Any):
    return mot.build(
        gallery={"alice": ["kite"], "bob": ["scroll"]},
        helpers={"alice": ["crane"]},
        hand={"alice": ["fan", "jar"]},
        **extra,
    )


def test_kite_gives_a_card_and_copies_a_work_of_that_player(mot):
    """Kite: a hand card to a player's craft bench, then Kite is one of their works."""
    state = _kite_table(mot)
    assert uses(mot, state) == [
        use("kite", cards=["fan"], target="scroll"),
        use("kite", cards=["jar"], target="scroll"),
    ]
    events = mot.play(state, "alice", use("kite", cards=["jar"], target="scroll"))
    assert state.players["bob"].bench == ["jar"] and state.memo["copies"] == {"kite": "scroll"}
    assert mot.engine.view(state, "bob")["copies"] == {"kite": "scroll"}
    assert (
        "Morning: alice puts Jar [CLAY] in bob's craft bench; Kite becomes Scroll (PAPER 1) "
        "until the turn ends." in mot.lines(events, "bob")
    )


def test_faq_kite_copies_everything_and_stays_a_copy_at_game_end(mot):
    """Rules FAQ: Kite copies value, type and effect (no longer CLOTH); if the game ends
    during the turn it is scored as the copy."""
    from arbiter.games.mottainai.cover import helpers_covered

    state = _kite_table(mot, deck=["cup"], leftover=("bob", "waiting"))
    assert state.deck == ["cup"]  # one card left: alice's PRAYER ends the game
    mot.play(state, "alice", use("kite", cards=["jar"], target="scroll"))
    assert helpers_covered(state, "alice", "PAPER")  # a PAPER work covers her CLERK
    mot.play(state, "alice", mot.NO_TASK)
    assert state.end is not None and state.end["reason"] == "deck"
    s = state.result["seats"]["alice"]
    assert s["card_points"] == {"kite": 3} and s["parts"]["works"] == 1  # Scroll: PAPER 1


def test_kite_may_be_declined_and_the_copy_ends_with_the_turn(mot):
    """Kite: optional; the copy lasts until its owner's turn ends."""
    state = _kite_table(mot)
    mot.play(state, "alice", mot.DONE)
    assert state.memo.get("copies") is None
    state = _kite_table(mot)
    mot.play(state, "alice", use("kite", cards=["jar"], target="scroll"))
    mot.play(state, "alice", mot.NO_TASK)
    assert state.current == "bob" and "copies" not in state.memo


def test_kite_only_copies_works_of_the_player_given_the_card(mot):
    """Kite (M-R12): the card goes to a player with works; its own works count too."""
    state = mot.build(
        gallery={"alice": ["kite", "bowl"]}, hand={"alice": ["fan"]}, helpers={"bob": ["jar"]}
    )
    kites = [a for a in uses(mot, state) if a["card"] == "kite"]
    assert kites == [use("kite", cards=["fan"], target="bowl")]  # bob has no works


def test_pin_takes_a_tailor_action_in_the_morning(mot):
    """Pin: one TAILOR action in the morning (returns, then draw to 5 in all)."""
    state = mot.build(gallery={"alice": ["pin"]}, hand={"alice": ["fan", "jar", "cup"]})
    mot.play(state, "alice", use("pin"))
    assert mot.prompt(state) == ("alice", "tailor")
    events = mot.run(state, "alice", mot.ret("cup"), mot.DONE)
    assert len(state.players["alice"].waiting) == 3
    assert "alice draws 3 cards to the waiting area (TAILOR)." in mot.lines(events)
    assert mot.prompt(state) == ("alice", "task")


def test_faq_pins_tailor_may_become_a_prayer_or_a_craft(mot):
    """Rules FAQ: the TAILOR action from Pin may be replaced by CRAFT or PRAYER."""
    state = mot.build(
        gallery={"alice": ["pin"]}, bench={"alice": ["robe"]}, hand={"alice": ["mask", "jar"]}
    )
    assert use("pin", option="craft", target="mask", wing="gallery") in mot.legal(state)
    mot.play(state, "alice", use("pin", option="craft", target="mask", wing="gallery"))
    assert state.players["alice"].gallery == ["pin", "mask"]
    state = mot.build(gallery={"alice": ["pin"]}, hand={"alice": ["jar"]})
    mot.play(state, "alice", use("pin", option="prayer"))
    assert len(state.players["alice"].waiting) == 1


def test_pin_may_be_declined(mot):
    state = mot.build(gallery={"alice": ["pin"]}, hand={"alice": ["jar"]})
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].waiting == [] and mot.prompt(state) == ("alice", "task")


def _night(mot, **extra: Any):
    state = mot.build(gallery={"alice": ["pinwheel"]}, hand={"alice": ["fan", "jar"]}, **extra)
    mot.play(state, "alice", mot.NO_TASK)  # one PRAYER, then Night
    assert mot.prompt(state) == ("alice", "effect")
    return state


def test_pinwheel_returns_a_hand_card_then_draws_one(mot):
    """Pinwheel: at night return a hand card; then draw a card (before the waiting area
    joins the hand)."""
    state = _night(mot)
    events = mot.play(state, "alice", use("pinwheel", target="jar"))
    assert state.deck[-1] == "jar" and state.known["jar"] == "alice"  # M-R18
    assert "alice returns Jar to the bottom of the deck (Pinwheel)." in mot.lines(events, "alice")
    assert "alice returns a card to the bottom of the deck (Pinwheel)." in mot.lines(events, "bob")
    night = next(e for e in events if e.kind == "night")
    assert len(night.data["cards"]) == 2  # the prayer's card and Pinwheel's


def test_pinwheel_draw_is_optional_and_so_is_pinwheel(mot):
    """Pinwheel: the draw comes only after a return and may be left out; all optional."""
    state = _night(mot)
    events = mot.play(state, "alice", use("pinwheel", target="jar", option="no-draw"))
    assert len(next(e for e in events if e.kind == "night").data["cards"]) == 1
    state = _night(mot)
    events = mot.play(state, "alice", mot.DONE)
    assert len(next(e for e in events if e.kind == "night").data["cards"]) == 1
    assert {"fan", "jar"} <= set(state.players["alice"].hand)


def test_umbrella_turns_a_card_to_the_floor_then_a_helper_to_sales(mot):
    """Umbrella: the deck's top card to the floor (a barrier); then a helper of its
    material may move to sales."""
    state = mot.build(
        gallery={"alice": ["umbrella"]},
        helpers={"alice": ["frog", "jar"]},
        hand={"alice": ["fan"]},
        deck=["statue"],
    )
    events = mot.play(state, "alice", use("umbrella"))
    assert state.floor == ["statue"] and barrier_kinds(events) == ["moved"]
    assert mot.legal(state) == [use("umbrella", target="frog"), mot.DONE]
    events = mot.play(state, "alice", use("umbrella", target="frog"))
    assert state.players["alice"].sales == ["frog"] and state.players["alice"].helpers == ["jar"]
    assert "alice moves their MONK helper Frog to their sales (Umbrella)." in mot.lines(events)


def test_umbrella_may_be_declined_and_asks_nothing_without_a_matching_helper(mot):
    """Umbrella: optional at each step; no STONE helper, no second question."""
    state = mot.build(
        gallery={"alice": ["umbrella"]},
        helpers={"alice": ["frog"]},
        hand={"alice": ["fan"]},
        deck=["statue"],
    )
    mot.play(state, "alice", use("umbrella"))
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].helpers == ["frog"] and mot.prompt(state) == ("alice", "task")
    state = mot.build(
        gallery={"alice": ["umbrella"]},
        helpers={"alice": ["jar"]},
        hand={"alice": ["fan"]},
        deck=["statue"],
    )
    mot.play(state, "alice", use("umbrella"))
    assert mot.prompt(state) == ("alice", "task")


def test_faq_effects_are_optional_and_once_per_trigger(mot):
    """Rules FAQ: each morning effect once per morning, in the player's order, or none."""
    state = mot.build(
        gallery={"alice": ["daidoro", "bowl"]}, hand={"alice": ["fan"]}, deck=["cup", "vase", "jar"]
    )
    mot.play(state, "alice", use("daidoro"))
    assert used_cards(mot, state) == ["bowl"]
    mot.illegal(state, "alice", use("daidoro"))
    mot.play(state, "alice", mot.DONE)
    assert mot.prompt(state) == ("alice", "task")


# -- before a TAILOR action (Dice, Fan, Puppet) ---------------------------------------------


def _tailor(mot, works: list[str], hand: list[str], bob: tuple[str, ...] = (), **extra: Any):
    """alice's own TAILOR task (Quilt), one action: the before-TAILOR trigger is open."""
    hands = {"alice": ["quilt", *hand], "bob": list(bob)}
    state = mot.build(gallery={"alice": works}, hand=hands, **extra)
    mot.play(state, "alice", mot.task("quilt"))
    mot.play(state, "alice", mot.TAILOR)
    assert mot.prompt(state) == ("alice", "effect")
    return state


def test_dice_completes_the_top_card_when_its_value_equals_the_hand_size(mot):
    """Dice: turn up the top card (a barrier); value 2 = 2 cards in hand: a free work."""
    state = _tailor(mot, ["dice"], ["fan", "jar"], deck=["frog"])
    events = mot.play(state, "alice", use("dice"))
    assert barrier_kinds(events) == ["dice"]
    assert "alice turns up Frog [STONE 2] with 2 cards in hand (Dice): it becomes a work." in (
        mot.lines(events, "bob")
    )
    assert mot.legal(state) == [use("dice", wing="gallery"), use("dice", wing="gift_shop")]
    mot.play(state, "alice", use("dice", wing="gift_shop"))
    assert state.players["alice"].gift_shop == ["frog"] and "frog" not in state.deck
    assert mot.prompt(state) == ("alice", "tailor")


def test_dice_card_of_another_value_stays_face_up_on_top(mot):
    """Dice (M-R15): no match: the card stays on top of the deck, public, until drawn."""
    state = _tailor(mot, ["dice"], ["fan", "jar"], deck=["cup"])
    mot.play(state, "alice", use("dice"))
    assert state.deck[0] == "cup" and state.known["cup"] == PUBLIC
    assert mot.prompt(state) == ("alice", "tailor")
    for seat in ("alice", "bob", None):
        assert "cup" in mot.engine.view(state, seat)["deck"]["returned_publicly"]


def test_dice_may_be_declined(mot):
    state = _tailor(mot, ["dice"], ["fan", "jar"], deck=["frog"])
    mot.play(state, "alice", mot.DONE)
    assert state.deck[0] == "frog" and "frog" not in state.known
    assert mot.prompt(state) == ("alice", "tailor")


def test_glossary_before_tailor_effects_not_when_the_tailor_is_replaced(mot):
    """Rules glossary: a TAILOR action replaced by CRAFT or PRAYER opens no Dice/Fan/Puppet."""
    state = mot.build(gallery={"alice": ["dice", "fan"]}, hand={"alice": ["quilt", "jar"]})
    mot.play(state, "alice", mot.task("quilt"))
    mot.play(state, "alice", mot.PRAYER)
    assert mot.prompt(state) == ("bob", "task")


def test_fan_turns_up_three_returns_two_and_puts_one_back_on_top(mot):
    """Fan: the top 3 turned up (a barrier); the player keeps one on top, 2 go to the
    bottom in the order turned up (M-R58); all stay public."""
    state = _tailor(mot, ["fan"], ["jar"], deck=["cup", "vase", "bell"])
    events = mot.play(state, "alice", use("fan"))
    assert barrier_kinds(events) == ["fan"]
    assert "alice turns up the top 3 cards (Fan): Cup [CLAY], Vase [CLAY], Bell [METAL]." in (
        mot.lines(events, "bob")
    )
    assert mot.legal(state) == [use("fan", target=c) for c in ("cup", "vase", "bell")]  # no done
    events = mot.play(state, "alice", use("fan", target="bell"))
    assert state.deck[0] == "bell" and state.deck[-2:] == ["cup", "vase"]
    assert all(state.known[c] == PUBLIC for c in ("cup", "vase", "bell"))
    assert "alice puts Bell back on top and returns Cup, Vase (Fan)." in mot.lines(events, "bob")
    assert mot.prompt(state) == ("alice", "tailor")


def test_fan_may_be_declined(mot):
    state = _tailor(mot, ["fan"], ["jar"], deck=["cup", "vase", "bell"])
    mot.play(state, "alice", mot.DONE)
    assert state.deck[:3] == ["cup", "vase", "bell"] and not state.known


def test_fan_cards_stay_in_place_when_resampled(mot):
    """Hidden information: what Fan showed everyone is kept by resampling for any seat."""
    from arbiter.core.rng import Rng

    state = _tailor(mot, ["fan"], ["jar"], deck=["cup", "vase", "bell"])
    mot.run(state, "alice", use("fan"), use("fan", target="vase"))
    for seat in ("alice", "bob"):
        other = mot.engine.resample(state, seat, Rng.for_entry(b"fan", 1))
        assert other.deck[0] == "vase" and other.deck[-2:] == ["cup", "bell"]
        assert mot.engine.view(other, seat) == mot.engine.view(state, seat)


def test_puppet_swaps_hands_and_returns_itself(mot):
    """Puppet: return Puppet; your hand goes to the opponent's hand, theirs to your waiting
    area; the TAILOR then draws up to 5 with your empty hand."""
    state = _tailor(mot, ["puppet"], ["fan", "jar"], bob=("bell", "gong"))
    assert uses(mot, state) == [use("puppet", target="bob")]
    events = mot.play(state, "alice", use("puppet", target="bob"))
    a, b = state.players["alice"], state.players["bob"]
    assert a.hand == [] and a.waiting == ["bell", "gong"] and b.hand == ["fan", "jar"]
    assert "puppet" not in a.gallery and state.deck[-1] == "puppet"
    assert state.known["puppet"] == PUBLIC
    assert mot.lines(events[1:], "alice") == [
        "alice returns Puppet and swaps hands with bob: bob receives Fan, Jar; 2 cards go to "
        "alice's waiting area."
    ]
    assert mot.lines(events[1:], "bob") == [
        "alice returns Puppet and swaps hands with bob: bob receives Fan, Jar; Bell, Gong go to "
        "alice's waiting area."
    ]
    assert mot.lines(events[1:], None) == [
        "alice returns Puppet and swaps hands with bob: bob receives 2 cards; 2 cards go to "
        "alice's waiting area."
    ]
    assert not barrier_kinds(events)  # alice learns nothing (her waiting area is hidden)
    events = mot.play(state, "alice", mot.DONE)
    assert next(e for e in events if e.kind == "draw").data["count"] == 3  # 5 - 0 - 2
    assert len(a.hand) == 5  # after Night


def test_puppet_may_be_declined(mot):
    state = _tailor(mot, ["puppet"], ["fan"])
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].gallery == ["puppet"] and state.players["alice"].hand == ["fan"]


# -- rules FAQ: don't recount -------------------------------------------------------------


def test_faq_sword_hiring_during_a_task_does_not_recount_actions(mot):
    """Rules FAQ: a helper gained during a task adds no action to it (Sword's hire)."""
    state = mot.build(
        gallery={"alice": ["sword"]},
        helpers={"bob": ["frog", "statue"]},
        hand={"alice": ["tablet"]},
    )
    mot.play(state, "alice", mot.task("tablet"))
    assert state.task["total"] == 1
    mot.play(state, "alice", use("sword", target="frog"))
    assert state.task is None and mot.prompt(state) == ("bob", "task")


def test_scoring_uses_the_kite_copy_for_cover_too(mot):
    """Kite as a CLOTH-less copy: its old CLOTH cover is gone during the turn."""
    state = mot.build(
        gallery={"alice": ["kite"], "bob": ["scroll"]},
        gift_shop={"alice": []},
        helpers={"alice": ["robe"]},
        hand={"alice": ["fan"]},
    )
    from arbiter.games.mottainai.cover import helpers_covered

    assert helpers_covered(state, "alice", "CLOTH")
    mot.play(state, "alice", use("kite", cards=["fan"], target="scroll"))
    assert not helpers_covered(state, "alice", "CLOTH")
    assert scoring.score(state)["seats"]["alice"]["parts"]["works"] == 1


def test_socks_taking_the_last_card_ends_the_game(mot):
    """M-R2 (M-R69): an effect that empties the deck (Socks) ends the game at once."""
    state = mot.build(
        gallery={"alice": ["socks"]},
        hand={"alice": ["cup"]},
        deck=["fan"],
        leftover=("bob", "waiting"),
    )
    mot.play(state, "alice", mot.task("cup"))
    events = mot.play(state, "alice", use("socks"))
    assert state.players["alice"].bench == ["fan"] and state.end["reason"] == "deck"
    assert mot.prompt(state) is None and "end" in mot.kinds(events)


def test_daidoro_stops_dealing_when_the_deck_runs_out(mot):
    """M-R2 (M-R69): Daidoro deals one card at a time; the last card ends the game."""
    state = mot.build(
        gallery={"alice": ["daidoro"]},
        hand={"alice": ["cup"]},
        deck=["fan"],
        leftover=("bob", "waiting"),
    )
    mot.play(state, "alice", use("daidoro"))
    assert state.floor == ["fan"] and state.end["reason"] == "deck"
