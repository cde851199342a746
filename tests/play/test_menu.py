"""Numbers and names (issue 26, items 1 and 4): the decisions are numbered in the state
file's order; a card name resolves in any case, by a unique prefix; an ambiguous or
unknown name says which decisions or names would do."""

from __future__ import annotations

import pytest

from arbiter.core.errors import UsageError
from arbiter.core.viewcheck import known_engine
from arbiter.play import menu

from .kit import real_game


@pytest.fixture
def task_prompt(tmp_path):
    """A Mottainai game at its first decision: bob chooses a task among his hand."""
    table = real_game(tmp_path, "mottainai")
    seat = table.turn()
    state = table.state(seat)
    return state, known_engine(state)


def test_numbers_follow_the_state_file(task_prompt):
    state, engine = task_prompt
    listed = menu.choices(engine, state["legal"], state["view"])
    assert [c.number for c in listed] == list(range(1, len(state["legal"]) + 1))
    assert [c.action for c in listed] == state["legal"]
    assert [kind for kind, _ in menu.groups(listed)] == ["task", "no_task"]
    hand = state["view"]["players"][state["seat"]]["hand"]
    first = listed[0]
    assert first.cards[0].id == hand[0] and first.cards[0].text  # name, type and what it does


def test_names_any_case_and_unique_prefix(task_prompt):
    state, engine = task_prompt
    listed = menu.choices(engine, state["legal"], state["view"])
    for choice in listed:
        for card in choice.cards:
            assert menu.resolve(card.name.upper(), listed) == choice
            assert menu.resolve(card.name.lower(), listed) == choice
            assert menu.resolve(card.id, listed) == choice
    assert menu.resolve("no task", listed).kind == "no_task"
    assert menu.resolve("No_Task", listed).kind == "no_task"
    assert menu.resolve(str(len(listed)), listed) == listed[-1]


def test_ambiguous_and_unknown_names_say_what_would_do(task_prompt):
    state, engine = task_prompt
    listed = menu.choices(engine, state["legal"], state["view"])
    with pytest.raises(menu.NoSuchDecision) as ambiguous:
        menu.resolve("task", listed)
    assert ambiguous.value.matches == [c.number for c in listed if c.kind == "task"]
    assert "could mean" in ambiguous.value.message
    with pytest.raises(menu.NoSuchDecision) as unknown:
        menu.resolve("Bellx", listed)
    names = [card.name for c in listed for card in c.cards]
    assert "no decision is called 'Bellx'" in unknown.value.message
    assert all(name in unknown.value.message for name in names)
    with pytest.raises(UsageError, match="there is no decision 99: pick 1–"):
        menu.resolve("99", listed)


def test_several_words_pick_one_decision():
    # Two `use` decisions of one card with different targets (an engine-free listing).
    legal = [
        {"kind": "use", "card": "kite", "target": "lampshade"},
        {"kind": "use", "card": "kite", "target": "bell"},
        {"kind": "done"},
    ]
    listed = menu.choices(None, legal, None)
    assert menu.resolve("use kite bell", listed).number == 2
    assert menu.resolve("kite lamp", listed).number == 1
    with pytest.raises(menu.NoSuchDecision) as both:
        menu.resolve("kite", listed)
    assert both.value.matches == [1, 2]
