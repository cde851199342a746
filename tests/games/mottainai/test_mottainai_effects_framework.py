"""The effect framework: registration checks, the dispatcher's order, Poem/Cloak last,
Sketch/Doll exclusive, effects optional, prompts that resume (rules glossary, M-R8).

Dispatcher tests install toy behaviours for real card ids (restored afterwards), so they
test the framework, not the cards.
"""

from __future__ import annotations

from typing import Any

import pytest
from mottainai_scenario import Scenario

from arbiter.core.engine import Event
from arbiter.games.mottainai import MottainaiEngine, actions
from arbiter.games.mottainai.cards import CARDS
from arbiter.games.mottainai.effects import REGISTRY, effect, implemented, missing

WINDOW_MODULE = "arbiter.games.mottainai.effects."


def _fn(window: str, body: Any = None) -> Any:
    def fn(*args: Any) -> Any:
        return body(*args) if body else None

    fn.__module__ = WINDOW_MODULE + window
    return fn


@pytest.fixture
def mot() -> Scenario:
    """The referee's table only: a toy effect records its calls and moves hand cards by
    id without ``disclose`` knowing of it, so a peer table would play it twice and find
    placeholders where it looks for ids. The real cards run in both modes (``conftest``)."""
    return Scenario()


@pytest.fixture
def toys():
    """Register toy effects for real ids; restore the real registry afterwards."""
    saved = dict(REGISTRY)
    used: list[str] = []

    def install(card_id: str, window: str, body: Any = None, **kw: Any) -> None:
        REGISTRY.pop(card_id, None)
        used.append(card_id)
        effect(card_id, **kw)(_fn(window, body))

    yield install
    REGISTRY.clear()
    REGISTRY.update(saved)


def logger(log: list[str], name: str) -> Any:
    def body(state, seat, work, ctx, params, events):
        log.append(name)

    return body


def test_registration_rejects_unknown_ids():
    with pytest.raises(ValueError, match="no such card"):
        effect("no-such-card")(_fn("after_work"))


def test_registration_rejects_the_wrong_window_module():
    with pytest.raises(ValueError, match="card's window is morning_night"):
        effect("kite")(_fn("after_work"))


def test_registration_rejects_a_second_registration(toys):
    toys("amulet", "after_work")
    with pytest.raises(ValueError, match="registered twice"):
        effect("amulet")(_fn("after_work"))


def test_instead_of_effects_name_their_step():
    saved = REGISTRY.pop("sketch", None)
    try:
        with pytest.raises(ValueError, match="names the step"):
            effect("sketch")(_fn("instead_of"))
    finally:
        if saved is not None:
            REGISTRY["sketch"] = saved


def test_every_registered_effect_lives_in_its_window_module():
    for card_id, eff in REGISTRY.items():
        assert eff.resolve.__module__ == WINDOW_MODULE + CARDS[card_id].window, card_id
    assert sorted(implemented() + missing()) == sorted(CARDS)


def test_arbiter_games_lists_the_cards_not_yet_implemented():
    notes = " ".join(MottainaiEngine.info.notes)
    for card_id in missing():
        assert CARDS[card_id].name in notes
    for card_id in implemented():
        assert f" {CARDS[card_id].name}," not in notes and not notes.endswith(
            f" {CARDS[card_id].name}."
        )


def _completed_stone_work(mot):
    """alice's own SMITH task; she completes Tower (STONE) with Frog: the after-trigger opens."""
    state = mot.build(
        gallery={"alice": ["amulet", "stool", "poem"]},
        hand={"alice": ["bell", "tower", "frog"]},
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("tower", ["frog"]))
    return state


def test_dispatcher_offers_each_effect_once_in_the_players_order(mot, toys):
    """M-R8, rules FAQ: the player orders the effects of one trigger; each once."""
    log: list[str] = []
    toys("amulet", "after_work", logger(log, "amulet"))
    toys("stool", "after_work", logger(log, "stool"))
    state = _completed_stone_work(mot)
    assert mot.prompt(state) == ("alice", "effect")
    assert [a.get("card") for a in mot.legal(state)] == ["amulet", "stool", None]
    mot.play(state, "alice", {"kind": "use", "card": "stool"})
    assert [a.get("card") for a in mot.legal(state)] == ["amulet", None]
    mot.illegal(state, "alice", {"kind": "use", "card": "stool"})  # once per trigger
    mot.play(state, "alice", {"kind": "use", "card": "amulet"})
    assert log == ["stool", "amulet"]
    assert mot.prompt(state) == ("bob", "task")  # nothing left to offer: the turn went on


def test_poem_and_cloak_come_last(mot, toys):
    """M-R8 (rules glossary): Poem or Cloak must be used last: nothing follows in that trigger."""
    log: list[str] = []
    toys("amulet", "after_work", logger(log, "amulet"))
    toys("poem", "after_work", logger(log, "poem"), last=True)
    state = _completed_stone_work(mot)
    mot.play(state, "alice", {"kind": "use", "card": "poem"})
    assert log == ["poem"] and mot.prompt(state) == ("bob", "task")


def test_effects_are_optional(mot, toys):
    """Rules FAQ: using effects is optional: done declines the rest of the trigger."""
    log: list[str] = []
    toys("amulet", "after_work", logger(log, "amulet"))
    state = _completed_stone_work(mot)
    mot.play(state, "alice", mot.DONE)
    assert log == [] and mot.prompt(state) == ("bob", "task")


def test_a_nested_trigger_is_answered_first_then_the_outer_resumes(mot, toys):
    """M-R8: a work completed by an effect opens its own trigger (on top); then the
    interrupted trigger resumes where it stopped."""
    log: list[str] = []

    def complete_frog(state, seat, work, ctx, params, events: list[Event]):
        log.append(f"amulet on {ctx['work']}")
        state.players[seat].hand.remove("frog")
        actions.place_work(state, seat, "frog", "gift_shop", "effect", events)
        from arbiter.games.mottainai.effects import dispatch

        dispatch.open_frame(state, seat, "after", {"action": "effect", "work": "frog"})

    toys(
        "amulet",
        "after_work",
        complete_frog,
        offers=lambda s, seat, w, ctx: [{}] if ctx["work"] == "tower" else [],
    )
    toys("stool", "after_work", lambda s, seat, w, ctx, p, e: log.append(f"stool on {ctx['work']}"))
    state = _completed_stone_work(mot)
    mot.play(state, "alice", {"kind": "use", "card": "amulet"})
    assert [a.get("card") for a in mot.legal(state)] == ["stool", None]  # the new trigger
    mot.play(state, "alice", {"kind": "use", "card": "stool"})
    assert [a.get("card") for a in mot.legal(state)] == ["stool", None]  # the outer one resumes
    mot.play(state, "alice", {"kind": "use", "card": "stool"})
    assert log == ["amulet on tower", "stool on frog", "stool on tower"]


def test_sketch_and_doll_exclude_each_other(mot, toys):
    """Rules glossary: Sketch and Doll both replace choosing a task: only one is used."""
    log: list[str] = []

    def take(name: str) -> Any:
        def body(state, seat, work, ctx, params, events):
            log.append(name)

        return body

    toys("sketch", "instead_of", take("sketch"), step="choose-task", group="task")
    toys("doll", "instead_of", take("doll"), step="choose-task", group="task")
    state = mot.build(gallery={"alice": ["sketch", "doll"]}, hand={"alice": ["kite"]})
    uses = [a["card"] for a in mot.legal(state) if a["kind"] == "use"]
    assert uses == ["sketch", "doll"]
    mot.play(state, "alice", {"kind": "use", "card": "doll"})
    assert log == ["doll"] and mot.prompt(state) != ("alice", "task")
    mot.illegal(state, "alice", {"kind": "use", "card": "sketch"})
