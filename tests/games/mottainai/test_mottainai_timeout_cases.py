"""Mottainai rules cases MOT-18: deadlines — the default decision of a seat that missed
its deadline (M-R76) and a game scored before its end (M-R77). Neither adds a rule to
normal play.

The generic checks (legal at every prompt, blind to what the seat cannot see, equal to
the outcome at the end) run for every engine in tests/games/test_timeout_defaults.py.
"""

from __future__ import annotations

from mottainai_cardkit import use

from arbiter.core.errors import IllegalAction
from arbiter.games.mottainai import scoring


def default(mot, state):
    return mot.engine.default_action(state, state.current)


def take_default(mot, state):
    seat = state.current
    return mot.play(state, seat, mot.engine.default_action(state, seat))


def test_MOT_18_1_the_task_defaults_to_no_task_then_one_prayer(mot):
    """MOT-18.1 (rules: Morning, Noon; M-R22, M-R76): no task, so Noon brings a single
    PRAYER without a decision, and the turn passes."""
    state = mot.build(hand={"alice": ["kite", "bell", "vase"]}, deck=["frog", "tower"])
    assert mot.prompt(state) == ("alice", "task") and default(mot, state) == mot.NO_TASK
    events = take_default(mot, state)
    assert "pray-instead" in mot.kinds(events) and state.players["alice"].hand[-1] == "frog"
    assert mot.prompt(state) == ("bob", "task")


def test_MOT_18_2_every_action_on_an_opponents_task_becomes_a_prayer(mot):
    """MOT-18.2 (rules: Performing a task; M-R4, M-R76): each action of an opponent's task
    is a PRAYER, even when the task's own action is possible."""
    state = mot.build(
        hand={"alice": ["kite", "bell"]},
        task={"bob": "teapot"},
        floor=["bowl"],
        helpers={"alice": ["cup"]},
        deck=["frog", "tower", "statue"],
    )
    take_default(mot, state)
    assert mot.prompt(state) == ("alice", "action") and state.task["total"] == 2
    assert {"kind": "potter", "card": "bowl"} in mot.legal(state)
    assert default(mot, state) == mot.PRAYER
    take_default(mot, state)
    take_default(mot, state)
    # Two prayers on bob's task, then the PRAYER of alice's own empty task slot.
    assert mot.prompt(state) == ("bob", "task")
    assert state.players["alice"].hand == ["kite", "bell", "frog", "tower", "statue"]
    assert "bowl" in state.floor and state.players["alice"].bench == []


def test_MOT_18_3_under_a_mask_the_action_is_skipped(mot):
    """MOT-18.3 (Mask, M-R56): no PRAYER on a Mask owner's task: the default skips."""
    state = mot.build(
        gallery={"bob": ["mask"]},
        hand={"alice": ["coin", "vase"]},
        task={"bob": "teapot"},
        floor=["bowl"],
    )
    take_default(mot, state)
    assert mot.prompt(state) == ("alice", "action") and state.task.get("mask")
    assert default(mot, state) == mot.DONE
    events = take_default(mot, state)
    assert "skip-action" in mot.kinds(events) and "draw" in mot.kinds(events)
    assert "bowl" in state.floor and state.players["alice"].bench == []


def test_MOT_18_4_over_the_hand_limit_the_first_cards_go_back(mot):
    """MOT-18.4 (rules: Morning, M-R18): the rules demand the returns; the default returns
    the first card of the hand (as the seat's state file lists it) until five are left,
    and uses no Handkerchief."""
    hand = ["kite", "bell", "vase", "jar", "frog", "crane", "mask"]
    state = mot.build(gallery={"alice": ["handkerchief"]}, hand={"alice": hand})
    assert mot.prompt(state) == ("alice", "return") and default(mot, state) == mot.ret("kite")
    take_default(mot, state)
    assert default(mot, state) == mot.ret("bell")
    take_default(mot, state)
    assert state.deck[-2:] == ["kite", "bell"] and mot.prompt(state) == ("alice", "task")
    state = mot.build(gallery={"alice": ["handkerchief"]}, hand={"alice": ["fan", "jar"]})
    assert mot.prompt(state) == ("alice", "return") and default(mot, state) == mot.DONE


def test_MOT_18_5_the_old_task_is_discarded_as_usual(mot):
    """MOT-18.5 (rules: Morning): no Chopsticks: the old task goes to the floor."""
    state = mot.build(
        gallery={"alice": ["chopsticks"]}, task={"alice": "jar"}, hand={"alice": ["fan"]}
    )
    assert mot.prompt(state) == ("alice", "old-task") and default(mot, state) == mot.DONE
    take_default(mot, state)
    assert state.floor == ["jar"] and mot.prompt(state) == ("alice", "task")


def test_MOT_18_6_effects_are_declined(mot):
    """MOT-18.6 (rules FAQ: effects are optional; M-R8): the default declines a trigger."""
    hands = {"alice": ["quilt", "fan", "jar"], "bob": []}
    state = mot.build(gallery={"alice": ["dice"]}, hand=hands, deck=["frog"])
    mot.play(state, "alice", mot.task("quilt"))
    mot.play(state, "alice", mot.TAILOR)
    assert mot.prompt(state) == ("alice", "effect") and default(mot, state) == mot.DONE
    take_default(mot, state)
    assert state.deck[0] == "frog" and mot.prompt(state) == ("alice", "tailor")


def test_MOT_18_7_a_choice_an_effect_already_began_takes_the_first_offer(mot):
    """MOT-18.7 (Fan, M-R58; Dice, M-R15): a choice that cannot be declined takes the
    first offer listed: the first card Fan turned up stays on top; Dice's work goes to
    the gallery."""
    hands = {"alice": ["quilt", "jar"], "bob": []}
    state = mot.build(gallery={"alice": ["fan"]}, hand=hands, deck=["cup", "vase", "bell"])
    mot.run(state, "alice", mot.task("quilt"), mot.TAILOR, use("fan"))
    assert mot.DONE not in mot.legal(state)
    assert default(mot, state) == use("fan", target="cup")
    take_default(mot, state)
    assert state.deck[0] == "cup" and state.deck[-2:] == ["vase", "bell"]
    hands = {"alice": ["quilt", "fan", "jar"], "bob": []}
    state = mot.build(gallery={"alice": ["dice"]}, hand=hands, deck=["frog"])
    mot.run(state, "alice", mot.task("quilt"), mot.TAILOR, use("dice"))
    assert default(mot, state) == use("dice", wing="gallery")


def test_MOT_18_8_a_tailor_under_way_returns_nothing_and_draws(mot):
    """MOT-18.8 (rules: TAILOR, M-R19): a TAILOR already taken ends with done: nothing is
    returned, and the seat draws up to five."""
    state = mot.build(
        hand={"alice": ["kite", "bell", "vase", "jar"]}, deck=["frog", "tower", "statue"]
    )
    mot.run(state, "alice", mot.task("kite"), mot.TAILOR)
    assert mot.prompt(state) == ("alice", "tailor") and default(mot, state) == mot.DONE
    take_default(mot, state)
    assert state.players["alice"].hand == ["bell", "vase", "jar", "frog", "tower"]


def test_MOT_18_9_only_the_current_player_has_a_default(mot):
    """MOT-18.9 (rules: Your turn; M-R76): only the current player decides, so another
    seat has no default decision."""
    state = mot.build(hand={"alice": ["kite"]})
    try:
        mot.engine.default_action(state, "bob")
    except IllegalAction as exc:
        assert exc.rule == "Rules: Your turn" and "alice" in str(exc)
    else:
        raise AssertionError("bob got a default out of turn")


def test_MOT_18_10_defaults_alone_never_end_the_game(mot):
    """MOT-18.10 (M-R76): when every seat times out, a turn draws one card (the PRAYER)
    and, once hands are full, returns one: the deck stops shrinking and the game goes on.
    The ``pass`` policy never ends a game; a tournament's forfeit policy does."""
    state, _ = mot.new_game()
    sizes = []
    for _ in range(60):
        seat = state.current
        while mot.engine.prompt(state).seat == seat:
            take_default(mot, state)
        sizes.append(len(state.deck))
    assert state.result is None and len(set(sizes[-20:])) == 1


def test_MOT_18_11_early_end_scores_the_table_now(mot):
    """MOT-18.11 (M-R77; rules: Game End): a game ended now scores as the final scoring
    would — works, covered sales, backorders from the hand, card points; the waiting area
    never counts — mid-turn, without touching the state."""
    state = mot.build(
        gallery={"alice": ["crane", "doll", "frog"]},
        gift_shop={"alice": ["tower", "vase", "jar"]},
        sales={"alice": ["dice", "bell"], "bob": ["kite"]},
        hand={"alice": ["coin", "gong", "mask"]},
        waiting={"alice": ["ring"]},
    )
    assert mot.prompt(state) == ("alice", "task")
    provisional = mot.engine.provisional_outcome(state)
    assert provisional.breakdown["alice"] == {
        "works": 12,
        "sales": 3,
        "backorders": 6,
        "cards": 0,
        "total": 21,
    }
    assert provisional.ranking == [["alice"], ["bob"]] and state.result is None
    assert provisional.to_json() == scoring.provisional(state).to_json()


def test_MOT_18_12_early_end_ties_go_to_the_current_player(mot):
    """MOT-18.12 (M-R1, M-R77): the tie-break is the final scoring's: the current player,
    then the nearest after them; at the very start it alone orders the seats."""
    state = mot.build(
        mot.SEATS3,
        current="bob",
        gallery={"alice": ["crane"], "bob": ["doll"]},
        hand={"bob": ["kite"]},
    )
    provisional = mot.engine.provisional_outcome(state)
    assert provisional.scores == {"alice": 1, "bob": 1, "carol": 0}
    assert provisional.ranking == [["bob"], ["alice"], ["carol"]]
    assert "current player bob" in provisional.tiebreak
    # At the very start nobody scores: the tie-break alone orders the seats.
    state, _ = mot.new_game(mot.SEATS3)
    provisional = mot.engine.provisional_outcome(state)
    assert set(provisional.scores.values()) == {0}
    assert provisional.ranking == [[s] for s in state.clockwise_from(state.current)]
