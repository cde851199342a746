"""Card effects of issue 5 part A: after completing a work, and after an action.

Each test is named after its card and built with the scenario builder (exact tables, no
shuffle), driving real decisions through ``check`` and ``apply``.
"""

from __future__ import annotations

from mottainai_cardkit import fx, smith, use, uses

from arbiter.core.rng import Rng
from arbiter.games.mottainai.state import PUBLIC

# -- after completing a work ----------------------------------------------------------


def test_amulet_sells_a_craft_bench_card_after_any_work(mot):
    state = mot.build(
        gallery={"alice": ["amulet"]},
        bench={"alice": ["jar", "crane"]},
        hand={"alice": ["bell", "scroll"]},
    )
    smith(mot, state, "scroll", [])
    assert uses(mot, state) == [use("amulet", target="jar"), use("amulet", target="crane")]
    events = mot.play(state, "alice", use("amulet", target="jar"))
    assert state.players["alice"].sales == ["jar"] and state.players["alice"].bench == ["crane"]
    assert "Amulet: alice sells CLAY from the craft bench." in mot.lines(events)
    assert mot.prompt(state) == ("bob", "task")  # once per trigger


def test_amulet_may_be_declined_and_needs_a_bench_card(mot):
    state = mot.build(
        gallery={"alice": ["amulet"]}, bench={"alice": ["jar"]}, hand={"alice": ["bell", "scroll"]}
    )
    smith(mot, state, "scroll", [])
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].sales == []
    state = mot.build(gallery={"alice": ["amulet"]}, hand={"alice": ["bell", "scroll"]})
    smith(mot, state, "scroll", [])
    assert mot.prompt(state) == ("bob", "task")


def test_amulet_triggers_on_its_own_completion(mot):
    """M-R9: Amulet is in play once placed."""
    state = mot.build(bench={"alice": ["jar"]}, hand={"alice": ["bell", "amulet", "frog"]})
    smith(mot, state, "amulet", ["frog"])
    assert uses(mot, state) == [use("amulet", target="jar")]


def test_amulet_not_after_an_action_without_a_work(mot):
    state = mot.build(
        gallery={"alice": ["amulet"]}, bench={"alice": ["jar"]}, hand={"alice": ["kite"]}
    )
    mot.play(state, "alice", mot.task("kite"))
    mot.play(state, "alice", mot.PRAYER)
    assert mot.prompt(state) == ("bob", "task")


def test_cloak_returns_the_work_and_completes_a_metal_hand_card(mot):
    """Cloak: the work just completed goes to the deck's bottom (in everyone's sight); a
    METAL hand card becomes a work for free."""
    state = mot.build(
        gallery={"alice": ["cloak"]},
        helpers={"alice": ["coin"]},
        hand={"alice": ["bell", "scroll", "gong"]},
    )
    smith(mot, state, "scroll", [])
    assert uses(mot, state) == [
        use("cloak", target="gong", wing="gallery"),
        use("cloak", target="gong", wing="gift_shop"),
    ]
    events = mot.play(state, "alice", use("cloak", target="gong", wing="gift_shop"))
    p = state.players["alice"]
    assert p.gallery == ["cloak"] and p.gift_shop == ["gong"] and state.deck[-1] == "scroll"
    assert state.known["scroll"] == PUBLIC and not any(e.barrier for e in events)
    lines = mot.lines(events, "bob")
    assert "Cloak: alice returns Scroll to the bottom of the deck." in lines
    assert "alice completes Gong (METAL 3) in the gift shop (CLOAK)." in lines


def test_cloak_may_be_declined_and_needs_a_metal_card(mot):
    state = mot.build(gallery={"alice": ["cloak"]}, hand={"alice": ["bell", "scroll", "gong"]})
    smith(mot, state, "scroll", [])
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].gallery == ["cloak", "scroll"]
    state = mot.build(gallery={"alice": ["cloak"]}, hand={"alice": ["bell", "scroll", "kite"]})
    smith(mot, state, "scroll", [])
    assert mot.prompt(state) == ("bob", "task")


def test_cloak_comes_last_and_the_effects_trigger_again_on_the_new_work(mot):
    """Rules glossary (M-R8, M-R34): Cloak is used last; Stool, Amulet, Cloak … may trigger
    again on the work it completes; the interrupted trigger offers nothing more."""
    state = mot.build(
        gallery={"alice": ["cloak", "amulet", "stool"]},
        bench={"alice": ["jar", "crane"]},
        hand={"alice": ["bell", "tower", "frog", "gong", "ring"]},
    )
    smith(mot, state, "tower", ["frog"])
    assert [a["card"] for a in uses(mot, state)] == ["cloak"] * 4 + ["amulet"] * 2 + ["stool"]
    mot.play(state, "alice", use("amulet", target="jar"))
    mot.play(state, "alice", use("cloak", target="gong", wing="gift_shop"))
    # the new trigger (Gong, METAL): Amulet, Stool and Cloak again
    assert {a["card"] for a in uses(mot, state)} == {"cloak", "amulet", "stool"}
    mot.play(state, "alice", use("stool"))
    mot.play(state, "alice", mot.DONE)
    assert mot.prompt(state) == ("bob", "task")  # the closed outer trigger offers nothing


def test_poem_returns_the_paper_work_and_completes_the_top_card(mot):
    """Poem: return the PAPER work; the deck's top card is turned up (a barrier) and
    completed for free, which triggers its own "after you complete this" (Jar)."""
    state = mot.build(
        gallery={"alice": ["poem"]},
        deck=["jar"],
        hand={"alice": ["bell", "scroll"], "bob": ["cup"]},
    )
    smith(mot, state, "scroll", [])
    assert uses(mot, state) == [use("poem")]
    events = mot.play(state, "alice", use("poem"))
    assert fx(events, "poem").barrier and state.deck[0] == "jar"  # turned up, still on top
    line = "Poem: alice returns Scroll to the bottom of the deck and turns up Jar [CLAY] from the deck."
    assert line in mot.lines(events, "bob") and line in mot.lines(events, "alice")
    # M-R35: the wing is chosen once the card is seen; no declining now
    assert mot.legal(state) == [use("poem", wing="gallery"), use("poem", wing="gift_shop")]
    other = mot.engine.resample(state, "bob", Rng.for_entry(b"poem", 1))
    assert other.deck[0] == "jar" and other.deck[-1] == "scroll"
    events = mot.play(state, "alice", use("poem", wing="gift_shop"))
    p = state.players["alice"]
    assert p.gallery == ["poem"] and p.gift_shop == ["jar"] and state.deck[-1] == "scroll"
    assert "alice completes Jar (CLAY 3) in the gift shop (POEM)." in mot.lines(events, "bob")
    assert mot.engine.view(state, "bob")["deck"]["returned_publicly"] == ["scroll"]
    assert uses(mot, state)[0] == use("jar", material="PAPER")  # the new work's own trigger


def test_poem_may_be_declined_and_only_after_a_paper_work(mot):
    state = mot.build(gallery={"alice": ["poem"]}, hand={"alice": ["bell", "scroll"]})
    smith(mot, state, "scroll", [])
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].gallery == ["poem", "scroll"]
    state = mot.build(gallery={"alice": ["poem"]}, hand={"alice": ["bell", "tower", "frog"]})
    smith(mot, state, "tower", ["frog"])
    assert mot.prompt(state) == ("bob", "task")


def test_poem_triggers_on_its_own_completion(mot):
    """M-R9: Poem may return itself."""
    state = mot.build(deck=["kite"], hand={"alice": ["bell", "poem"]})
    smith(mot, state, "poem", [])
    mot.run(state, "alice", use("poem"), use("poem", wing="gallery"))
    assert state.players["alice"].gallery == ["kite"] and state.deck[-1] == "poem"


def test_poem_comes_last(mot):
    """M-R8: after Poem nothing more of that trigger (Amulet was not used before it)."""
    state = mot.build(
        gallery={"alice": ["poem", "amulet"]},
        bench={"alice": ["jar"]},
        deck=["frog"],
        hand={"alice": ["bell", "scroll"]},
    )
    smith(mot, state, "scroll", [])
    mot.run(state, "alice", use("poem"), use("poem", wing="gallery"))
    assert uses(mot, state) == [use("amulet", target="jar")]  # the new trigger, for Frog
    mot.play(state, "alice", mot.DONE)
    assert mot.prompt(state) == ("bob", "task")


# -- after an action ------------------------------------------------------------------


def test_deck_of_cards_draws_after_a_smith_that_made_a_paper_work(mot):
    state = mot.build(
        gallery={"alice": ["deck-of-cards"]},
        helpers={"alice": ["coin"]},
        hand={"alice": ["bell", "scroll"]},
    )
    smith(mot, state, "scroll", [])
    events = mot.play(state, "alice", use("deck-of-cards"))
    draw = next(e for e in events if e.kind == "draw")
    assert draw.data["why"] == "deck of cards" and not draw.barrier
    assert len(state.players["alice"].waiting) == 1


def test_deck_of_cards_may_be_declined_and_not_after_a_craft_or_another_material(mot):
    state = mot.build(gallery={"alice": ["deck-of-cards"]}, hand={"alice": ["bell", "scroll"]})
    smith(mot, state, "scroll", [])
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].waiting == []
    state = mot.build(
        gallery={"alice": ["deck-of-cards"]}, hand={"alice": ["bell", "tower", "frog"]}
    )
    smith(mot, state, "tower", ["frog"])
    assert mot.prompt(state) == ("bob", "task")
    state = mot.build(gallery={"alice": ["deck-of-cards"]}, hand={"alice": ["doll", "scroll"]})
    mot.play(state, "alice", mot.task("doll"))
    mot.play(state, "alice", mot.craft("scroll"))  # CRAFT on a CLERK task, not a SMITH
    assert mot.prompt(state) == ("bob", "task")


def test_deck_of_cards_after_poem_following_a_smith(mot):
    """Rules FAQ (M-R34): Deck of Cards may be used after a PAPER work completed by Poem
    following a SMITH action."""
    state = mot.build(
        gallery={"alice": ["poem", "deck-of-cards"]},
        helpers={"alice": ["coin"]},
        deck=["crane"],
        hand={"alice": ["bell", "scroll"]},
    )
    smith(mot, state, "scroll", [])
    mot.run(state, "alice", use("poem"), use("poem", wing="gallery"))
    assert use("deck-of-cards") in uses(mot, state)  # Crane is PAPER: Poem again, too
    mot.play(state, "alice", use("deck-of-cards"))
    assert len(state.players["alice"].waiting) == 1


def test_cup_after_a_prayer_ends_the_game(mot):
    state = mot.build(gallery={"alice": ["cup", "crane"]}, hand={"alice": ["kite"]})
    mot.play(state, "alice", mot.task("kite"))
    mot.play(state, "alice", mot.PRAYER)
    assert uses(mot, state) == [use("cup")]
    events = mot.play(state, "alice", use("cup"))
    assert state.end["reason"] == "cup" and mot.prompt(state) is None
    assert state.deck[-1] == "cup" and state.result["seats"]["alice"]["parts"]["works"] == 1
    assert "alice returns Cup: the game ends at once." in mot.lines(events)


def test_cup_after_the_prayer_of_no_task(mot):
    """Cup: the single PRAYER of a player without a task is a PRAYER action too."""
    state = mot.build(gallery={"alice": ["cup"]}, hand={"alice": ["kite"]})
    mot.play(state, "alice", mot.NO_TASK)
    assert uses(mot, state) == [use("cup")]


def test_cup_may_be_declined_and_not_after_another_action(mot):
    state = mot.build(gallery={"alice": ["cup"]}, floor=["crane"], hand={"alice": ["bowl"]})
    mot.play(state, "alice", mot.task("bowl"))
    mot.play(state, "alice", {"kind": "potter", "card": "crane"})
    assert mot.prompt(state) == ("bob", "task")
    state = mot.build(gallery={"alice": ["cup"]}, hand={"alice": ["kite"]})
    mot.play(state, "alice", mot.NO_TASK)
    mot.play(state, "alice", mot.DONE)
    assert state.end is None and state.current == "bob"


def test_gong_draws_three_then_goes_to_the_waiting_area(mot):
    """Gong (M-R36): draw 3, then Gong leaves the temple for the waiting area (public)."""
    state = mot.build(
        gallery={"alice": ["gong", "crane"]},
        helpers={"alice": ["quilt", "tapestry"]},  # three actions
        hand={"alice": ["kite"]},
    )
    mot.play(state, "alice", mot.task("kite"))
    mot.play(state, "alice", mot.PRAYER)
    events = mot.play(state, "alice", use("gong"))
    p = state.players["alice"]
    assert len(p.waiting) == 5 and p.waiting[-1] == "gong" and p.gallery == ["crane"]
    assert not any(e.barrier for e in events)
    assert "Gong: Gong goes from alice's temple to their waiting area." in mot.lines(events, "bob")
    assert mot.engine.view(state, "bob")["players"]["alice"]["waiting_seen"] == ["gong"]
    mot.play(state, "alice", mot.PRAYER)  # the next decision: still known until Night
    other = mot.engine.resample(state, "bob", Rng.for_entry(b"gong", 1))
    assert other.players["alice"].waiting[-2] == "gong"
    assert mot.engine.view(other, "bob") == mot.engine.view(state, "bob")
    assert "waiting_seen" not in mot.engine.view(state, "bob")["players"]["bob"]


def test_gong_may_be_declined_and_only_after_a_prayer(mot):
    state = mot.build(gallery={"alice": ["gong"]}, hand={"alice": ["kite"]})
    mot.play(state, "alice", mot.NO_TASK)
    mot.play(state, "alice", mot.DONE)
    assert state.players["bob"].waiting == [] and state.players["alice"].gallery == ["gong"]
    state = mot.build(gallery={"alice": ["gong"]}, floor=["crane"], hand={"alice": ["bowl"]})
    mot.play(state, "alice", mot.task("bowl"))
    mot.play(state, "alice", {"kind": "potter", "card": "crane"})
    assert mot.prompt(state) == ("bob", "task")


def test_gong_emptying_the_deck_ends_the_game_before_gong_moves(mot):
    """M-R2, M-R36: the draw that empties the deck ends the game; Gong stays a work."""
    state = mot.build(
        gallery={"alice": ["gong"]},
        deck=["crane", "kite", "frog"],
        hand={"alice": ["doll"]},
        leftover=("bob", "waiting"),
    )
    mot.play(state, "alice", mot.NO_TASK)
    mot.play(state, "alice", use("gong"))
    assert state.end["reason"] == "deck" and state.players["alice"].gallery == ["gong"]


def test_plane_moves_a_work_to_the_other_wing_after_a_potter(mot):
    state = mot.build(
        gallery={"alice": ["plane", "frog"]}, floor=["crane"], hand={"alice": ["bowl"]}
    )
    mot.play(state, "alice", mot.task("bowl"))
    mot.play(state, "alice", {"kind": "potter", "card": "crane"})
    assert uses(mot, state) == [use("plane", target="plane"), use("plane", target="frog")]
    events = mot.play(state, "alice", use("plane", target="frog"))
    assert state.players["alice"].gift_shop == ["frog"]
    assert "Plane: alice moves Frog to their gift shop." in mot.lines(events)


def test_plane_may_be_declined_and_not_after_a_prayer(mot):
    state = mot.build(gallery={"alice": ["plane"]}, floor=["crane"], hand={"alice": ["bowl"]})
    mot.play(state, "alice", mot.task("bowl"))
    mot.play(state, "alice", mot.PRAYER)
    assert mot.prompt(state) == ("bob", "task")
    state = mot.build(gallery={"alice": ["plane"]}, floor=["crane"], hand={"alice": ["bowl"]})
    mot.play(state, "alice", mot.task("bowl"))
    mot.play(state, "alice", {"kind": "potter", "card": "crane"})
    mot.play(state, "alice", mot.DONE)
    assert state.players["alice"].gallery == ["plane"]


def test_plane_moving_a_fifth_work_into_a_wing_ends_the_game(mot):
    """M-R37: five works in one wing end the game, however they got there."""
    state = mot.build(
        gallery={"alice": ["plane", "frog", "jar", "quilt"]},
        gift_shop={"alice": ["crane"]},
        floor=["doll"],
        hand={"alice": ["bowl"]},
    )
    mot.play(state, "alice", mot.task("bowl"))
    mot.play(state, "alice", {"kind": "potter", "card": "doll"})
    mot.play(state, "alice", use("plane", target="crane"))
    assert state.end["reason"] == "wing" and state.end["wing"] == "gallery"


def test_ring_takes_a_sale_from_an_opponent_with_more_sales(mot):
    state = mot.build(
        gallery={"alice": ["ring"]},
        bench={"alice": ["crane"]},
        sales={"bob": ["jar", "frog"]},
        hand={"alice": ["doll"]},
    )
    mot.play(state, "alice", mot.task("doll"))
    mot.play(state, "alice", {"kind": "clerk", "card": "crane"})
    assert uses(mot, state) == [use("ring", target="jar"), use("ring", target="frog")]
    events = mot.play(state, "alice", use("ring", target="jar"))
    assert state.players["alice"].sales == ["crane", "jar"] and state.players["bob"].sales == [
        "frog"
    ]
    assert "Ring: alice takes a CLAY sale from bob." in mot.lines(events)


def test_ring_needs_an_opponent_with_more_sales(mot):
    """Ring: counted after the sale: 1 against 1 is not "more"."""
    state = mot.build(
        gallery={"alice": ["ring"]},
        bench={"alice": ["crane"]},
        sales={"bob": ["jar"]},
        hand={"alice": ["doll"]},
    )
    mot.play(state, "alice", mot.task("doll"))
    mot.play(state, "alice", {"kind": "clerk", "card": "crane"})
    assert mot.prompt(state) == ("bob", "task")


def test_ring_may_be_declined_and_not_after_a_craft(mot):
    state = mot.build(
        gallery={"alice": ["ring"]},
        bench={"alice": ["crane"]},
        sales={"bob": ["jar", "frog"]},
        hand={"alice": ["doll", "scroll"]},
    )
    mot.play(state, "alice", mot.task("doll"))
    mot.play(state, "alice", mot.craft("scroll"))
    assert mot.prompt(state) == ("bob", "task")
    state = mot.build(
        gallery={"alice": ["ring"]},
        bench={"alice": ["crane"]},
        sales={"bob": ["jar", "frog"]},
        hand={"alice": ["doll"]},
    )
    mot.play(state, "alice", mot.task("doll"))
    mot.play(state, "alice", {"kind": "clerk", "card": "crane"})
    mot.play(state, "alice", mot.DONE)
    assert state.players["bob"].sales == ["jar", "frog"]


def test_statue_as_the_fifth_work_ends_the_game_before_its_effect(mot):
    """M-R3: the fifth work in a wing ends the game at once; its own effect never resolves."""
    state = mot.build(
        gallery={"alice": ["frog", "jar", "quilt", "crane"]},
        floor=["kite"],
        hand={"alice": ["bell", "statue", "tower"]},
    )
    smith(mot, state, "statue", ["tower"])
    assert state.end["reason"] == "wing" and state.floor == ["kite"]
    assert mot.prompt(state) is None
