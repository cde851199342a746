"""The FAQ and glossary points of the rules summary that had no test of their own, and the
cards.md §6 open questions whose ruling had no test (M-R70 onwards).

The FAQ/glossary audit (which test checks which point) is in ``docs/rulings/mottainai.md``
("The rules summary's FAQ and glossary, point by point"). Every test here is built with
the scenario builder and drives real decisions through ``check`` and ``apply``.
"""

from __future__ import annotations

from typing import Any

from mottainai_cardkit import use, used_cards

from arbiter.games.mottainai import scoring
from arbiter.games.mottainai.cover import helpers_covered, work_material
from arbiter.games.mottainai.state import PUBLIC


def task_start(events) -> dict[str, Any]:
    return next(e.data for e in events if e.kind == "task-start")


# -- the glossary ---------------------------------------------------------------------------


def test_glossary_a_card_has_no_effect_until_completed_in_a_wing(mot):
    """Glossary (introduction): a card's effect works only once it is a completed work in
    one of the two wings; in hand, as a helper, a material or a sale it does nothing."""
    state = mot.build(
        hand={"alice": ["kite", "pinwheel"]},
        helpers={"alice": ["bowl"]},
        bench={"alice": ["daidoro"]},
        sales={"alice": ["scroll"]},
        deck=["jar"],
    )
    assert mot.prompt(state) == ("alice", "task")  # no Bowl / Daidoro / Kite morning
    assert [a for a in mot.legal(state) if a["kind"] == "use"] == []
    mot.play(state, "alice", mot.NO_TASK)  # the PRAYER: no Cup/Gong after it
    assert mot.prompt(state) == ("bob", "task")  # no Pinwheel at night either
    assert scoring.score(state)["seats"]["alice"]["card_points"] == {}  # Scroll as a sale


def test_glossary_end_game_scoring_cards_do_nothing_before_the_end(mot):
    """Glossary (End Game Scoring): Quilt, Pillar, Coin … only act at the final scoring;
    during the game the sales they would cover are shown uncovered."""
    state = mot.build(
        gift_shop={"alice": ["quilt", "pillar"]},
        sales={"alice": ["crane", "jar", "vase"]},
        hand={"alice": ["kite"]},
    )
    view = mot.engine.view(state, "bob")
    assert view["players"]["alice"]["covered_sales"] == []
    s = scoring.score(state)["seats"]["alice"]
    assert s["covered_sales"] == ["PAPER", "CLAY"]  # Quilt: PAPER; Pillar: its most-sold


def test_glossary_boosters_every_action_of_their_type(mot):
    """Glossary (Action Boosters): the benefit may be used every time you take an action of
    that type, e.g. Bell on both CLERK actions of one task."""
    state = mot.build(
        gallery={"alice": ["bell"]},
        helpers={"alice": ["crane"]},
        hand={"alice": ["scroll"]},
        deck=["jar", "vase"],
    )
    events = mot.play(state, "alice", mot.task("scroll"))
    assert task_start(events)["actions"] == 2
    mot.play(state, "alice", use("bell"))
    assert use("bell") in mot.legal(state)  # offered again on the second CLERK action
    mot.play(state, "alice", use("bell"))
    assert state.players["alice"].sales == ["jar", "vase"]


def test_glossary_before_tailor_effects_before_each_tailor_action(mot):
    """Glossary (Before a TAILOR action): Fan, Dice, Puppet may be used before each TAILOR
    action you take, once each per action."""
    state = mot.build(
        gallery={"alice": ["fan"]},
        helpers={"alice": ["quilt"]},
        hand={"alice": ["kite"]},
        deck=["jar", "vase", "cup", "bell", "coin", "gong"],
    )
    events = mot.play(state, "alice", mot.task("kite"))
    assert task_start(events)["actions"] == 2
    mot.play(state, "alice", mot.TAILOR)
    assert used_cards(mot, state) == ["fan"]
    mot.run(state, "alice", use("fan"), use("fan", target="cup"))
    assert mot.prompt(state) == ("alice", "tailor")  # Fan is not offered twice
    mot.play(state, "alice", mot.DONE)  # draws 5 (hand + waiting area hold 5)
    assert mot.prompt(state) == ("alice", "action")
    mot.play(state, "alice", mot.TAILOR)
    assert used_cards(mot, state) == ["fan"]  # the second TAILOR: Fan again


def test_glossary_after_effects_follow_the_smith_that_completes_them(mot):
    """Glossary (After Effects): they may be used after the SMITH or CRAFT that completes
    them, e.g. Deck of Cards right after the SMITH that made it (a PAPER work)."""
    state = mot.build(hand={"alice": ["bell", "deck-of-cards"]}, deck=["jar"])
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("deck-of-cards", []))
    assert mot.legal(state) == [use("deck-of-cards"), mot.DONE]
    events = mot.play(state, "alice", use("deck-of-cards"))
    draw = next(e for e in events if e.kind == "draw")
    assert draw.data == {"seat": "alice", "count": 1, "why": "deck of cards"}
    assert state.players["alice"].hand == ["jar"]  # the turn ended: Night took it in hand


def test_glossary_poem_triggers_again_on_the_paper_work_it_completes(mot):
    """Glossary (After Effects): after Poem returns a work, Poem may trigger again on the
    new completed work (here a PAPER card turned up), and so on."""
    state = mot.build(
        gallery={"alice": ["poem"]}, hand={"alice": ["bell", "scroll"]}, deck=["crane", "jar"]
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("scroll", []))
    mot.run(state, "alice", use("poem"), use("poem", wing="gallery"))
    assert state.players["alice"].gallery == ["poem", "crane"]
    assert used_cards(mot, state) == ["poem"]  # again, on Crane (PAPER)
    mot.run(state, "alice", use("poem"), use("poem", wing="gift_shop"))
    p = state.players["alice"]
    assert p.gallery == ["poem"] and p.gift_shop == ["jar"]
    assert state.deck[-2:] == ["scroll", "crane"]
    assert state.known["scroll"] == state.known["crane"] == PUBLIC
    assert set(used_cards(mot, state)) == {"jar"}  # Jar (CLAY): its own effect, no Poem
    mot.play(state, "alice", mot.DONE)
    assert mot.prompt(state) == ("bob", "task")


def test_glossary_morning_effects_in_any_order_each_once(mot):
    """Glossary (Morning / Night): several morning effects may be performed in any order,
    each once (here Bowl before Daidoro, the reverse of their places)."""
    state = mot.build(
        gallery={"alice": ["daidoro", "bowl"]}, hand={"alice": ["fan"]}, deck=["cup", "vase"]
    )
    assert used_cards(mot, state) == ["daidoro", "bowl"]
    mot.play(state, "alice", use("bowl"))
    assert used_cards(mot, state) == ["daidoro"]
    mot.play(state, "alice", use("daidoro"))
    assert state.players["alice"].bench == ["cup"] and state.floor[0] == "vase"
    assert mot.prompt(state) == ("alice", "task")


# -- the FAQ --------------------------------------------------------------------------------


def test_faq_effects_once_per_trigger_and_again_at_the_next_trigger(mot):
    """FAQ (how often): an effect is used once each time it is triggered: Stool once after
    each of two works completed in one task."""
    state = mot.build(
        gallery={"alice": ["stool"]},
        helpers={"alice": ["bell"]},
        hand={"alice": ["gong", "tower", "frog", "bench"]},
    )
    events = mot.play(state, "alice", mot.task("gong"))
    assert task_start(events)["actions"] == 2
    mot.play(state, "alice", mot.smith("tower", ["frog"]))
    assert mot.legal(state) == [use("stool"), mot.DONE]
    events = mot.play(state, "alice", use("stool"))
    assert mot.prompt(state) == ("alice", "action")  # used: not offered again now
    mot.play(state, "alice", mot.smith("bench", ["frog"]))
    assert mot.legal(state) == [use("stool"), mot.DONE]  # a new trigger
    events += mot.play(state, "alice", use("stool"))
    assert [e.data["why"] for e in events if e.kind == "draw"] == ["stool", "stool"]


def test_faq_kite_no_longer_counts_as_cloth(mot):
    """FAQ (Kite): Kite takes the copied work's type and value: copying Scroll, it stops
    covering CLOTH helpers and covers PAPER ones."""
    state = mot.build(
        gallery={"alice": ["kite"], "bob": ["scroll"]},
        helpers={"alice": ["mask", "crane"]},
        hand={"alice": ["fan"]},
    )
    assert helpers_covered(state, "alice", "CLOTH")
    assert not helpers_covered(state, "alice", "PAPER")
    mot.play(state, "alice", use("kite", cards=["fan"], target="scroll"))
    assert work_material(state, "kite") == "PAPER"
    assert not helpers_covered(state, "alice", "CLOTH")
    assert helpers_covered(state, "alice", "PAPER")


def test_faq_two_quilt_holders_each_claim_a_tied_type(mot):
    """FAQ (Quilt/Lampshade): if several players have Quilt, each claims backorders in a
    type where they are tied for the most sales."""
    state = mot.build(
        mot.SEATS4,
        gallery={"alice": ["quilt"], "bob": ["quilt#2"]},
        sales={"alice": ["kite"], "bob": ["kite#2"]},
        hand={"alice": ["mask"], "bob": ["mask#2"], "carol": ["robe"]},
    )
    seats = scoring.score(state)["seats"]
    assert seats["alice"]["backorders"] == {"CLOTH": 2}
    assert seats["bob"]["backorders"] == {"CLOTH": 2}
    assert seats["carol"]["backorders"] == {}


# -- cards.md §6 questions whose ruling had no test (M-R70 …) --------------------------------


def test_bangle_cancels_fountains_revealed_helpers_on_its_owners_task(mot):
    """M-R70 (cards.md §6.6, M-R6): on a Bangle owner's CLERK task, STONE cards revealed
    with Fountain give no helper actions, like any helper."""
    state = mot.build(
        gallery={"alice": ["fountain"], "bob": ["bangle"]},
        hand={"alice": ["kite", "frog", "tower"]},
        task={"bob": "crane"},
    )
    mot.play(state, "alice", mot.task("kite"))
    assert use("fountain", cards=["frog", "tower"]) in mot.legal(state)
    events = mot.play(state, "alice", use("fountain", cards=["frog", "tower"]))
    start = task_start(events)
    assert (start["owner"], start["actions"], start["helpers"]) == ("bob", 1, 0)


def test_turtle_counts_materials_not_wings_with_go_set(mot):
    """M-R71 (cards.md §6.11): Go Set changes nothing for Turtle: four materials do not
    win, whatever wing the STONE works count in; the fifth material does."""
    state = mot.build(
        gallery={"alice": ["go-set", "turtle"]},
        gift_shop={"alice": ["quilt"]},
        helpers={"alice": ["bell"]},
        hand={"alice": ["gong", "scroll", "jar", "vase", "teapot"]},
    )
    mot.play(state, "alice", mot.task("gong"))
    mot.play(state, "alice", mot.smith("scroll", []))
    assert state.end is None  # STONE, METAL, CLOTH, PAPER
    mot.play(state, "alice", mot.smith("jar", ["teapot", "vase"]))
    assert state.end is not None and state.end["reason"] == "turtle"
    assert state.result["ranking"][0] == ["alice"]


def test_kite_copy_of_an_after_this_card_never_triggers_it(mot):
    """M-R72 (cards.md §6.12, M-R12): Kite copying Frog gains no "after you complete
    this": Kite is not completed, so Frog's effect is never offered that turn."""
    state = mot.build(
        gallery={"alice": ["kite"], "bob": ["frog"]},
        hand={"alice": ["fan", "bell", "scroll"]},
    )
    mot.play(state, "alice", use("kite", cards=["fan"], target="frog"))
    assert state.memo["copies"] == {"kite": "frog"}
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("scroll", []))
    assert mot.prompt(state) == ("bob", "task")  # no Frog (as Kite) after the SMITH
    assert "bonus_turn" not in state.memo


def test_smith_supports_may_be_revealed_again_for_a_second_smith(mot):
    """M-R73 (cards.md §6.17, M-R17): supports stay in hand, so the same card may support
    (and be revealed by) a second SMITH of the same task."""
    state = mot.build(
        helpers={"alice": ["bell"]}, hand={"alice": ["gong", "tower", "frog", "bench"]}
    )
    mot.play(state, "alice", mot.task("gong"))
    mot.play(state, "alice", mot.smith("tower", ["frog"]))
    assert mot.engine.view(state, "bob")["revealed"] == {"seat": "alice", "cards": ["frog"]}
    mot.play(state, "alice", mot.smith("bench", ["frog"]))
    assert mot.engine.view(state, "bob")["revealed"] == {"seat": "alice", "cards": ["frog"]}
    assert state.players["alice"].gallery == ["tower", "bench"]
    assert "frog" in state.players["alice"].hand


def test_bowl_taking_the_last_card_ends_the_game(mot):
    """M-R75 (cards.md §6.2, M-R2, M-R69): Bowl emptying the deck ends the game at once."""
    state = mot.build(gallery={"alice": ["bowl"]}, deck=["jar"], leftover=("bob", "waiting"))
    mot.play(state, "alice", use("bowl"))
    assert state.end is not None and state.end["reason"] == "deck"
    assert state.players["alice"].bench == ["jar"] and mot.prompt(state) is None


def test_bell_selling_the_last_card_ends_the_game(mot):
    """M-R75 (cards.md §6.2, M-R2, M-R69): Bell emptying the deck ends the game at once."""
    state = mot.build(
        gallery={"alice": ["bell"]},
        hand={"alice": ["scroll"]},
        deck=["jar"],
        leftover=("bob", "waiting"),
    )
    mot.play(state, "alice", mot.task("scroll"))
    mot.play(state, "alice", use("bell"))
    assert state.end is not None and state.end["reason"] == "deck"
    assert state.players["alice"].sales == ["jar"]


def test_umbrella_turning_the_last_card_ends_the_game(mot):
    """M-R75 (cards.md §6.2, M-R2, M-R69): Umbrella emptying the deck ends the game before its
    helper step."""
    state = mot.build(
        gallery={"alice": ["umbrella"]},
        helpers={"alice": ["vase"]},
        deck=["jar"],
        leftover=("bob", "waiting"),
    )
    mot.play(state, "alice", use("umbrella"))
    assert state.end is not None and state.end["reason"] == "deck"
    assert state.floor == ["jar"] and state.players["alice"].helpers == ["vase"]


def test_dice_completing_the_last_card_ends_the_game(mot):
    """M-R75 (cards.md §6.2, M-R2, M-R59): Dice completing the deck's last card ends the
    game at once; no "after" effect follows."""
    state = mot.build(
        gallery={"alice": ["dice", "stool"]},
        hand={"alice": ["kite", "fan", "crane", "poem"]},
        deck=["jar"],
        leftover=("bob", "waiting"),
    )
    mot.play(state, "alice", mot.task("kite"))  # 3 cards left in hand: Jar (3) matches
    mot.play(state, "alice", mot.TAILOR)
    mot.run(state, "alice", use("dice"), use("dice", wing="gift_shop"))
    assert state.end is not None and state.end["reason"] == "deck"
    assert state.players["alice"].gift_shop == ["jar"] and mot.prompt(state) is None
