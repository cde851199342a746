"""Rules cases of the tally test game, numbered after the rules in testgame/engine.py."""

from __future__ import annotations

import pytest

from arbiter.core.errors import IllegalAction, SchemaViolation, UsageError
from arbiter.core.rng import Rng
from testgame.engine import TallyEngine

ENGINE = TallyEngine()
RNG = Rng(b"tally rules")


def make(deck, hands, tallies=None, piles=None, turn="alice", played=0, discarded=False):
    """Return a state built from explicit zones (the card count is inferred)."""
    seats = list(hands)
    tallies = tallies or {s: [] for s in seats}
    piles = piles or {s: [] for s in seats}
    cards = len(deck) + sum(len(z) for zones in (hands, tallies, piles) for z in zones.values())
    state = ENGINE.decode(
        {
            "format": "tally.state/1",
            "seats": seats,
            "cards": cards,
            "deck": deck,
            "hands": hands,
            "tallies": tallies,
            "piles": piles,
            "turn": turn,
            "played": played,
            "discarded": discarded,
        }
    )
    ENGINE.invariants(state)
    return state


def rejected(state, seat, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        ENGINE.check(state, seat, action)
    return info.value


def act(state, seat, action):
    ENGINE.check(state, seat, action)
    return ENGINE.apply(state, seat, action, RNG)


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "play", "card": "3"},
        {"kind": "play", "card": True},
        {"kind": "play"},
        {"kind": "draw", "extra": 1},
        {"kind": "pass"},
        {},
    ],
)
def test_tally_0_decisions_are_strict(action):
    state = make([5, 6], {"alice": [3, 4], "bob": [1, 2]})
    assert rejected(state, "alice", action).rule == "TALLY-0"


def test_tally_1_setup_deals_private_hands_from_a_shuffled_deck():
    options = ENGINE.parse_options({"cards": "12", "hand": "2"})
    seats = ["alice", "bob", "carol"]
    state, events = ENGINE.setup(options, seats, Rng.for_entry(b"s" * 32, 0))
    other, _ = ENGINE.setup(options, seats, Rng.for_entry(b"t" * 32, 0))
    ENGINE.invariants(state)
    assert [len(state.hands[s]) for s in seats] == [2, 2, 2] and len(state.deck) == 6
    assert state.deck != other.deck
    deal = next(e for e in events if e.kind == "deal" and e.data["seat"] == "bob")
    assert ENGINE.describe(deal, "bob") == "you are dealt " + ", ".join(
        map(str, state.hands["bob"])
    )
    assert ENGINE.describe(deal, "alice") == ENGINE.describe(deal, None) == "bob is dealt 2 cards"


def test_tally_1_only_the_seat_whose_turn_it_is_decides():
    state = make([5, 6], {"alice": [3, 4], "bob": [1, 2]})
    assert ENGINE.legal_actions(state, "bob") == []
    assert rejected(state, "bob", {"kind": "draw"}).rule == "TALLY-1"


def test_tally_2_at_most_two_plays_per_turn():
    state = make([5, 6], {"alice": [2, 3, 4], "bob": [1]})
    act(state, "alice", {"kind": "play", "card": 2})
    act(state, "alice", {"kind": "play", "card": 3})
    assert state.tallies["alice"] == [2, 3]
    assert rejected(state, "alice", {"kind": "play", "card": 4}).rule == "TALLY-2"
    assert {"kind": "play", "card": 4} not in ENGINE.legal_actions(state, "alice")


def test_tally_2_rejections_only_use_what_the_seat_sees():
    # Card 1 is in bob's hand in one state and in the deck in the other: same message.
    in_hand = make([5, 6], {"alice": [3, 4], "bob": [1, 2]})
    in_deck = make([1, 6], {"alice": [3, 4], "bob": [2, 5]})
    play = {"kind": "play", "card": 1}
    assert str(rejected(in_hand, "alice", play)) == str(rejected(in_deck, "alice", play))


def test_tally_3_discard_once_per_turn_and_twice_per_game():
    state = make([5, 6, 7], {"alice": [2, 3, 4], "bob": [1]}, piles={"alice": [8], "bob": []})
    act(state, "alice", {"kind": "discard", "card": 2})
    assert rejected(state, "alice", {"kind": "discard", "card": 3}).rule == "TALLY-3"
    act(state, "alice", {"kind": "draw"})
    act(state, "bob", {"kind": "draw"})
    assert state.turn == "alice" and len(state.piles["alice"]) == 2
    assert rejected(state, "alice", {"kind": "discard", "card": 3}).rule == "TALLY-3"
    assert all(a["kind"] != "discard" for a in ENGINE.legal_actions(state, "alice"))


def test_tally_3_the_discarded_card_stays_secret():
    state = make([5, 6], {"alice": [3, 4], "bob": [1, 2]})
    [event] = act(state, "alice", {"kind": "discard", "card": 3})
    assert ENGINE.describe(event, "alice") == "you discard 3 face down"
    assert ENGINE.describe(event, "bob") == ENGINE.describe(event, None) == "alice discards a card"
    assert ENGINE.view(state, "alice")["pile"] == [3]
    assert ENGINE.view(state, "bob")["piles"] == {"alice": 1, "bob": 0}
    assert "pile" not in ENGINE.view(state, None)


def test_tally_4_draw_ends_the_turn_behind_a_barrier():
    state = make([5, 6], {"alice": [3, 4], "bob": [1, 2]})
    assert rejected(state, "alice", {"kind": "end"}).rule == "TALLY-4"
    [event] = act(state, "alice", {"kind": "draw"})
    assert event.barrier and state.turn == "bob" and state.hands["alice"] == [3, 4, 5]
    assert ENGINE.describe(event, "alice") == "you draw 5 (1 left in the deck)"
    assert ENGINE.describe(event, "bob") == "alice draws a card (1 left in the deck)"


def test_tally_4_a_batch_runs_until_the_draw():
    state = make([6, 7], {"alice": [2, 3, 4], "bob": [1, 5]})
    batch = [
        {"kind": "play", "card": 2},
        {"kind": "play", "card": 3},
        {"kind": "discard", "card": 4},
    ]
    for action in batch:
        assert not any(e.barrier for e in act(state, "alice", action))
        assert ENGINE.prompt(state).seat == "alice"
    assert ENGINE.legal_actions(state, "alice") == [{"kind": "draw"}]


def test_tally_4_end_once_the_deck_is_empty():
    state = make([], {"alice": [3, 4], "bob": [1, 2]}, played=1, tallies={"alice": [5], "bob": []})
    assert rejected(state, "alice", {"kind": "draw"}).rule == "TALLY-4"
    act(state, "alice", {"kind": "end"})
    assert state.turn == "bob"


def test_tally_5_with_the_deck_empty_play_before_ending_and_skip_empty_hands():
    state = make([], {"alice": [3], "bob": [], "carol": [1, 2]}, tallies=None)
    assert rejected(state, "alice", {"kind": "end"}).rule == "TALLY-5"
    act(state, "alice", {"kind": "play", "card": 3})
    act(state, "alice", {"kind": "end"})
    assert state.turn == "carol"


def test_tally_6_the_game_ends_with_shared_places_on_ties():
    state = make([], {"alice": [1], "bob": []}, tallies={"alice": [2], "bob": [3]})
    events = act(state, "alice", {"kind": "play", "card": 1})
    assert [e.kind for e in events] == ["play", "over"]
    assert ENGINE.prompt(state) is None
    outcome = ENGINE.outcome(state)
    assert outcome.scores == {"alice": 3, "bob": 3}
    assert outcome.ranking == [["alice", "bob"]] and outcome.winners == ["alice", "bob"]
    assert outcome.breakdown["alice"] == {"tally": 3, "cards": 2, "discarded": 0}
    assert rejected(state, "bob", {"kind": "end"}).rule == "TALLY-6"


@pytest.mark.parametrize(
    "raw",
    [{"cards": "x"}, {"cards": "3"}, {"hand": "6"}, {"cards": "6", "hand": "2"}, {"deck": "9"}],
)
def test_options_are_checked(raw):
    with pytest.raises(UsageError):
        ENGINE.parse_options(raw)


def test_options_become_integers_in_the_manifest():
    assert ENGINE.parse_options({}) == {"cards": 12, "hand": 2}
    assert ENGINE.parse_options({"cards": "20", "hand": "3"}) == {"cards": 20, "hand": 3}
    with pytest.raises(SchemaViolation):
        ENGINE.check_options({"cards": "12", "hand": 2})


def test_resample_keeps_the_seat_s_own_zones():
    state = make([5, 6, 7, 8], {"alice": [3, 4], "bob": [1, 2]}, piles={"alice": [9], "bob": [10]})
    seen = set()
    for n in range(20):
        other = ENGINE.resample(state, "alice", Rng.for_entry(b"r" * 32, n))
        ENGINE.invariants(other)
        assert other.hands["alice"] == [3, 4] and other.piles["alice"] == [9]
        seen.add((tuple(other.deck), tuple(other.hands["bob"]), tuple(other.piles["bob"])))
    assert len(seen) > 1
