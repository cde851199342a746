"""Wutai Mountain rules cases WUT-1 … WUT-5: setup, the public split, draws, returns, the end.

Each case cites the Wutai rulebook (``wutai-mountain-rules.en.txt``, by section) or a
ruling (``docs/rulings/mottainai.md``, M-R101 on). Om works: test_wutai_om_cases.py.
Placeholder materials: om-01..om-10 PAPER, om-11..om-21 STONE, om-22..om-30 CLOTH,
om-31..om-40 CLAY, om-41..om-50 METAL; urn CLAY, wick and bandana CLOTH, paper-booster PAPER.
"""

from __future__ import annotations

import pytest
from wutai_kit import use, wbuild

from arbiter.core.errors import UsageError
from arbiter.games.mottainai import wutai
from arbiter.games.mottainai.wutai import is_om

CLERK_TASK = {"hand": {"alice": ["fan", "kite"]}, "helpers": {"alice": ["doll"]}}
"""alice holds Fan (PAPER: CLERK) and has a PAPER helper: two actions on a CLERK task."""


def _draws(events):
    return [(e.data["count"], e.data.get("wutai")) for e in events if e.kind == "draw"]


# -- WUT-1 Setup ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_WUT_1_1_four_base_cards_and_one_wutai_card_each(mot, n):
    """WUT-1.1 (Wutai: Setup; M-R101): one Wutai deck whatever the player count; each hand
    4 base cards and 1 Wutai card; every other setup step uses the base deck."""
    seats = ["alice", "bob", "carol", "dave", "erin"][:n]
    state, events = mot.new_game(seats, wutai="yes")
    w = state.wutai
    assert w is not None and w["table"] == wutai.BUILTIN
    for p in state.players.values():
        assert len(p.hand) == 5 and sum(map(is_om, p.hand)) == 1
        assert p.task is None or not is_om(p.task)
    assert len(w["deck"]) == 54 - n
    assert not any(map(is_om, state.floor + state.deck))
    decks = 2 if n >= 4 else 1
    assert len(state.deck) == 54 * decks - 4 * n - n - n  # hands, tasks, floor
    assert events[0].data["wutai"]["deck"] == 54 - n
    mot.engine.invariants(state)


def test_WUT_1_2_combines_with_extended_and_teams(mot):
    """WUT-1.2 (issue 15): wutai=yes combines with extended and team play."""
    state, _ = mot.new_game(mot.SEATS4, wutai="yes", teams="yes", extended="yes")
    assert state.teams and state.extended and len(state.wutai["deck"]) == 50


def test_WUT_1_3_options_only_with_wutai_and_base_manifests_unchanged(mot):
    """WUT-1.3 (M-R118): without wutai=yes the manifest options are the base game's; the
    Wutai options need wutai=yes and take only their values."""
    assert mot.options() == {"extended": False, "teams": False}
    assert mot.options(wutai="no") == {"extended": False, "teams": False}
    full = mot.options(wutai="yes")
    assert full == {
        "extended": False,
        "teams": False,
        "wutai": True,
        "wutai_cards": "builtin",
        "wutai_draws": "prayer",
        "om_works_end": True,
        "om_leave": "return",
    }
    mot.engine.check_options(full)
    with pytest.raises(UsageError, match="needs --option wutai=yes"):
        mot.options(om_leave="floor")
    with pytest.raises(UsageError, match="wutai_draws takes"):
        mot.options(wutai="yes", wutai_draws="tailor")
    with pytest.raises(UsageError, match="yes or no"):
        mot.options(wutai="maybe")


# -- WUT-2 What is public ---------------------------------------------------------------------


def test_WUT_2_1_hand_split_and_wutai_deck_size_are_public(mot):
    """WUT-2.1 (Wutai: Using Wutai Cards; M-R102): everyone sees how many base and Wutai
    cards each hand holds and the Wutai deck's size, not which Wutai cards."""
    state, _ = mot.new_game(wutai="yes")
    for viewer in (None, "alice", "bob"):
        view = mot.engine.view(state, viewer)
        assert view["wutai"]["deck"]["count"] == 52
        for seat in ("alice", "bob"):
            p = view["players"][seat]
            assert p["hand_wutai"] == 1 and p["hand_count"] == 5
            assert ("hand" in p) == (seat == viewer)
    bob_om = next(c for c in state.players["bob"].hand if is_om(c))
    assert bob_om not in str(mot.engine.view(state, "alice"))


def test_WUT_2_2_waiting_split_is_public_and_the_draw_line_says_it(mot):
    """WUT-2.2 (M-R102): a waiting area's Wutai count is public (the card backs show it)."""
    state = wbuild(mot, **CLERK_TASK)
    mot.play(state, "alice", mot.task("fan"))
    events = mot.play(state, "alice", mot.PRAYER)
    view = mot.engine.view(state, "bob")["players"]["alice"]
    assert view["waiting_count"] == 1 and view["waiting_wutai"] == 1
    assert "a Wutai card among them" in mot.lines(events, "bob")[0]


# -- WUT-3 Drawing Wutai cards ----------------------------------------------------------------


def test_WUT_3_1_first_prayer_draw_is_wutai_the_second_is_not(mot):
    """WUT-3.1 (Wutai: Using Wutai Cards; M-R103): a PRAYER draws a Wutai card while the
    waiting area holds none; the next PRAYER of the turn draws a base card."""
    state = wbuild(mot, wdeck=["om-05"], deck=["bell"], **CLERK_TASK)
    mot.play(state, "alice", mot.task("fan"))
    first = mot.play(state, "alice", mot.PRAYER)
    second = mot.play(state, "alice", mot.PRAYER)
    assert _draws(first) == [(1, 1)] and _draws(second) == [(1, 0)]
    assert state.players["alice"].hand[-2:] == ["om-05", "bell"]  # Night: into the hand


def test_WUT_3_2_no_task_prayer_draws_wutai(mot):
    """WUT-3.2 (rules: Noon; M-R103): the PRAYER of a turn without a task draws Wutai."""
    state = wbuild(mot, wdeck=["om-12"], hand={"alice": ["kite"]})
    events = mot.play(state, "alice", mot.NO_TASK)
    assert _draws(events) == [(1, 1)] and "om-12" in state.players["alice"].hand


def test_WUT_3_3_tailor_draws_never_wutai_unless_replaced_by_prayer(mot):
    """WUT-3.3 (Wutai: "cards drawn ... due to a TAILOR action are not ever changed to Wutai
    cards, unless that TAILOR is skipped to take a PRAYER instead"; M-R103)."""
    state = wbuild(mot, hand={"alice": ["kite", "robe"]}, helpers={"alice": ["mask"]})
    mot.play(state, "alice", mot.task("kite"))  # CLOTH: TAILOR, two actions
    tailor = mot.run(state, "alice", mot.TAILOR, mot.DONE)
    assert _draws(tailor) == [(4, 0)]  # hand 1 + waiting 0: four base cards
    prayer = mot.play(state, "alice", mot.PRAYER)  # the second TAILOR taken as a PRAYER
    assert _draws(prayer) == [(1, 1)]


def test_WUT_3_4_wutai_draws_any_changes_effect_draws_but_never_tailor(mot):
    """WUT-3.4 (M-R103, option wutai_draws=any): every draw to a waiting area without a
    Wutai card is a Wutai card, but a TAILOR's."""
    state = wbuild(
        mot,
        draws="any",
        hand={"alice": ["kite", "robe"]},
        helpers={"alice": ["mask"]},
        gallery={"alice": ["stool"]},
    )
    mot.play(state, "alice", mot.task("kite"))
    assert _draws(mot.run(state, "alice", mot.TAILOR, mot.DONE)) == [(4, 0)]
    # Stool: a draw after completing a STONE work; with draws=any it is a Wutai card.
    state = wbuild(
        mot,
        draws="any",
        wdeck=["om-15"],
        hand={"alice": ["tower", "frog"]},
        bench={"alice": ["statue"]},
        gallery={"alice": ["stool"]},
    )
    mot.play(state, "alice", mot.task("tower"))
    mot.play(state, "alice", mot.craft("frog"))
    events = mot.play(state, "alice", use("stool"))
    assert _draws(events) == [(1, 1)] and "om-15" in state.players["alice"].hand


# -- WUT-4 Returns ------------------------------------------------------------------------------


def test_WUT_4_1_a_returned_wutai_card_goes_under_the_wutai_deck(mot):
    """WUT-4.1 (Wutai: "If a Wutai card is returned, it is placed on the bottom of the Wutai
    deck"; M-R104): only the seat that returned it knows it (M-R18)."""
    hand = ["kite", "robe", "mask", "fan", "doll", "om-02"]
    state = wbuild(mot, hand={"alice": hand})
    base_count = len(state.deck)
    events = mot.play(state, "alice", mot.ret("om-02"))
    assert state.wutai["deck"][-1] == "om-02" and len(state.deck) == base_count
    assert mot.engine.view(state, "alice")["wutai"]["deck"]["returned_by_you"] == ["om-02"]
    assert mot.engine.view(state, "alice")["deck"]["returned_by_you"] == []
    assert "om-02" not in str(mot.engine.view(state, "bob"))
    assert mot.lines(events, "bob") == [
        "alice returns a card to the bottom of the deck (hand limit)."
    ]


# -- WUT-5 The end --------------------------------------------------------------------------------


def test_WUT_5_1_the_game_ends_when_the_wutai_deck_runs_out(mot):
    """WUT-5.1 (Wutai: Setup, "In the rare situation that the Wutai deck runs out, the game
    ends immediately"; M-R105): at the draw of its last card, like the base deck (M-R2)."""
    others = [c for c in wutai.om_ids(wutai.BUILTIN) if c != "om-07"]
    state = wbuild(mot, wdeck=["om-07"], hand={"alice": ["kite"]}, sales={"bob": others})
    assert len(state.wutai["deck"]) == 1
    events = mot.play(state, "alice", mot.NO_TASK)
    end = next(e for e in events if e.kind == "end")
    assert end.data["reason"] == "wutai-deck" and state.over
    assert "The last Wutai card is drawn" in " ".join(mot.lines(events))
