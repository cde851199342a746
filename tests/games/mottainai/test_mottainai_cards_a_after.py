"""Card effects of issue 5 part A: after completing this card.

Each test is named after its card and built with the scenario builder (exact tables, no
shuffle), driving real decisions through ``check`` and ``apply``.
"""

from __future__ import annotations

from mottainai_cardkit import fx, smith, use, uses

from arbiter.core.rng import Rng
from arbiter.games.mottainai.cover import helpers_covered
from arbiter.games.mottainai.state import PUBLIC

# -- after completing this --------------------------------------------------------------


def test_frog_gives_a_bonus_turn_when_no_opponent_has_fewer_works(mot):
    """Frog (M-R30): no opponent with fewer works (Frog counted): a full turn follows."""
    state = mot.build(gift_shop={"bob": ["crane"]}, hand={"alice": ["bell", "frog", "tower"]})
    smith(mot, state, "frog", ["tower"])
    assert uses(mot, state) == [use("frog")]
    events = mot.play(state, "alice", use("frog"))
    assert "Frog: alice takes a bonus turn after this one." in mot.lines(events, "bob")
    assert state.current == "alice" and state.turn == 2
    assert "bonus_turn" not in mot.engine.view(state, "bob")["players"]["alice"]
    assert [e.data for e in events if e.kind == "turn"] == [{"seat": "alice", "turn": 2}]
    assert not state.memo  # the bonus turn is a plain turn: no third one


def test_frog_bonus_turn_shows_in_the_views_until_it_starts(mot):
    state = mot.build(
        gift_shop={"bob": ["crane"]},
        helpers={"alice": ["coin"]},
        hand={"alice": ["bell", "frog", "tower"]},
    )
    smith(mot, state, "frog", ["tower"])
    mot.play(state, "alice", use("frog"))
    assert mot.engine.view(state, None)["players"]["alice"]["bonus_turn"] is True
    mot.play(state, "alice", mot.PRAYER)
    assert (
        state.current == "alice"
        and "bonus_turn" not in mot.engine.view(state, None)["players"]["alice"]
    )


def test_frog_may_be_declined(mot):
    state = mot.build(gift_shop={"bob": ["crane"]}, hand={"alice": ["bell", "frog", "tower"]})
    smith(mot, state, "frog", ["tower"])
    mot.play(state, "alice", mot.DONE)
    assert state.current == "bob"


def test_frog_not_offered_when_an_opponent_has_fewer_works(mot):
    state = mot.build(gallery={"alice": ["crane"]}, hand={"alice": ["bell", "frog", "tower"]})
    smith(mot, state, "frog", ["tower"])
    assert mot.prompt(state) == ("bob", "task")


def test_frog_triggers_only_on_its_own_completion(mot):
    state = mot.build(
        gallery={"alice": ["frog"]},
        gift_shop={"bob": ["crane", "doll"]},
        hand={"alice": ["bell", "tower", "statue"]},
    )
    smith(mot, state, "tower", ["statue"])
    assert mot.prompt(state) == ("bob", "task")


def test_jar_takes_the_named_material_and_reveals_the_whole_hand(mot):
    """Rules FAQ: Jar reveals each opponent's entire hand, to everyone; the named material
    goes to the Jar owner's waiting area. News to alice: a barrier."""
    state = mot.build(
        mot.SEATS3,
        helpers={"alice": ["coin"]},  # two actions: the turn goes on after Jar
        hand={
            "alice": ["bell", "jar", "dice", "figurine"],
            "bob": ["bowl", "crane", "kite"],
            "carol": ["cup", "fan"],
        },
    )
    smith(mot, state, "jar", ["dice", "figurine"])
    assert [a["material"] for a in uses(mot, state)] == ["PAPER", "STONE", "CLOTH", "CLAY", "METAL"]
    events = mot.play(state, "alice", use("jar", material="CLAY"))
    assert state.players["bob"].hand == ["crane", "kite"] and state.players["carol"].hand == ["fan"]
    assert state.players["alice"].waiting == ["bowl", "cup"]
    jar = fx(events, "jar")
    assert jar.barrier
    line = (
        "Jar: alice names CLAY; bob reveals Bowl, Crane, Kite; carol reveals Cup, Fan. "
        "Their CLAY cards go to alice's waiting area (bob 1, carol 1)."
    )
    for viewer in ("alice", "bob", "carol", None):
        assert line in mot.lines(events, viewer)
    view = mot.engine.view(state, "alice")
    assert view["revealed"]["cards"] == ["bowl", "crane", "cup", "fan", "kite"]
    for i in range(5):  # what everyone saw stays in place when the rest is redrawn
        other = mot.engine.resample(state, "alice", Rng.for_entry(b"jar", i))
        assert other.players["bob"].hand == ["crane", "kite"]
        assert other.players["alice"].waiting == ["bowl", "cup"]
        assert mot.engine.view(other, "alice") == view
    assert view["players"]["alice"]["waiting_seen"] == ["bowl", "cup"]


def test_jar_may_be_declined(mot):
    state = mot.build(
        hand={"alice": ["bell", "jar", "dice", "figurine"], "bob": ["bowl"]},
    )
    smith(mot, state, "jar", ["dice", "figurine"])
    mot.play(state, "alice", mot.DONE)
    assert state.players["bob"].hand == ["bowl"] and state.players["alice"].waiting == []


def test_jar_spares_the_team_partner(mot):
    """Variants: Team Play: "opponent" excludes your partner (M-R21)."""
    state = mot.build(
        mot.SEATS4,
        teams=True,
        helpers={"alice": ["coin"]},
        hand={
            "alice": ["bell", "jar", "dice", "figurine"],
            "bob": ["bowl"],
            "carol": ["cup"],
            "dave": ["vase"],
        },
    )
    smith(mot, state, "jar", ["dice", "figurine"])
    mot.play(state, "alice", use("jar", material="CLAY"))
    assert state.players["carol"].hand == ["cup"]
    assert state.players["alice"].waiting == ["bowl", "vase"]


def test_shuriken_takes_a_work_from_an_opponent_with_more_works(mot):
    """Shuriken (M-R13): the stolen work goes to the wing alice picks; cover follows at once
    for both players; the stolen work's own "after you complete this" does not trigger."""
    state = mot.build(
        gallery={"bob": ["statue", "gong"]},
        helpers={"bob": ["chopsticks"]},
        hand={"alice": ["bell", "shuriken", "flute", "ring"]},
    )
    assert helpers_covered(state, "bob", "METAL")
    smith(mot, state, "shuriken", ["flute", "ring"])
    assert uses(mot, state) == [
        use("shuriken", target=t, wing=w)
        for t in ("statue", "gong")
        for w in ("gallery", "gift_shop")
    ]
    events = mot.play(state, "alice", use("shuriken", target="statue", wing="gift_shop"))
    assert state.players["alice"].gift_shop == ["statue"] and state.players["bob"].gallery == [
        "gong"
    ]
    assert "Shuriken: alice takes Statue from bob into their gift shop." in mot.lines(events)
    assert mot.prompt(state) == ("bob", "task")  # Statue's own effect did not trigger
    events = mot.play(state, "bob", mot.NO_TASK)
    state2 = mot.build(
        gallery={"bob": ["statue", "gong"]},
        helpers={"bob": ["chopsticks"]},
        hand={"alice": ["bell", "shuriken", "flute", "ring"]},
    )
    smith(mot, state2, "shuriken", ["flute", "ring"])
    mot.play(state2, "alice", use("shuriken", target="gong", wing="gallery"))
    assert not helpers_covered(state2, "bob", "METAL")


def test_shuriken_needs_an_opponent_with_more_works(mot):
    """Shuriken: works are counted after Shuriken is placed; a tie is not "more"."""
    state = mot.build(
        gallery={"bob": ["statue"]}, hand={"alice": ["bell", "shuriken", "flute", "ring"]}
    )
    smith(mot, state, "shuriken", ["flute", "ring"])
    assert mot.prompt(state) == ("bob", "task")


def test_shuriken_may_be_declined(mot):
    state = mot.build(
        gallery={"bob": ["statue", "gong"]}, hand={"alice": ["bell", "shuriken", "flute", "ring"]}
    )
    smith(mot, state, "shuriken", ["flute", "ring"])
    mot.play(state, "alice", mot.DONE)
    assert state.players["bob"].gallery == ["statue", "gong"]


def test_shuriken_stolen_cover_does_not_recount_the_actions(mot):
    """Rules FAQ (don't recount): a work gained mid-task covers helpers from the next task."""
    state = mot.build(
        gallery={"bob": ["statue", "gong"]},
        helpers={"alice": ["chopsticks", "coin"]},
        hand={"alice": ["bell", "shuriken", "flute", "ring"]},
    )
    smith(mot, state, "shuriken", ["flute", "ring"])  # 1 + 2 uncovered helpers = 3 actions
    assert state.task["total"] == 3
    mot.play(state, "alice", use("shuriken", target="gong", wing="gallery"))
    assert helpers_covered(state, "alice", "METAL") and state.task["total"] == 3


def test_statue_moves_two_floor_cards_to_the_craft_bench(mot):
    state = mot.build(floor=["crane", "kite", "jar"], hand={"alice": ["bell", "statue", "tower"]})
    smith(mot, state, "statue", ["tower"])
    assert uses(mot, state) == [
        use("statue", cards=["crane", "jar"]),
        use("statue", cards=["crane", "kite"]),
        use("statue", cards=["jar", "kite"]),
    ]
    events = mot.play(state, "alice", use("statue", cards=["crane", "jar"]))
    assert state.players["alice"].bench == ["crane", "jar"] and state.floor == ["kite"]
    line = "Statue: alice moves Crane [PAPER], Jar [CLAY] from the floor to their craft bench."
    assert line in mot.lines(events, "bob")


def test_statue_takes_the_only_floor_card_and_needs_a_floor(mot):
    state = mot.build(floor=["kite"], hand={"alice": ["bell", "statue", "tower"]})
    smith(mot, state, "statue", ["tower"])
    assert uses(mot, state) == [use("statue", cards=["kite"])]
    state = mot.build(hand={"alice": ["bell", "statue", "tower"]})
    smith(mot, state, "statue", ["tower"])
    assert mot.prompt(state) == ("bob", "task")


def test_statue_may_be_declined(mot):
    state = mot.build(floor=["crane", "kite"], hand={"alice": ["bell", "statue", "tower"]})
    smith(mot, state, "statue", ["tower"])
    mot.play(state, "alice", mot.DONE)
    assert state.floor == ["crane", "kite"] and state.players["alice"].bench == []


def test_vase_moves_two_floor_cards_to_your_sales(mot):
    state = mot.build(
        floor=["crane", "kite", "frog"], hand={"alice": ["bell", "vase", "bowl", "cup"]}
    )
    smith(mot, state, "vase", ["bowl", "cup"])
    events = mot.play(state, "alice", use("vase", cards=["frog", "kite"]))
    assert state.players["alice"].sales == ["frog", "kite"] and state.floor == ["crane"]
    assert (
        "Vase: alice moves Frog [STONE], Kite [CLOTH] from the floor to their sales."
        in mot.lines(events)
    )


def test_vase_may_be_declined(mot):
    state = mot.build(floor=["crane"], hand={"alice": ["bell", "vase", "bowl", "cup"]})
    smith(mot, state, "vase", ["bowl", "cup"])
    assert uses(mot, state) == [use("vase", cards=["crane"])]
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].sales == []


def test_tablet_returns_the_floor_to_the_deck_bottom_in_everyones_sight(mot):
    """Tablet (M-R32): the floor goes to the bottom in floor order; its place is public."""
    state = mot.build(floor=["crane", "kite"], hand={"alice": ["bell", "tablet", "tower"]})
    smith(mot, state, "tablet", ["tower"])
    assert uses(mot, state) == [use("tablet", option="return"), use("tablet", option="deal")]
    events = mot.play(state, "alice", use("tablet", option="return"))
    assert state.floor == [] and state.deck[-2:] == ["crane", "kite"]
    assert state.known == {"crane": PUBLIC, "kite": PUBLIC}
    line = "Tablet: alice returns the floor (Crane, Kite) to the bottom of the deck."
    assert line in mot.lines(events, None)
    assert mot.engine.view(state, None)["deck"]["returned_publicly"] == ["crane", "kite"]
    other = mot.engine.resample(state, "bob", Rng.for_entry(b"tablet", 1))
    assert other.deck[-2:] == ["crane", "kite"]


def test_tablet_deals_until_the_floor_shows_stone_and_metal(mot):
    """Tablet: deal one at a time until STONE and METAL both show; turned up: a barrier."""
    state = mot.build(
        floor=["frog"],
        deck=["crane", "kite", "gong", "ring"],
        hand={"alice": ["bell", "tablet", "tower"]},
    )
    smith(mot, state, "tablet", ["tower"])
    events = mot.play(state, "alice", use("tablet", option="deal"))
    assert state.floor == ["frog", "crane", "kite", "gong"] and state.deck[0] == "ring"
    deal = fx(events, "tablet-deal")
    assert deal.barrier
    line = (
        "Tablet: alice deals Crane [PAPER], Kite [CLOTH], Gong [METAL] from the deck to the floor."
    )
    assert line in mot.lines(events, "bob")


def test_tablet_dealing_the_last_card_ends_the_game(mot):
    """M-R2: the deck emptied by an effect ends the game at once."""
    state = mot.build(
        deck=["crane", "kite"],
        hand={"alice": ["bell", "tablet", "tower"]},
        leftover=("bob", "waiting"),
    )
    smith(mot, state, "tablet", ["tower"])
    assert uses(mot, state) == [use("tablet", option="deal")]  # an empty floor: no return
    mot.play(state, "alice", use("tablet", option="deal"))
    assert state.end["reason"] == "deck" and state.floor == ["crane", "kite"]


def test_tablet_may_be_declined(mot):
    state = mot.build(floor=["crane"], hand={"alice": ["bell", "tablet", "tower"]})
    smith(mot, state, "tablet", ["tower"])
    mot.play(state, "alice", mot.DONE)
    assert state.floor == ["crane"]
