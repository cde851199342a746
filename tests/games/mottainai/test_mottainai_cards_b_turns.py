"""Card effects of issue 5 part B (3/3): morning/night and before-TAILOR effects, and the
FAQ points that span several of them.

Named after their cards, built with the scenario builder; see test_mottainai_cards_b.py.
"""

from __future__ import annotations

from typing import Any

from mottainai_cardkit import barrier_kinds, use, used_cards, uses

from arbiter.games.mottainai import scoring
from arbiter.games.mottainai.state import PUBLIC


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
