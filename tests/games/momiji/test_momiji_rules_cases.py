"""Momiji rules cases MOM-1 … MOM-5: setup, the main actions, minor actions, hand limit, end.

Each case cites the rules section of docs/rulings/momiji.md (the overview, as numbered
there) or a ruling ``MOM-R…``. Landscape powers: test_momiji_powers.py; scoring and objectives:
test_momiji_scoring_cases.py.
"""

from __future__ import annotations

from collections import Counter

import jsonschema


def kinds(events):
    return [e.kind for e in events]


# -- MOM-1 Setup ---------------------------------------------------------------------------


def test_MOM_1_1_deck_hands_garden_objectives_by_player_count(mj):
    """MOM-1.1: players+2 types of 14 cards (5/4/3/2), 6-card hands, a sorted garden of 4,
    players+2 objectives, three landscapes (one per set), the starting acorns (MOM-R3)."""
    for seats in (mj.SEATS2, mj.SEATS3, mj.SEATS4):
        state, events = mj.new_game(seats)
        n = len(seats)
        assert len(state.types) == n + 2
        every = state.cards.deck(state.types)
        assert len(every) == 14 * (n + 2)
        values = Counter(state.cards.cards[c].value for c in every if c.startswith("maple"))
        assert values == {0: 5, 1: 4, 2: 3, 3: 2}
        assert all(len(state.players[s].hand) == 6 for s in seats)
        shown = mj.engine.view(state, None)["garden"]
        assert len(state.garden) == 4 and shown == state.cards.sort(state.garden)
        assert len(state.deck) == len(every) - 6 * n - 4
        assert len(state.centre) == n + 2
        for seat in seats:
            player = state.players[seat]
            sets = sorted(state.cards.landscapes[x]["set"] for x in player.landscapes)
            assert sets == ["A", "B", "C"] and player.acorns == 2
        assert kinds(events) == ["setup"] + ["deal"] * n + ["turn"]


def test_MOM_1_2_first_game_panoramas_or_random_landscapes(mj):
    """MOM-1.2 (MOM-R8): fixed panoramas by seat, or one random landscape of each set."""
    state, _ = mj.new_game()
    assert state.players["alice"].landscapes == ["stone-lantern", "koi-pond", "mountain-path"]
    assert state.players["bob"].landscapes == ["old-oak", "moon-gate", "rice-terrace"]
    state, _ = mj.new_game(mj.SEATS4, landscapes="random")
    dealt = [x for p in state.players.values() for x in p.landscapes]
    assert len(set(dealt)) == 12
    for player in state.players.values():
        assert [state.cards.landscapes[x]["set"] for x in player.landscapes] == ["A", "B", "C"]


def test_MOM_1_3_first_seat_starts_and_sees_only_its_hand(mj):
    """MOM-1.3 (MOM-R1): the first seat plays first; the deal is private."""
    state, events = mj.new_game()
    assert mj.turn(state) == "alice"
    deal = next(e for e in events if e.kind == "deal" and e.data["seat"] == "bob")
    assert mj.engine.describe(deal, "alice") == "bob is dealt 6 cards."
    assert "maple" in mj.engine.describe(deal, "bob") or "ginkgo" in mj.engine.describe(deal, "bob")


# -- MOM-2 Turn: one main action ---------------------------------------------------------------


def test_MOM_2_0_1_one_main_action_then_minor_actions_or_end(mj):
    """MOM-2.0.1: after the main action only minor actions or end; others wait their turn."""
    state = mj.build(hands={"alice": ["maple-0", "ginkgo-1", "oak-2"]}, garden=["cherry-0"])
    mj.illegal(state, "bob", mj.collect("cherry"))
    mj.illegal(state, "alice", mj.END)
    mj.play_(state, "alice", mj.play("maple-0"))
    assert state.turn.phase == "after"
    assert mj.illegal(state, "alice", mj.collect("cherry")).rule == "MOM-2"
    events = mj.play_(state, "alice", mj.END)
    assert kinds(events) == ["turn"] and mj.turn(state) == "bob"


def test_MOM_2_0_2_turn_ends_by_itself_without_minor_actions_left(mj):
    """MOM-2.0.2 (MOM-R13): no minor action possible (public facts) ends the turn with the main action."""
    state = mj.build(hands={"alice": ["maple-0"]}, acorns={"alice": 0}, garden=["cherry-0"])
    events = mj.play_(state, "alice", mj.play("maple-0"))
    assert kinds(events) == ["play", "turn"] and mj.turn(state) == "bob"


# -- MOM-2.1 Collect -------------------------------------------------------------------------------


def test_MOM_2_1_1_collect_takes_every_card_of_a_type_and_refills(mj):
    """MOM-2.1.1 (MOM-R4): all garden cards of the type go to the hand, in view of all;
    the garden refills to four, a barrier."""
    state = mj.build(
        garden=["maple-0", "maple-2", "ginkgo-1", "oak-3"], deck=["cherry-0", "cherry-1", "oak-0"]
    )
    events = mj.play_(state, "alice", mj.collect("maple"))
    assert state.players["alice"].hand == ["maple-0", "maple-2"]
    assert state.players["alice"].known == ["maple-0", "maple-2"]
    assert mj.engine.view(state, None)["garden"] == ["ginkgo-1", "cherry-0", "cherry-1", "oak-3"]
    refill = next(e for e in events if e.kind == "refill")
    assert refill.barrier and state.deck == ["oak-0"]
    assert mj.engine.view(state, "bob")["players"]["alice"]["known"] == ["maple-0", "maple-2"]


def test_MOM_2_1_2_collect_needs_the_type_in_the_garden(mj):
    """MOM-2.1.2: a type absent from the garden cannot be collected."""
    state = mj.build(garden=["maple-0", "ginkgo-1"])
    assert mj.illegal(state, "alice", mj.collect("oak")).rule == "MOM-2.1"


def test_MOM_2_1_3_an_acorn_reveals_four_more_then_collect(mj):
    """MOM-2.1.3: pay an acorn to reveal four cards (a barrier); the main action must then
    be a collect; a second reveal is illegal. A garden still holding four needs no refill."""
    deck = ["cherry-0", "cherry-1", "oak-0", "oak-1", "oak-2"]
    state = mj.build(
        hands={"alice": ["maple-0"]}, garden=["maple-1", "ginkgo-0", "ginkgo-1", "oak-3"], deck=deck
    )
    events = mj.play_(state, "alice", mj.REVEAL)
    assert events[0].barrier and state.players["alice"].acorns == 1
    assert len(state.garden) == 8 and state.deck == ["oak-2"]
    assert mj.illegal(state, "alice", mj.play("maple-0")).rule == "MOM-2.1"
    mj.illegal(state, "alice", mj.REVEAL)
    events = mj.play_(state, "alice", mj.collect("oak"))
    assert "refill" not in kinds(events) and len(state.garden) == 5


def test_MOM_2_1_4_reveal_costs_an_acorn(mj):
    """MOM-2.1.4: no acorn, no reveal."""
    state = mj.build(garden=["maple-0"], acorns={"alice": 0})
    assert mj.illegal(state, "alice", mj.REVEAL).rule == "MOM-2.1"


# -- MOM-2.2 Play -----------------------------------------------------------------------------------


def test_MOM_2_2_1_a_pile_starts_with_a_zero(mj):
    """MOM-2.2.1: a new pile starts with a 0; without "at" it goes to the right end of the
    row (MOM-R5)."""
    state = mj.build(hands={"alice": ["maple-1", "ginkgo-0"]}, piles={"alice": [["oak-0"]]})
    assert "starts with a 0" in mj.illegal(state, "alice", mj.play("maple-1")).message
    mj.play_(state, "alice", mj.play("ginkgo-0"))
    assert [p.type for p in state.players["alice"].piles] == ["oak", "ginkgo"]


def test_MOM_2_2_2_each_card_equals_the_top_or_is_one_higher(mj):
    """MOM-2.2.2: on a 1, play a 1 or a 2; not a 0 and not a 3."""
    hand = ["maple-0", "maple-1", "maple-2", "maple-3"]
    state = mj.build(hands={"alice": hand}, piles={"alice": [["maple-0R", "maple-1L"]]})
    mj.illegal(state, "alice", mj.play("maple-0"))
    assert mj.illegal(state, "alice", mj.play("maple-3")).rule == "MOM-2.2"
    mj.legal(state, "alice", mj.play("maple-1"))
    mj.legal(state, "alice", mj.play("maple-2"))


def test_MOM_2_2_3_two_cards_of_one_type_bottom_first_and_buried(mj):
    """MOM-2.2.3: 1-2 cards of one type, bottom first; the lower one is buried unseen and
    the view shows only the top, never a pile size."""
    hand = ["maple-0", "maple-1", "maple-1R", "maple-2"]
    state = mj.build(hands={"alice": hand}, piles={"alice": [["maple-0L"]]})
    mj.illegal(state, "alice", mj.play("maple-1", "maple-0"))
    mj.illegal(state, "alice", mj.play("maple-0", "maple-1", "maple-2"))
    mj.legal(state, "alice", mj.play("maple-1R", "maple-1"))
    events = mj.play_(state, "alice", mj.play("maple-1", "maple-2"))
    pile = state.players["alice"].piles[0]
    assert pile.cards == ["maple-0L", "maple-1", "maple-2"] and pile.shown == [True, False, True]
    seen = mj.engine.view(state, "alice")["players"]["alice"]["piles"]
    assert seen == [{"type": "maple", "top": "maple-2", "closed": False}]
    assert mj.lines(events, "alice")[0] == (
        "alice plays 2 cards on the maple pile, now showing maple 2."
    )


def test_MOM_2_2_4_several_types_one_card_each_in_type_order(mj):
    """MOM-2.2.4 (MOM-R5): 2+ types, one card per pile, listed in type order; no mixing
    two cards of one type with another type."""
    hand = ["maple-0", "maple-1", "ginkgo-0", "oak-0"]
    state = mj.build(hands={"alice": hand})
    assert mj.illegal(state, "alice", mj.play("ginkgo-0", "maple-0")).rule == "MOM-R5"
    mj.illegal(state, "alice", mj.play("maple-0", "maple-1", "ginkgo-0"))
    mj.play_(state, "alice", mj.play("maple-0", "ginkgo-0", "oak-0"))
    assert [p.type for p in state.players["alice"].piles] == ["maple", "ginkgo", "oak"]


def test_MOM_2_2_5_a_three_closes_the_pile_with_a_torii(mj):
    """MOM-2.2.5: a 3 closes its pile; nothing more goes on it."""
    hand = ["maple-3", "maple-2"]
    state = mj.build(hands={"alice": hand}, piles={"alice": [["maple-0", "maple-1", "maple-2"]]})
    events = mj.play_(state, "alice", mj.play("maple-3"))
    assert events[0].data["piles"][0]["closed"] and "closed by a torii" in mj.lines(events)[0]
    mj.play_(state, "alice", mj.END)
    state.turn.seat, state.turn.phase = "alice", "main"
    assert "torii" in mj.illegal(state, "alice", mj.play("maple-2")).message
    assert mj.engine.view(state, None)["torii"]["closed"] == 1


def test_MOM_2_2_6_neighbouring_acorns_give_two_each(mj):
    """MOM-2.2.6 (MOM-R10): after a play of 2+ types each neighbouring pair whose touching
    corners both show an acorn gives 2 acorns."""
    piles = {"alice": [["maple-0R"], ["ginkgo-0"]]}
    hand = ["ginkgo-1L", "cherry-0L", "oak-0"]
    state = mj.build(hands={"alice": hand}, piles=piles, acorns={"alice": 0})
    events = mj.play_(state, "alice", mj.play("ginkgo-1L", "oak-0"))
    bonus = next(e for e in events if e.kind == "bonus")
    assert bonus.data == {"seat": "alice", "pairs": [["maple", "ginkgo"]], "acorns": 2}
    assert state.players["alice"].acorns == 2


def test_MOM_2_2_7_two_pairs_and_no_bonus_for_one_type(mj):
    """MOM-2.2.7: two matching pairs give 4; a play of one type gives no bonus; a right
    acorn meeting a pile without a left acorn gives nothing."""
    piles = {"alice": [["maple-0R"], ["ginkgo-0"], ["cherry-0R"]]}
    hand = ["ginkgo-1L", "oak-0L", "cherry-1"]
    state = mj.build(hands={"alice": hand}, piles=piles, acorns={"alice": 0})
    events = mj.play_(state, "alice", mj.play("ginkgo-1L", "oak-0L"))
    assert next(e for e in events if e.kind == "bonus").data["acorns"] == 4
    state = mj.build(hands={"alice": ["ginkgo-1L"]}, piles={"alice": [["maple-0R"], ["ginkgo-0"]]})
    assert "bonus" not in kinds(mj.play_(state, "alice", mj.play("ginkgo-1L")))


def test_MOM_2_2_8_every_acorn_pair_in_the_row_pays_not_only_those_played_on(mj):
    """MOM-2.2.8 (overview: after playing different types, each pair of adjacent top cards
    in your area; MOM-R10): a matching pair that this play did not touch pays too."""
    piles = {"alice": [["maple-0R"], ["ginkgo-0L"], ["cherry-0"]]}
    state = mj.build(hands={"alice": ["cherry-1", "oak-0"]}, piles=piles, acorns={"alice": 0})
    events = mj.play_(state, "alice", mj.play("cherry-1", "oak-0"))
    bonus = next(e for e in events if e.kind == "bonus")
    assert bonus.data == {"seat": "alice", "pairs": [["maple", "ginkgo"]], "acorns": 2}
    assert state.players["alice"].acorns == 2


def _placed(mj):
    """Alice's row maple-0 | ginkgo-0L; in hand cherry-0R and oak-0 (2 players: 4 types)."""
    piles = {"alice": [["maple-0"], ["ginkgo-0L"]]}
    hand = ["cherry-0R", "oak-0"]
    return mj.build(hands={"alice": hand}, piles=piles, acorns={"alice": 0})


def test_MOM_2_2_9_the_player_places_a_new_pile_and_its_neighbours_count(mj):
    """MOM-2.2.9 (MOM-R5, MOM-R10): position decides which corners meet, so the player
    says where each new pile goes (``at``: its place in the row after the play); the
    other piles keep their order. At the right end cherry-0R meets no acorn; placed left
    of ginkgo-0L it earns 2 acorns. ``legal_actions`` lists every placement."""
    state = _placed(mj)
    play = mj.play("cherry-0R", "oak-0")
    listed = [
        a.get("at")
        for a in mj.engine.legal_actions(state, "alice")
        if a["kind"] == "play" and a["cards"] == play["cards"]
    ]
    assert listed[0] is None and len(listed) == 4 * 3  # 4 places for 2 piles, in order
    assert [1, 3] in listed and [2, 3] not in listed  # the right end is the play without at
    events = mj.play_(state, "alice", {**play, "at": [1, 3]})
    assert [p.type for p in state.players["alice"].piles] == ["maple", "cherry", "ginkgo", "oak"]
    bonus = next(e for e in events if e.kind == "bonus")
    assert bonus.data["pairs"] == [["cherry", "ginkgo"]] and state.players["alice"].acorns == 2
    assert mj.lines(events, "bob")[0] == (
        "alice plays a card on a new cherry pile placed 2nd from the left, now showing "
        "cherry 0 (acorn right); a card on a new oak pile placed 4th from the left, now "
        "showing oak 0."
    )
    state = _placed(mj)
    events = mj.play_(state, "alice", play)
    assert [p.type for p in state.players["alice"].piles] == ["maple", "ginkgo", "cherry", "oak"]
    assert "bonus" not in kinds(events)
    state = mj.build(hands={"alice": ["maple-0"]}, piles={"alice": [["oak-0"]]})
    mj.play_(state, "alice", {**mj.play("maple-0"), "at": [0]})
    assert [p.type for p in state.players["alice"].piles] == ["maple", "oak"]


def test_MOM_2_2_10_at_is_checked(mj):
    """MOM-2.2.10 (MOM-R5): one position per new pile, each its own, inside the row; not
    on a play that starts no pile; the right end has one spelling, without ``at``."""
    state = _placed(mj)
    play = mj.play("cherry-0R", "oak-0")
    assert (
        "one position per new pile (cherry, oak)"
        in mj.illegal(state, "alice", {**play, "at": [1]}).message
    )
    assert (
        "its own position from 0 to 3" in mj.illegal(state, "alice", {**play, "at": [1, 1]}).message
    )
    assert "from 0 to 3" in mj.illegal(state, "alice", {**play, "at": [0, 4]}).message
    refused = mj.illegal(state, "alice", {**play, "at": [2, 3]})
    assert "right end" in refused.message and refused.rule == "MOM-R5"
    schema = jsonschema.Draft202012Validator(mj.engine.action_schema())
    assert schema.is_valid({**play, "at": [1, 3]}) and not schema.is_valid({**play, "at": [1, 1]})
    assert mj.engine.label({**play, "at": [1, 3]}).endswith("new piles at 1, 3 (0 = leftmost)")
    state = mj.build(hands={"alice": ["maple-1"]}, piles={"alice": [["maple-0"]]})
    assert (
        "starts no new pile"
        in mj.illegal(state, "alice", {**mj.play("maple-1"), "at": [0]}).message
    )
    assert "row positions" in mj.illegal(state, "alice", {**mj.play("maple-1"), "at": "0"}).message


# -- MOM-2.3 Activate an objective ------------------------------------------------------------------


def test_MOM_2_3_1_three_acorns_take_an_objective(mj):
    """MOM-2.3.1: pay 3 acorns; the token leaves the centre for the player's area."""
    state = mj.build(acorns={"alice": 3}, centre=["fresh-buds", "wide-view"], garden=["maple-0"])
    mj.play_(state, "alice", {"kind": "activate", "objective": "wide-view"})
    assert state.players["alice"].objectives == ["wide-view"] and state.centre == ["fresh-buds"]
    assert state.players["alice"].acorns == 0


def test_MOM_2_3_2_activation_needs_three_acorns_and_a_token_in_the_centre(mj):
    """MOM-2.3.2: two acorns are not enough; an owned or absent token cannot be taken."""
    state = mj.build(acorns={"alice": 2}, centre=["fresh-buds"], objectives={"bob": ["wide-view"]})
    assert mj.illegal(state, "alice", {"kind": "activate", "objective": "fresh-buds"}).rule == (
        "MOM-2.3"
    )
    state.players["alice"].acorns = 5
    mj.illegal(state, "alice", {"kind": "activate", "objective": "wide-view"})


# -- MOM-3 Minor actions -----------------------------------------------------------------------------


def test_MOM_3_1_1_discard_two_for_an_acorn_once_per_turn(mj):
    """MOM-3.1.1 (MOM-R6): two cards, in hand order, go face up for one acorn; once a turn."""
    hand = ["maple-0", "ginkgo-1", "oak-2", "oak-3"]
    state = mj.build(hands={"alice": hand}, acorns={"alice": 0}, garden=["cherry-0"])
    assert mj.illegal(state, "alice", {"kind": "discard", "cards": ["oak-2", "maple-0"]}).rule == (
        "MOM-3.1"
    )
    mj.illegal(state, "alice", {"kind": "discard", "cards": ["maple-0", "maple-0"]})
    mj.play_(state, "alice", {"kind": "discard", "cards": ["maple-0", "oak-2"]})
    assert state.discard[-2:] == ["maple-0", "oak-2"] and state.players["alice"].acorns == 1
    mj.illegal(state, "alice", {"kind": "discard", "cards": ["ginkgo-1", "oak-3"]})
    mj.legal(state, "alice", mj.collect("cherry"))


def test_MOM_3_2_1_a_landscape_costs_an_acorn_once_per_turn_once_per_game(mj):
    """MOM-3.2.1: pay 1 acorn; one power per turn; each landscape once per game; only yours."""
    state = mj.build(
        acorns={"alice": 2},
        garden=["maple-0"],
        landscapes={"alice": ["old-oak", "storehouse", "pagoda"]},
    )
    mj.illegal(state, "alice", mj.power("moon-gate"))
    mj.play_(state, "alice", mj.power("old-oak"))
    assert state.players["alice"].acorns == 3
    assert "this turn" in mj.illegal(state, "alice", mj.power("storehouse")).message
    mj.play_(state, "alice", mj.collect("maple"))  # no minor action left: the turn ends
    state.turn.seat, state.turn.powered = "alice", False
    assert "once per game" in mj.illegal(state, "alice", mj.power("old-oak")).message
    state.players["alice"].acorns = 0
    assert "none" in mj.illegal(state, "alice", mj.power("storehouse")).message


def test_MOM_3_2_2_both_minor_actions_before_and_after_the_main_action(mj):
    """MOM-3.2.2: a discard before and a power after the main action, in one turn."""
    hand = ["maple-0", "ginkgo-1", "oak-2"]
    state = mj.build(
        hands={"alice": hand}, landscapes={"alice": ["old-oak", "storehouse", "pagoda"]}
    )
    events = mj.run(
        state,
        ("alice", {"kind": "discard", "cards": ["ginkgo-1", "oak-2"]}),
        ("alice", mj.play("maple-0")),
        ("alice", mj.power("old-oak")),
    )
    assert kinds(events)[-1] == "turn" and state.players["alice"].acorns == 2 + 1 - 1 + 2


# -- MOM-4 Hand limit --------------------------------------------------------------------------------


def test_MOM_4_1_discard_down_to_eight_at_the_end_of_the_turn(mj):
    """MOM-4.1: above 8 cards at the end of the turn, discard one card at a time."""
    hand = ["maple-0", "maple-1", "maple-2", "ginkgo-0", "ginkgo-1", "ginkgo-2", "oak-0"]
    garden = ["cherry-0", "cherry-1", "cherry-2", "oak-3"]
    state = mj.build(hands={"alice": hand}, garden=garden, acorns={"alice": 0})
    events = mj.run(state, ("alice", mj.collect("cherry")), ("alice", mj.END))
    prompt = mj.engine.prompt(state)
    assert prompt.kind == "hand-limit" and prompt.detail["excess"] == 2
    assert mj.illegal(state, "alice", mj.END).rule == "MOM-4"
    assert "discard down to 8" in mj.lines(events)[-1]
    mj.illegal(state, "alice", {"kind": "hand-limit", "card": "oak-3"})
    mj.play_(state, "alice", {"kind": "hand-limit", "card": "maple-0"})
    events = mj.play_(state, "alice", {"kind": "hand-limit", "card": "cherry-2"})
    assert len(state.players["alice"].hand) == 8 and kinds(events) == ["trim", "turn"]
    assert state.discard[-2:] == ["maple-0", "cherry-2"]


def test_MOM_4_2_no_hand_limit_discard_at_eight(mj):
    """MOM-4.2: exactly 8 cards is within the limit."""
    hand = ["maple-0", "maple-1", "maple-2", "ginkgo-0", "ginkgo-1", "ginkgo-2", "oak-0"]
    state = mj.build(hands={"alice": hand}, garden=["cherry-0"], acorns={"alice": 0})
    mj.run(state, ("alice", mj.collect("cherry")), ("alice", mj.END))
    assert mj.turn(state) == "bob"


# -- MOM-5 The end -------------------------------------------------------------------------------------


def test_MOM_5_1_an_empty_deck_ends_the_game_after_that_turn(mj):
    """MOM-5.1 (MOM-R7): the refill empties the deck; the turn ends, then the game."""
    state = mj.build(
        hands={"alice": ["oak-0", "oak-1"]}, garden=["maple-0", "ginkgo-0"], deck=["cherry-0"]
    )
    mj.play_(state, "alice", mj.collect("maple"))
    assert mj.turn(state) == "alice" and not state.deck
    events = mj.play_(state, "alice", mj.END)
    end = next(e for e in events if e.kind == "end")
    assert end.barrier and end.data["reason"] == "deck"
    assert mj.engine.prompt(state) is None and mj.engine.outcome(state) is not None
    assert mj.illegal(state, "bob", mj.collect("ginkgo")).rule == "MOM-5"


def test_MOM_5_2_the_torii_limit_ends_the_game_after_that_turn(mj):
    """MOM-5.2 (MOM-R7): players+2 closed piles in all (4 with 2 players) end the game."""
    closed = [
        ["maple-0", "maple-1", "maple-2", "maple-3"],
        ["ginkgo-0", "ginkgo-1", "ginkgo-2", "ginkgo-3"],
    ]
    piles = {"alice": closed, "bob": [["cherry-0", "cherry-1", "cherry-2"]]}
    state = mj.build(hands={"bob": ["cherry-3"]}, piles=piles, turn="bob", acorns={"bob": 0})
    events = mj.play_(state, "bob", mj.play("cherry-3"))
    assert "end" not in kinds(events)  # 3 closed of 4
    piles["bob"] = [["cherry-0", "cherry-1", "cherry-2"], ["oak-0", "oak-1", "oak-2"]]
    hands = {"bob": ["cherry-3", "oak-3"]}
    state = mj.build(hands=hands, piles=piles, turn="bob", acorns={"bob": 0})
    events = mj.play_(state, "bob", mj.play("cherry-3", "oak-3"))
    assert next(e for e in events if e.kind == "end").data == {
        "reason": "torii",
        "closed": 4,
        "limit": 4,
    }
    assert mj.engine.prompt(state) is None
