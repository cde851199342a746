"""Which takebacks each engine allows (docs/game-life.md §4; MC-R18, MOM-R20; Mottainai's
M-R122 in tests/games/mottainai/test_mottainai_life_cases.py).

Random games are played from setup; each decision's events are judged as a takeback
would judge them (``arbiter.core.takeback.shown``, then the engine's
``takeback_allowed``), so the rulings are checked on the events the engines really emit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter.core import registry
from arbiter.core.engine import Engine, Event, Undone
from arbiter.core.rng import Rng
from arbiter.core.takeback import shown

Found = tuple[Engine, Any, str, Undone, list[str]]


def first_decision(name: str, seats: list[str], wanted: Callable[[str, Event, tuple[str, ...]], bool]) -> Found:
    """The first decision of a random game whose events include one ``wanted`` accepts:
    the engine, the state before it, the seat, the decision as an undone entry, the seats."""
    engine = registry.get(name)
    for seed in range(20):
        state, _ = engine.setup(engine.parse_options({}), seats, Rng(bytes([seed]) * 32))
        choices = Rng(bytes([seed + 100]) * 32)
        for step in range(1, 600):
            prompt = engine.prompt(state)
            if prompt is None:
                break
            before = engine.copy(state)
            action = choices.choice(engine.legal_actions(state, prompt.seat))
            events = engine.apply(state, prompt.seat, action, Rng.for_entry(bytes(32), step))
            seen = [shown(engine, seats, event) for event in events]
            if any(wanted(prompt.seat, e, s) for e, s in zip(events, seen, strict=True)):
                return engine, before, prompt.seat, Undone(step, prompt.seat, [action], events, seen), seats
    raise AssertionError(f"no such decision in 20 random {name} games")


def only_the_actor(seat: str, event: Event, seats: tuple[str, ...]) -> bool:
    return seats == (seat,)


def for_all(seat: str, event: Event, seats: tuple[str, ...]) -> bool:
    return event.barrier and len(seats) > 1


def _refused(found: Found) -> str | None:
    engine, before, seat, undone, _ = found
    return engine.takeback_allowed(before, seat, [undone])


def _shown_to_all(found: Found) -> bool:
    undone, seats = found[3], found[4]
    return any(set(s) == set(seats) for s in undone.shown)


def test_MC_R18_1_every_reveal_is_public_so_none_is_refused() -> None:
    found = first_decision("motcoin", ["alice", "bob", "carol"], for_all)
    assert found[3].events and _refused(found) is None and _shown_to_all(found)


def test_MC_R18_2_no_decision_shows_a_card_to_one_seat_only() -> None:
    engine = registry.get("motcoin")
    seats = ["alice", "bob", "carol"]
    state, _ = engine.setup(engine.parse_options({}), seats, Rng(bytes(32)))
    choices = Rng(bytes([7]) * 32)
    for step in range(1, 600):
        prompt = engine.prompt(state)
        if prompt is None:
            break
        action = choices.choice(engine.legal_actions(state, prompt.seat))
        for event in engine.apply(state, prompt.seat, action, Rng.for_entry(bytes(32), step)):
            assert shown(engine, seats, event) in ((), tuple(seats))


def test_MOM_R20_1_a_refill_of_the_display_needs_everyone() -> None:
    found = first_decision("momiji", ["alice", "bob"], lambda s, e, seen: e.kind == "refill")
    assert _refused(found) is None and _shown_to_all(found)


def test_MOM_R20_2_a_card_drawn_to_the_hand_is_not_taken_back() -> None:
    engine = registry.get("momiji")
    seats = ["alice", "bob"]
    state, _ = engine.setup(engine.parse_options({}), seats, Rng(bytes(32)))
    card = state.deck[0] if hasattr(state, "deck") else "x"
    # The event a drawing power emits (powers.py): the card is named to its drawer only.
    event = Event("draw", {"seat": "alice", "card": card}, barrier=True)
    seen = shown(engine, seats, event)
    assert seen == ("alice",)
    undone = Undone(5, "alice", [{"kind": "power"}], [event], [seen])
    reason = engine.takeback_allowed(state, "alice", [undone])
    assert reason is not None and "(draw)" in reason
    assert engine.takeback_allowed(state, "bob", [undone]) is None
