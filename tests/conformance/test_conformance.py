"""Generic conformance tests, run for every registered engine at its min and max seats.

Engines added to the registry are picked up automatically. An engine whose
``legal_actions`` is deliberately incomplete sets the class attribute
``legal_actions_complete = False`` to skip the "accepted ⇒ listed" direction.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from arbiter.bots.random_bot import iter_playout, playout
from arbiter.core.canonical import canonical
from arbiter.core.engine import Engine
from arbiter.core.errors import IllegalAction, UsageError
from arbiter.core.rng import Rng
from conformance.harness import (
    assert_plain_json,
    cases,
    engine_of,
    event_json,
    games,
    key,
    options,
    record,
    recorded,
    rng,
    seed,
)
from conformance.mutations import Pool, candidates

CASES = cases()


def everyone(seats: list[str]) -> list[str | None]:
    return [*seats, None]


def as_json(value: Any) -> Any:
    """Return ``value.to_json()``, or ``None`` for ``None`` (prompts and outcomes)."""
    return None if value is None else value.to_json()


def copy_of(engine: Engine, state: Any) -> Any:
    """Return an independent copy of ``state`` made through its JSON encoding."""
    return engine.decode(json.loads(key(engine.encode(state))))


def must_reject(engine: Engine, state: Any, seat: str, action: dict, why: str) -> None:
    """Assert ``check`` raises ``IllegalAction`` (and nothing else)."""
    try:
        engine.check(state, seat, action)
    except IllegalAction:
        return
    except Exception as exc:
        raise AssertionError(f"{why}: check raised {exc!r}, not IllegalAction") from exc
    raise AssertionError(f"{why}: check accepts {action}")


@pytest.mark.parametrize("seed_range", games(30, 300))
@pytest.mark.parametrize("name,seats", CASES)
def test_random_playouts_end_with_a_full_ranking(name, seats, seed_range):
    engine = engine_of(name)
    for i in seed_range:
        for step in iter_playout(engine, options(engine), seats, seed(i)):
            state, where = step.state, f"game {i} step {step.n}"
            engine.invariants(state)
            prompt = engine.prompt(state)
            if prompt is None:
                break
            assert engine.outcome(state) is None, f"{where}: outcome during play"
            assert prompt.seat in seats, f"{where}: prompt names {prompt.seat}"
            for seat in seats:
                actions = engine.legal_actions(state, seat)
                if seat == prompt.seat:
                    assert actions, f"{where}: {seat} is prompted but has no action"
                else:
                    assert actions == [], f"{where}: {seat} may act out of turn"
        outcome = engine.outcome(state)
        assert outcome is not None, f"game {i}: no outcome at the end"
        placed = [seat for group in outcome.ranking for seat in group]
        assert sorted(placed) == sorted(seats), f"game {i}: ranking {outcome.ranking}"
        assert set(outcome.scores) == set(seats), f"game {i}: scores {outcome.scores}"
        assert set(outcome.breakdown) <= set(seats), f"game {i}: breakdown {outcome.breakdown}"
        assert all(engine.legal_actions(state, seat) == [] for seat in seats)
        if step.seat is not None and step.action is not None:
            must_reject(
                engine, state, step.seat, step.action, f"game {i}: a decision after the end"
            )


@pytest.mark.parametrize("name,seats", CASES)
def test_everything_crossing_the_boundary_is_plain_json(name, seats):
    engine = engine_of(name)
    assert_plain_json(options(engine), "options")
    assert_plain_json(engine.action_schema(), "action_schema")
    for i in range(5):
        trace = recorded(name, tuple(seats), i)
        for events in trace.events:
            for event in events:
                assert_plain_json(event.data, f"game {i} event {event.kind}")
        for index in trace.sample(20):
            state, where = trace.state(engine, index), f"game {i} state {index}"
            assert_plain_json(engine.encode(state), f"{where} encode")
            for viewer in everyone(seats):
                assert_plain_json(engine.view(state, viewer), f"{where} view({viewer})")
            for seat in seats:
                assert_plain_json(engine.legal_actions(state, seat), f"{where} legal({seat})")
            assert_plain_json(as_json(engine.prompt(state)), f"{where} prompt")
            assert_plain_json(as_json(engine.outcome(state)), f"{where} outcome")


@pytest.mark.parametrize("name,seats", CASES)
def test_state_survives_a_json_round_trip(name, seats):
    engine = engine_of(name)
    for i in range(10):
        # About a dozen samples per game, whatever the game's length.
        stride = max(1, playout(engine, options(engine), seats, seed(i))[1] // 12)
        copy, copy_n = None, -1
        for step in iter_playout(engine, options(engine), seats, seed(i)):
            state, where = step.state, f"game {i} step {step.n}"
            if copy is not None and step.n == copy_n + 1:
                # The copy must take the live game's next decision, with the same stream, alike.
                assert step.seat is not None and step.action is not None
                events = engine.apply(copy, step.seat, step.action, Rng.for_entry(seed(i), step.n))
                assert [key(event_json(e)) for e in events] == [
                    key(event_json(e)) for e in step.events
                ], f"{where}: the decoded copy tells another story"
                assert canonical(engine.encode(copy)) == canonical(engine.encode(state)), where
            if step.n % stride:
                continue
            data = canonical(engine.encode(state))
            copy, copy_n = engine.decode(json.loads(data)), step.n
            assert canonical(engine.encode(copy)) == data, f"{where}: encode(decode(x)) != x"
            assert as_json(engine.prompt(copy)) == as_json(engine.prompt(state)), where
            assert as_json(engine.outcome(copy)) == as_json(engine.outcome(state)), where
            for seat in seats:
                assert engine.legal_actions(copy, seat) == engine.legal_actions(state, seat), where
            for viewer in everyone(seats):
                assert engine.view(copy, viewer) == engine.view(state, viewer), where


@pytest.mark.parametrize("name,seats", CASES)
def test_copy_is_independent_and_equals_the_round_trip(name, seats):
    """``Engine.copy`` (the bots copy states thousands of times per decision, and an engine
    may do it faster than through JSON) gives the round trip's state, and the copy and
    the original then move on without touching each other."""
    engine = engine_of(name)
    for i in range(6):
        moved: tuple[Any, str] | None = None
        for step in iter_playout(engine, options(engine), seats, seed(i)):
            state, where = step.state, f"game {i} step {step.n}"
            if moved is not None:
                # The live game moved on: the copy played on earlier must be as it was left.
                assert canonical(engine.encode(moved[0])) == moved[1], f"{where}: shared data"
                moved = None
            if step.n % 5:
                continue
            copied = engine.copy(state)
            data = canonical(engine.encode(state))
            assert canonical(engine.encode(copied)) == data, f"{where}: copy != round trip"
            assert as_json(engine.prompt(copied)) == as_json(engine.prompt(state)), where
            prompt = engine.prompt(copied)
            legal = [] if prompt is None else engine.legal_actions(copied, prompt.seat)
            if prompt is not None and legal:
                engine.apply(copied, prompt.seat, legal[-1], Rng.for_entry(seed(i), 10_000))
                assert canonical(engine.encode(state)) == data, f"{where}: the copy shared data"
                moved = (copied, canonical(engine.encode(copied)))


@pytest.mark.parametrize("name,seats", CASES)
def test_replay_is_deterministic(name, seats):
    engine = engine_of(name)

    def fingerprint(i: int) -> tuple:
        trace = record(engine, seats, i)
        events = [[key(event_json(e)) for e in step] for step in trace.events]
        return trace.states, trace.moves, events

    first = [fingerprint(i) for i in range(5)]
    assert first == [fingerprint(i) for i in range(5)], "the same seed gave another game"
    assert any(game != first[0] for game in first[1:]), "five seeds gave the same game"


@pytest.mark.parametrize("seed_range", games(10, 100))
@pytest.mark.parametrize("name,seats", CASES)
def test_check_agrees_with_legal_actions(name, seats, seed_range):
    engine = engine_of(name)
    complete = getattr(engine, "legal_actions_complete", True)
    validator = jsonschema.Draft202012Validator(engine.action_schema())
    traces = [recorded(name, tuple(seats), i) for i in seed_range]
    pool = Pool()
    for trace in traces:
        pool.add([action for _, action in trace.moves])
    draw = rng("check", name, len(seats))
    for trace in traces:
        for index in trace.sample(8):
            state = trace.state(engine, index)
            where = f"state {index} of a {len(trace.states)}-state game"
            if (prompt := engine.prompt(state)) is None:
                continue
            legal = engine.legal_actions(state, prompt.seat)
            pool.add(legal)
            listed = {key(action) for action in legal}
            for action in legal:
                assert not list(validator.iter_errors(action)), (
                    f"{where}: {action} breaks the schema"
                )
                try:
                    engine.check(state, prompt.seat, action)
                except IllegalAction as exc:
                    raise AssertionError(f"{where}: listed {action} fails check: {exc}") from exc
            for other in trace.seats:
                if other != prompt.seat:
                    for action in legal[:5]:
                        must_reject(engine, state, other, action, f"{where}: {other} out of turn")
            for action in candidates(legal, pool, draw, 40):
                try:
                    engine.check(state, prompt.seat, action)
                except IllegalAction:
                    continue
                except Exception as exc:
                    raise AssertionError(f"{where}: check({action}) raised {exc!r}") from exc
                assert not list(validator.iter_errors(action)), f"{where}: check accepts {action}"
                if complete:
                    assert key(action) in listed, f"{where}: check accepts unlisted {action}"
            assert key(engine.encode(state)) == trace.states[index], f"{where}: check mutated it"


@pytest.mark.parametrize("seed_range", games(20, 200))
@pytest.mark.parametrize("name,seats", CASES)
def test_resample_leaks_nothing(name, seats, seed_range):
    """Redrawing what a seat cannot see changes nothing it sees, now or after it acts."""
    engine = engine_of(name)
    changed = 0
    for i in seed_range:
        trace = recorded(name, tuple(seats), i)
        for index in trace.sample(10):
            state = trace.state(engine, index)
            prompt = engine.prompt(state)
            for seat in seats:
                where = f"game {i} state {index}, resampled for {seat}"
                draw = rng("resample", name, i, index, seat)
                other = engine.resample(state, seat, draw)
                assert key(engine.encode(state)) == trace.states[index], f"{where}: mutated"
                engine.invariants(other)
                changed += key(engine.encode(other)) != trace.states[index]
                assert engine.view(other, seat) == engine.view(state, seat), where
                assert engine.view(other, None) == engine.view(state, None), where
                assert as_json(engine.prompt(other)) == as_json(prompt), where
                if prompt is None or prompt.seat != seat:
                    continue
                legal = engine.legal_actions(state, seat)
                assert engine.legal_actions(other, seat) == legal, where
                for action in [draw.choice(legal) for _ in range(3)]:
                    assert_same_step(engine, state, other, seat, action, (i, index), where)
    if engine.info.hidden_information:
        assert changed > 0, "resample never changed a state: the leak test is vacuous"


def assert_same_step(engine, state, other, seat, action, stream, where):
    """Apply ``action`` to copies of both states; assert ``seat`` cannot tell them apart."""
    a, b = copy_of(engine, state), copy_of(engine, other)
    events_a = engine.apply(a, seat, action, rng("apply", *stream))
    events_b = engine.apply(b, seat, action, rng("apply", *stream))
    where = f"{where}, after {action}"
    engine.invariants(b)
    # Whether a batch must stop here may only depend on what the seat can see.
    barrier = any(e.barrier for e in events_a)
    assert barrier == any(e.barrier for e in events_b), f"{where}: barrier depends on hidden info"
    if barrier:
        return
    for viewer in (seat, None):
        lines_a = [engine.describe(e, viewer) for e in events_a]
        assert lines_a == [engine.describe(e, viewer) for e in events_b], f"{where}: {viewer} log"
        assert engine.view(a, viewer) == engine.view(b, viewer), f"{where}: {viewer} view"
    assert as_json(engine.prompt(a)) == as_json(engine.prompt(b)), f"{where}: prompt"
    assert as_json(engine.outcome(a)) == as_json(engine.outcome(b)), f"{where}: outcome"


@pytest.mark.parametrize("seed_range", games(10, 100))
@pytest.mark.parametrize("name,seats", CASES)
def test_private_decisions_stay_private(name, seats, seed_range):
    """Two decisions another viewer cannot tell apart by view must read the same to them.

    Resampling hides state, not the content of a decision (which card was put face
    down), so compare pairs of decisions of one kind from the same state instead.
    """
    engine = engine_of(name)
    for i in seed_range:
        trace = recorded(name, tuple(seats), i)
        for index in trace.sample(10):
            state = trace.state(engine, index)
            if (prompt := engine.prompt(state)) is None:
                continue
            draw = rng("private", name, i, index)
            by_kind: dict[str, list[dict]] = {}
            for action in engine.legal_actions(state, prompt.seat):
                by_kind.setdefault(str(action.get("kind")), []).append(action)
            for actions in by_kind.values():
                for _ in range(2 if len(actions) > 1 else 0):
                    pair = (draw.choice(actions), draw.choice(actions))
                    after = []
                    for action in pair:
                        copy = copy_of(engine, state)
                        events = engine.apply(copy, prompt.seat, action, rng("apply", i, index))
                        after.append((copy, events))
                    for viewer in [s for s in seats if s != prompt.seat] + [None]:
                        if engine.view(after[0][0], viewer) != engine.view(after[1][0], viewer):
                            continue
                        lines = [[engine.describe(e, viewer) for e in ev] for _, ev in after]
                        assert lines[0] == lines[1], (
                            f"game {i} state {index}: {viewer} cannot see whether {prompt.seat} "
                            f"chose {pair[0]} or {pair[1]}, but reads {lines[0]} / {lines[1]}"
                        )


@pytest.mark.parametrize("name,seats", CASES)
def test_describe_gives_one_line_or_nothing(name, seats):
    engine = engine_of(name)
    for i in range(10):
        for step_events in recorded(name, tuple(seats), i).events:
            for event in step_events:
                for viewer in everyone(seats):
                    line = engine.describe(event, viewer)
                    assert line is None or isinstance(line, str), f"{event.kind}: {line!r}"
                    assert line is None or "\n" not in line, f"{event.kind}: {line!r}"


@pytest.mark.parametrize("name,seats", CASES)
def test_describe_all_agrees_with_describe(name, seats):
    """An engine's batched narration (used by replays) says exactly what describe says."""
    engine = engine_of(name)
    viewers = [None, *seats]
    for i in range(10):
        for step_events in recorded(name, tuple(seats), i).events:
            for event in step_events:
                expected = [engine.describe(event, viewer) for viewer in viewers]
                assert engine.describe_all(event, viewers) == expected, event.kind


@pytest.mark.parametrize("name,seats", CASES)
def test_options_and_schema_are_well_formed(name, seats):
    engine = engine_of(name)
    engine.check_options(options(engine))
    with pytest.raises(UsageError):
        engine.parse_options({"no-such-option": "1"})
    jsonschema.Draft202012Validator.check_schema(engine.action_schema())
