"""Mottainai rules cases MOT-1 … MOT-7: setup, the turn, actions, cover, the game end.

Each case cites the rules summary section (``mottainai-rules-summary.en.txt``) or a
ruling (``docs/rulings/mottainai.md``). Scoring and variants: test_mottainai_scoring_cases.py.
Card materials used: PAPER crane, doll, fan, sketch, straw; STONE frog, tower, statue,
tablet, fountain; CLOTH kite, mask, robe, socks, flag, quilt; CLAY vase, jar, teapot,
haniwa, dice, figurine, bangle, brick; METAL bell, coin, gong, ring, sword, pin, turtle.
"""

from __future__ import annotations

import pytest

from arbiter.core.errors import UsageError
from arbiter.games.mottainai.cards import deck_ids
from arbiter.games.mottainai.setup import start_player

# -- MOT-1 Setup -----------------------------------------------------------------------------


def test_MOT_1_1_two_players_one_deck(mot):
    """MOT-1.1 (rules: Setup; Cards): 54 cards; 5 in hand, a face-down task, a floor card each."""
    state, events = mot.new_game()
    assert state.decks == 1
    for seat, p in state.players.items():
        assert len(p.hand) == 5
        # The start player's face-down task went to the floor in its first Morning.
        assert (p.task is None) if seat == state.start else (p.task is not None and p.face_down)
    # The start player's face-down task is already on the floor (its first Morning).
    assert len(state.floor) == 3 and len(state.deck) == 54 - 10 - 2 - 2
    assert mot.kinds(events)[:4] == ["setup", "deal", "deal", "turn"]
    mot.engine.invariants(state)


def test_MOT_1_2_four_and_five_players_shuffle_two_decks(mot):
    """MOT-1.2 (rules: Cards, M-R20): 4-5 players use two decks; instance ids kite, kite#2."""
    for seats in (mot.SEATS4, [*mot.SEATS4, "erin"]):
        state, _ = mot.new_game(seats)
        assert state.decks == 2
        assert len(state.deck) == 108 - 7 * len(seats)
        assert "kite#2" in deck_ids(2) and len(set(deck_ids(2))) == 108
        mot.engine.invariants(state)


def test_MOT_1_3_start_player_has_the_alphabetically_first_floor_card(mot):
    """MOT-1.3 (rules: Setup): the floor card closest to A starts."""
    assert start_player(["alice", "bob", "carol"], ["kite", "bell", "vase"]) == "bob"
    assert start_player(["alice", "bob"], ["deck-of-cards", "dice"]) == "alice"  # "Deck" < "Dice"


def test_MOT_1_4_tied_floor_cards_earliest_seat_starts(mot):
    """MOT-1.4 (M-R10): with two decks, the earliest seat among equal names starts."""
    seats = ["alice", "bob", "carol", "dave"]
    assert start_player(seats, ["vase", "bell#2", "bell", "kite"]) == "bob"


def test_MOT_1_5_face_down_tasks_are_hidden_never_performed_then_floored(mot):
    """MOT-1.5 (rules: Setup, M-R14): nobody sees a face-down task; opponents never perform
    it; it goes face up to the floor on its owner's first Morning (a barrier)."""
    state = mot.build(
        face_down={"alice": "vase", "bob": "jar"}, hand={"alice": ["kite"], "bob": ["bell"]}
    )
    old = mot.events[0]
    assert old.kind == "old-task" and old.data["card"] == "vase" and old.barrier
    assert state.floor == ["vase"]
    for viewer in ("alice", "bob", None):
        bob = mot.engine.view(state, viewer)["players"]["bob"]
        assert bob["task"] is None and bob["task_face_down"] is True
    events = mot.play(state, "alice", mot.task("kite"))
    starts = [e.data["owner"] for e in events if e.kind == "task-start"]
    assert starts == ["alice"]  # bob's face-down card is no task


def test_MOT_1_6_team_play_needs_four_players(mot):
    """MOT-1.6 (rules: Team Play, M-R20): team play is for exactly 4 players."""
    with pytest.raises(UsageError):
        mot.new_game(mot.SEATS3, teams="yes")
    with pytest.raises(UsageError):
        mot.options(teams="maybe")
    assert mot.options() == {"extended": False, "teams": False}


# -- MOT-2 Morning ----------------------------------------------------------------------------


def test_MOT_2_1_return_down_to_five_to_the_deck_bottom(mot):
    """MOT-2.1 (rules: Morning, M-R18): return cards one by one until 5; they go to the
    bottom of the deck; only the returner knows which."""
    hand = ["kite", "bell", "vase", "jar", "frog", "crane", "mask"]
    state = mot.build(hand={"alice": hand})
    assert mot.prompt(state) == ("alice", "return")
    mot.illegal(state, "alice", mot.DONE)
    mot.illegal(state, "alice", mot.ret("tower"))
    events = mot.run(state, "alice", mot.ret("crane"), mot.ret("mask"))
    assert state.deck[-2:] == ["crane", "mask"]
    assert len(state.players["alice"].hand) == 5
    assert mot.prompt(state) == ("alice", "task")
    assert mot.engine.view(state, "alice")["deck"]["returned_by_you"] == ["crane", "mask"]
    assert mot.engine.view(state, "bob")["deck"]["returned_by_you"] == []
    assert "returns Crane" in mot.lines(events, "alice")[0]
    assert (
        mot.lines(events, "bob")[0]
        == "alice returns a card to the bottom of the deck (hand limit)."
    )


def test_MOT_2_2_no_return_at_five_or_fewer(mot):
    """MOT-2.2 (rules: Morning): with 5 cards or fewer there is nothing to return."""
    state = mot.build(hand={"alice": ["kite", "bell", "vase", "jar", "frog"]})
    assert mot.prompt(state) == ("alice", "task")


def test_MOT_2_3_previous_task_goes_to_the_floor(mot):
    """MOT-2.3 (rules: Morning): the previous task is placed face up on the floor."""
    state = mot.build(task={"alice": "kite"}, hand={"alice": ["bell"]}, floor=["frog"])
    assert state.floor == ["frog", "kite"] and state.players["alice"].task is None
    assert not mot.events[0].barrier
    assert mot.lines(mot.events)[0] == "Morning: alice's old task Kite [CLOTH] goes to the floor."


def test_MOT_2_4_choose_a_task_from_hand_or_none(mot):
    """MOT-2.4 (rules: Morning; Noon): a hand card becomes the task, or none and one PRAYER."""
    state = mot.build(hand={"alice": ["kite", "bell"]})
    mot.illegal(state, "alice", mot.task("vase"))
    events = mot.play(state, "alice", mot.NO_TASK)
    assert mot.kinds(events)[:3] == ["task", "pray-instead", "draw"]
    assert mot.kinds(events)[-2:] == ["night", "turn"]  # the prayed card joined the hand at Night
    assert len(state.players["alice"].hand) == 3 and state.players["alice"].waiting == []


# -- MOT-3 Noon ---------------------------------------------------------------------------------


def test_MOT_3_1_opponents_tasks_clockwise_then_your_own(mot):
    """MOT-3.1 (rules: Noon): each opponent's task clockwise from you, then yours."""
    state = mot.build(
        mot.SEATS3,
        current="bob",
        task={"alice": "kite", "carol": "jar"},
        hand={"bob": ["bell"]},
    )
    events = mot.play(state, "bob", mot.task("bell"))
    assert [e.data["owner"] for e in events if e.kind == "task-start"] == ["carol"]
    events = mot.run(state, "bob", mot.PRAYER, mot.PRAYER)  # carol's POTTER, alice's TAILOR
    assert [e.data["owner"] for e in events if e.kind == "task-start"] == ["alice", "bob"]


def test_MOT_3_2_an_opponent_without_task_is_skipped(mot):
    """MOT-3.2 (rules: Noon): an opponent with no task is skipped."""
    state = mot.build(mot.SEATS3, task={"carol": "jar"}, hand={"alice": ["bell"]})
    events = mot.play(state, "alice", mot.task("bell"))
    assert [e.data["owner"] for e in events if e.kind == "task-start"] == ["carol"]


def test_MOT_3_3_one_action_plus_one_per_matching_helper(mot):
    """MOT-3.3 (rules: Performing a task): 1 action + 1 per matching (uncovered) helper."""
    state = mot.build(helpers={"alice": ["frog", "tower", "kite"]}, hand={"alice": ["statue"]})
    events = mot.play(state, "alice", mot.task("statue"))
    start = next(e for e in events if e.kind == "task-start")
    assert start.data["actions"] == 3 and not start.data["covered"]


def test_MOT_3_4_the_action_count_is_fixed_before_the_task(mot):
    """MOT-3.4 (rules FAQ: don't recount): a helper hired during the task adds nothing."""
    state = mot.build(
        floor=["tablet", "fountain"], helpers={"alice": ["frog"]}, hand={"alice": ["statue"]}
    )
    mot.play(state, "alice", mot.task("statue"))
    assert state.task["total"] == 2
    mot.play(state, "alice", {"kind": "monk", "card": "tablet"})
    assert state.task["total"] == 2 and state.task["done"] == 1
    mot.play(state, "alice", {"kind": "monk", "card": "fountain"})
    assert mot.prompt(state) == ("bob", "task")  # two actions, then Night and bob's turn


def test_MOT_3_5_the_five_action_potter_task(mot):
    """MOT-3.5 (rules: Cover example): a CLAY work in the gallery and 2 POTTER helpers:
    a POTTER task gives 1 + 2 x 2 = 5 actions."""
    state = mot.build(
        gallery={"alice": ["vase"]},
        helpers={"alice": ["teapot", "haniwa"]},
        hand={"alice": ["jar"]},
    )
    events = mot.play(state, "alice", mot.task("jar"))
    start = next(e for e in events if e.kind == "task-start")
    assert start.data["actions"] == 5 and start.data["covered"]
    assert "5 actions (1 + 4 from covered helpers)" in mot.lines(events)[-1]


def test_MOT_3_6_any_action_may_become_prayer_or_craft(mot):
    """MOT-3.6 (rules: Action Types, M-R4): each action is the task's, a CRAFT of its
    material, or a PRAYER, even when the task's own action is possible."""
    state = mot.build(
        floor=["tablet"],
        bench={"alice": ["dice", "figurine"]},
        hand={"alice": ["jar", "vase", "bell"]},
    )
    mot.play(state, "alice", mot.task("jar"))
    kinds = {a["kind"] for a in mot.legal(state)}
    assert kinds == {"potter", "craft", "prayer"}
    mot.illegal(state, "alice", mot.craft("bell"))  # METAL is not the POTTER task's material
    mot.play(state, "alice", mot.PRAYER)
    assert mot.prompt(state) == ("bob", "task")


# -- MOT-4 Actions ------------------------------------------------------------------------------


def test_MOT_4_1_clerk_sells_from_the_craft_bench(mot):
    """MOT-4.1 (rules: CLERK): a craft-bench card moves to the sales."""
    state = mot.build(bench={"alice": ["vase"]}, hand={"alice": ["crane", "jar"]})
    mot.play(state, "alice", mot.task("crane"))
    mot.illegal(state, "alice", {"kind": "clerk", "card": "jar"})  # hand cards are not sold
    events = mot.play(state, "alice", {"kind": "clerk", "card": "vase"})
    assert state.players["alice"].sales == ["vase"] and state.players["alice"].bench == []
    assert mot.lines(events)[0] == "alice sells CLAY from the craft bench (CLERK)."


def test_MOT_4_2_monk_hires_a_floor_card(mot):
    """MOT-4.2 (rules: MONK): a floor card becomes a helper."""
    state = mot.build(floor=["vase"], hand={"alice": ["frog"]})
    mot.play(state, "alice", mot.task("frog"))
    events = mot.play(state, "alice", {"kind": "monk", "card": "vase"})
    assert state.players["alice"].helpers == ["vase"]
    assert mot.lines(events)[0] == "alice hires a POTTER helper from the floor (MONK)."


def test_MOT_4_3_potter_collects_a_floor_card(mot):
    """MOT-4.3 (rules: POTTER): a floor card goes to the craft bench."""
    state = mot.build(floor=["kite"], hand={"alice": ["jar"]})
    mot.play(state, "alice", mot.task("jar"))
    mot.illegal(state, "alice", {"kind": "potter", "card": "bell"})
    mot.play(state, "alice", {"kind": "potter", "card": "kite"})
    assert state.players["alice"].bench == ["kite"] and state.floor == []


def test_MOT_4_4_tailor_returns_then_draws_to_five_in_all(mot):
    """MOT-4.4 (rules: TAILOR, M-R19): return any number, then draw to the waiting area
    until hand + waiting area hold 5; with 5 or more, nothing is drawn."""
    state = mot.build(
        hand={"alice": ["kite", "bell", "vase", "jar"]}, deck=["frog", "tower", "statue"]
    )
    mot.play(state, "alice", mot.task("kite"))
    mot.play(state, "alice", mot.TAILOR)
    assert mot.prompt(state) == ("alice", "tailor")
    events = mot.run(state, "alice", mot.ret("bell"), mot.DONE)
    p = state.players["alice"]
    assert p.hand == ["vase", "jar", "frog", "tower", "statue"] and p.waiting == []  # at Night
    draw = next(e for e in events if e.kind == "draw")
    assert draw.data["count"] == 3
    night = next(e for e in events if e.kind == "night")
    assert night.data["cards"] == ["frog", "tower", "statue"]
    # With 5 in hand and waiting area together, a TAILOR draws nothing.
    state = mot.build(
        hand={"alice": ["kite", "bell", "vase", "jar", "frog"]}, waiting={"alice": ["mask"]}
    )
    events = mot.run(state, "alice", mot.task("kite"), mot.TAILOR, mot.DONE)
    assert next(e for e in events if e.kind == "draw").data["count"] == 0


def test_MOT_4_5_smith_reveals_supports_from_hand_and_keeps_them(mot):
    """MOT-4.5 (rules: SMITH; FAQ; M-R17): the work and value - 1 supports of its material
    come from the hand; supports are revealed to all and stay in hand."""
    state = mot.build(
        hand={"alice": ["bell", "jar", "vase", "teapot", "kite"]}, bench={"alice": ["dice"]}
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.illegal(state, "alice", mot.smith("jar", ["vase"]))  # CLAY needs 2 supports
    mot.illegal(state, "alice", mot.smith("jar", ["vase", "dice"]))  # not from the bench (FAQ)
    mot.illegal(state, "alice", mot.smith("jar", ["vase", "kite"]))  # wrong material
    bad = mot.illegal(
        state,
        "alice",
        {"kind": "smith", "work": "jar", "support": ["vase", "teapot"], "wing": "gallery"},
    )
    assert "id order" in bad.message and "\n" not in bad.message
    events = mot.play(state, "alice", mot.smith("jar", ["teapot", "vase"], "gift_shop"))
    p = state.players["alice"]
    assert p.gift_shop == ["jar"] and p.hand == ["vase", "teapot", "kite"]
    assert mot.engine.view(state, "bob")["revealed"] == {
        "seat": "alice",
        "cards": ["teapot", "vase"],
    }
    assert mot.lines(events, "bob")[0] == (
        "alice completes Jar (CLAY 3) in the gift shop (SMITH, revealing Teapot, Vase)."
    )


def test_MOT_4_6_craft_uses_the_craft_bench_of_the_task_material(mot):
    """MOT-4.6 (rules: CRAFT): a work of the task's material from hand, value - 1 supports
    of that material in the craft bench, which stay there."""
    state = mot.build(
        task={"bob": "sword"},
        hand={"alice": ["bell", "coin", "kite", "mask"]},
        bench={"alice": ["gong", "ring"]},
    )
    mot.play(state, "alice", mot.NO_TASK)
    assert {a["kind"] for a in mot.legal(state)} == {"smith", "craft", "prayer"}
    mot.illegal(state, "alice", mot.craft("kite"))
    mot.play(state, "alice", mot.craft("bell"))
    p = state.players["alice"]
    assert p.gallery == ["bell"] and p.bench == ["gong", "ring"]


def test_MOT_4_7_prayer_draws_to_the_hidden_waiting_area(mot):
    """MOT-4.7 (rules: PRAYER; Waiting Area; M-R16): the card waits face down, unseen even
    by its owner, until Night; drawing is not a barrier, Night is."""
    state = mot.build(task={"bob": "frog"}, hand={"alice": ["kite"]}, deck=["bell"])
    mot.play(state, "alice", mot.task("kite"))
    events = mot.play(state, "alice", mot.PRAYER)  # bob's MONK task, turned into PRAYER
    assert state.players["alice"].waiting == ["bell"] and not any(e.barrier for e in events)
    mine = mot.engine.view(state, "alice")["players"]["alice"]
    assert mine["waiting_count"] == 1 and "waiting" not in mine
    events = mot.play(state, "alice", mot.PRAYER)  # her own TAILOR, as a PRAYER
    night = next(e for e in events if e.kind == "night")
    assert night.barrier and "bell" in night.data["cards"]
    assert "Bell" in mot.lines([night], "alice")[0] and "Bell" not in mot.lines([night], "bob")[0]


# -- MOT-5 Cover ----------------------------------------------------------------------------------


def test_MOT_5_1_a_clay_work_covers_up_to_three_potters(mot):
    """MOT-5.1 (rules: Cover): one CLAY work covers 1, 2 or 3 POTTER helpers."""
    state = mot.build(
        gallery={"alice": ["vase"]},
        helpers={"alice": ["teapot", "haniwa", "dice"]},
        hand={"alice": ["jar"]},
    )
    events = mot.play(state, "alice", mot.task("jar"))
    assert next(e for e in events if e.kind == "task-start").data["actions"] == 7


def test_MOT_5_2_four_potters_with_one_clay_work_none_covered(mot):
    """MOT-5.2 (rules: Cover, all or nothing): 4 POTTER helpers, one CLAY work: none covered."""
    helpers = ["teapot", "haniwa", "dice", "figurine"]
    state = mot.build(
        gallery={"alice": ["vase"]}, helpers={"alice": helpers}, hand={"alice": ["jar"]}
    )
    events = mot.play(state, "alice", mot.task("jar"))
    start = next(e for e in events if e.kind == "task-start")
    assert start.data["actions"] == 5 and not start.data["covered"]


def test_MOT_5_3_only_gallery_works_cover_helpers(mot):
    """MOT-5.3 (rules: Gallery): a work in the gift shop covers no helper."""
    state = mot.build(
        gift_shop={"alice": ["vase"]}, helpers={"alice": ["teapot"]}, hand={"alice": ["jar"]}
    )
    events = mot.play(state, "alice", mot.task("jar"))
    assert next(e for e in events if e.kind == "task-start").data["actions"] == 2


# -- MOT-6 Game end -------------------------------------------------------------------------------


def test_MOT_6_1_the_last_card_drawn_ends_the_game_at_once(mot):
    """MOT-6.1 (rules: Game End, M-R2): the prayer that empties the deck ends the game; the
    turn is not completed and the waiting area never reaches the hand."""
    state = mot.build(hand={"alice": ["kite", "bell"]}, deck=["coin"], leftover=("bob", "helpers"))
    events = mot.play(state, "alice", mot.NO_TASK)
    assert mot.prompt(state) is None and state.end["reason"] == "deck"
    assert state.players["alice"].waiting == ["coin"] and "coin" not in state.players["alice"].hand
    end = next(e for e in events if e.kind == "end")
    assert end.barrier and "night" not in mot.kinds(events)
    assert mot.engine.outcome(state) is not None
    mot.illegal(state, "alice", mot.PRAYER)


def test_MOT_6_2_a_tailor_stops_drawing_when_the_deck_runs_out(mot):
    """MOT-6.2 (M-R2): a TAILOR draws one card at a time; the deck empties, the game ends."""
    state = mot.build(
        hand={"alice": ["kite", "bell"]}, deck=["coin", "gong"], leftover=("bob", "helpers")
    )
    events = mot.run(state, "alice", mot.task("kite"), mot.TAILOR, mot.DONE)
    assert next(e for e in events if e.kind == "draw").data["count"] == 2
    assert state.end["reason"] == "deck" and mot.prompt(state) is None


def test_MOT_6_3_the_fifth_work_in_a_wing_ends_the_game_at_once(mot):
    """MOT-6.3 (rules: Game End, M-R3): the fifth work ends the game; the task's remaining
    actions are not taken."""
    state = mot.build(
        gallery={"alice": ["crane", "doll", "fan", "sketch"]},
        helpers={"alice": ["coin"]},
        hand={"alice": ["bell", "straw"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    assert state.task["total"] == 2
    events = mot.play(state, "alice", mot.smith("straw", [], "gallery"))
    assert state.end == {"reason": "wing", "seat": "alice", "turn": 1, "wing": "gallery"}
    assert mot.prompt(state) is None and "end" in mot.kinds(events)


def test_MOT_6_4_extended_game_needs_six_works(mot):
    """MOT-6.4 (rules: Extended game): a fifth work does not end it; the sixth does."""
    state = mot.build(
        extended=True,
        gallery={"alice": ["crane", "doll", "fan", "sketch"]},
        helpers={"alice": ["coin"]},
        hand={"alice": ["bell", "straw", "curtain"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("straw", []))
    assert state.end is None and mot.prompt(state) == ("alice", "action")
    mot.play(state, "alice", mot.smith("curtain", []))
    assert state.end["reason"] == "wing"


# -- Messages ---------------------------------------------------------------------------------------


def test_MOT_7_1_refusals_are_one_line_and_cite_the_rule(mot):
    """MOT-7.1 (DESIGN: rejection messages): one line, a rule cited, out-of-turn refused."""
    state = mot.build(hand={"alice": ["kite"]})
    for action in (
        {"kind": "pray"},
        {"kind": "task"},
        {"kind": "task", "card": 7},
        "x",
        mot.task("bell"),
    ):
        exc = mot.illegal(state, "alice", action)
        assert "\n" not in exc.message and exc.rule
    exc = mot.illegal(state, "bob", mot.task("kite"))
    assert "alice" in exc.message
