"""Card effects of issue 5 part B (1/3): action boosters.

Each test is named after its card and built with the scenario builder (exact tables, no
shuffle), driving real decisions through ``check`` and ``apply``: the main effect, the
"may" declined, each limit of the text; the rules FAQ and glossary answers have tests
of their own (``test_faq_…``, ``test_glossary_…``).
"""

from __future__ import annotations

from mottainai_cardkit import barrier_kinds, use, used_cards, uses

from arbiter.games.mottainai.effects import missing
from arbiter.games.mottainai.state import PUBLIC

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
