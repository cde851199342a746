"""The deadline hooks of every registered engine, on states of recorded random games.

``default_action`` (the ``pass`` policy's decision) must be legal for the prompted seat,
the same on a state resampled for that seat, refused for any other seat, and — taken
again and again — must end the seat's turn (or the game) within a bound and, taken by
every seat, end the game. ``provisional_outcome`` (a forfeit's result) must place every
seat, rank by score, touch nothing, and equal ``outcome`` once the game is over.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import pytest
from conformance.harness import VARIANTS, cases, engine_of, games, key, recorded, rng

from arbiter.core.engine import Engine, Outcome
from arbiter.core.errors import IllegalAction

CASES = cases()
TURN_BOUND = 500
"""Default decisions one seat may take before the prompt leaves it (or the game ends)."""
GAME_BOUND = 20_000
"""Default decisions, all seats together, before the game must be over."""
PROMPT_KINDS = {
    "mottainai": {"task", "old-task", "return", "action", "tailor", "effect"},
    "motcoin": {"bid", "remove"},
    "momiji": {"turn", "hand-limit"},
    "tally": {"turn"},
    # Wutai Mountain adds the tucking prompt after an Om work is completed (M-R106) and
    # the placing of an effect's cards under the temple or an Om work (M-R119).
    "mottainai+wutai": {
        "task", "old-task", "return", "action", "tailor", "effect", "tuck", "place",
    },
}
"""Every kind of prompt each engine has: the default must be tried at each."""
NEVER_ENDS_ON_DEFAULTS = {"mottainai"}
"""Engines whose defaults, taken by every seat, keep the game going for ever."""


def base_of(name: str) -> str:
    """Return the engine a case plays (an option variant's base engine, or the case)."""
    return VARIANTS[name][0] if name in VARIANTS else name


def copy_of(engine: Engine, state: Any) -> Any:
    return engine.decode(json.loads(key(engine.encode(state))))


def assert_legal_default(
    engine: Engine, state: Any, seat: str, complete: bool, where: str
) -> dict[str, Any]:
    """Return ``seat``'s default after checking it is legal (and listed, if lists are complete)."""
    action = engine.default_action(state, seat)
    try:
        engine.check(state, seat, action)
    except IllegalAction as exc:
        raise AssertionError(f"{where}: default {action} is illegal: {exc}") from exc
    if complete:
        assert action in engine.legal_actions(state, seat), f"{where}: unlisted {action}"
    return action


def defaults_until_the_prompt_moves(engine: Engine, state: Any, seat: str, where: str) -> int:
    """Apply ``seat``'s defaults until another seat decides or the game ends; return how many."""
    n = 0
    while (prompt := engine.prompt(state)) is not None and prompt.seat == seat:
        assert n < TURN_BOUND, f"{where}: {n} defaults and {seat} still decides"
        action = engine.default_action(state, seat)
        engine.check(state, seat, action)
        engine.apply(state, seat, action, rng("timeout", where, n))
        n += 1
    return n


def assert_consistent(outcome: Outcome, seats: list[str], where: str) -> None:
    """Every seat scored and ranked once; groups share a score and go down by score."""
    assert set(outcome.scores) == set(seats), f"{where}: scores {outcome.scores}"
    placed = [seat for group in outcome.ranking for seat in group]
    assert sorted(placed) == sorted(seats), f"{where}: ranking {outcome.ranking}"
    assert all(outcome.ranking), f"{where}: an empty place in {outcome.ranking}"
    assert set(outcome.breakdown) <= set(seats), f"{where}: breakdown {outcome.breakdown}"
    for group in outcome.ranking:
        assert len({outcome.scores[s] for s in group}) == 1, f"{where}: {group} share a place"
    for upper, lower in pairwise(outcome.ranking):
        assert outcome.scores[upper[0]] >= outcome.scores[lower[0]], f"{where}: {outcome.ranking}"


@pytest.mark.parametrize("seed_range", games(10, 60))
@pytest.mark.parametrize("name,seats", CASES)
def test_default_action_is_legal_at_every_prompt(name, seats, seed_range):
    """At every state of whole games; every prompt kind of the engine comes up."""
    engine = engine_of(name)
    complete = getattr(engine, "legal_actions_complete", True)
    seen: set[tuple[str, str]] = set()
    for i in seed_range:
        trace = recorded(name, tuple(seats), i)
        for index in range(len(trace.states)):
            state, where = trace.state(engine, index), f"game {i} state {index}"
            prompt = engine.prompt(state)
            if prompt is None:
                for seat in seats:  # the game is over: nobody has a default
                    with pytest.raises(IllegalAction):
                        engine.default_action(state, seat)
                continue
            action = assert_legal_default(engine, state, prompt.seat, complete, where)
            assert key(engine.encode(state)) == trace.states[index], f"{where}: mutated"
            seen.add((prompt.kind, action["kind"]))
            for other_seat in seats:
                if other_seat != prompt.seat:
                    with pytest.raises(IllegalAction):
                        engine.default_action(state, other_seat)
    kinds = {kind for kind, _ in seen}
    assert kinds <= PROMPT_KINDS[name], f"prompt kinds seen: {seen}"
    # Ten random 5-player Wutai games need not reach every prompt (an old task is rare
    # there); the slow run's sixty do, and so do the plain engines' ten.
    if name not in VARIANTS or len(seed_range) > 10:
        assert kinds == PROMPT_KINDS[name], f"prompt kinds seen: {seen}"


@pytest.mark.parametrize("seed_range", games(4, 40))
@pytest.mark.parametrize("name,seats", CASES)
def test_default_action_is_blind_and_ends_the_turn(name, seats, seed_range):
    engine = engine_of(name)
    for i in seed_range:
        trace = recorded(name, tuple(seats), i)
        for index in trace.sample(12):
            state, where = trace.state(engine, index), f"game {i} state {index}"
            prompt = engine.prompt(state)
            if prompt is None:
                continue
            seat = prompt.seat
            action = engine.default_action(state, seat)
            for n in range(3):
                other = engine.resample(state, seat, rng("timeout-resample", name, i, index, n))
                assert engine.default_action(other, seat) == action, (
                    f"{where}: the default depends on what {seat} cannot see"
                )
            defaults_until_the_prompt_moves(engine, copy_of(engine, state), seat, where)


@pytest.mark.parametrize("name,seats", CASES)
def test_defaults_alone_end_the_game(name, seats):
    """Every seat timing out from the start, or from mid-game, still ends the game.

    Not Mottainai: a turn of defaults draws one card (the PRAYER) and, once the hand is
    full, returns one to the deck, so the deck stops shrinking (M-R76; the Mottainai
    rules cases pin that down).
    """
    if base_of(name) in NEVER_ENDS_ON_DEFAULTS:
        pytest.skip(f"{name}: defaults alone never end the game (see its rulings)")
    engine = engine_of(name)
    for i in range(2):
        trace = recorded(name, tuple(seats), i)
        for index in (0, len(trace.states) // 2):
            state, where = trace.state(engine, index), f"game {i} from state {index}"
            n = 0
            while (prompt := engine.prompt(state)) is not None:
                assert n < GAME_BOUND, f"{where}: {n} defaults and the game goes on"
                action = engine.default_action(state, prompt.seat)
                engine.check(state, prompt.seat, action)
                engine.apply(state, prompt.seat, action, rng("defaults", name, i, index, n))
                engine.invariants(state)
                n += 1
            outcome = engine.outcome(state)
            assert outcome is not None, f"{where}: over without an outcome"
            assert engine.provisional_outcome(state).to_json() == outcome.to_json(), where


@pytest.mark.parametrize("seed_range", games(6, 60))
@pytest.mark.parametrize("name,seats", CASES)
def test_provisional_outcome_scores_the_table(name, seats, seed_range):
    engine = engine_of(name)
    for i in seed_range:
        trace = recorded(name, tuple(seats), i)
        for index in trace.sample(12):
            state, where = trace.state(engine, index), f"game {i} state {index}"
            provisional = engine.provisional_outcome(state)
            assert key(engine.encode(state)) == trace.states[index], f"{where}: mutated"
            final = engine.outcome(state)
            if final is not None:
                assert provisional.to_json() == final.to_json(), f"{where}: not the outcome"
                continue
            assert_consistent(provisional, seats, where)
            again = engine.provisional_outcome(copy_of(engine, state))
            assert again.to_json() == provisional.to_json(), f"{where}: not deterministic"
