"""Bots answer a proposal to end the game by their evaluation (docs/bots.md, "Ending by
agreement"; issue 27, item 2)."""

from __future__ import annotations

import hashlib

import pytest

from arbiter.bots.agreement import accepts_end, expected_place, place
from arbiter.bots.levels import decide
from arbiter.bots.match import _apply_batch, state_file
from arbiter.core import registry
from arbiter.core.rng import Rng


def test_places_count_the_seats_strictly_ahead() -> None:
    assert place([["a"], ["b", "c"], ["d"]], "c") == 1
    assert place([["a"], ["b", "c"], ["d"]], "d") == 3
    assert expected_place({"a": 3.0, "b": 3.0, "c": 1.0}, "b") == 0
    assert expected_place({"a": 3.0, "b": 3.0, "c": 1.0}, "c") == 2


def _proposal(sf: dict, result: str, by: str, seats: list[str]) -> dict:
    sf = dict(sf, seats=seats)
    sf["pending"] = {"kind": "propose-end", "result": result, "seat": by}
    return sf


@pytest.mark.slow
def test_the_stalled_game_194_ends_by_agreement() -> None:
    """docs/bots.md, game 194 of the strength benchmark (search p1 against greedy p2,
    Mottainai): from about the tenth turn neither bot plays a task and the game never
    ends. The leader proposes to end it scored as it stands; the greedy bot, last now and
    last by its own evaluation, accepts; abandoning, the leader would decline."""
    engine = registry.get("mottainai")
    seed = hashlib.sha256(b"arbiter-bench-bots/1:mottainai:search:greedy:194").digest()
    levels = {"p1": "search", "p2": "greedy"}
    seats = list(levels)
    state, _ = engine.setup(engine.parse_options({}), seats, Rng.for_entry(seed, 0))
    choices = {s: Rng(hashlib.sha256(seed + b"bot:" + s.encode()).digest()) for s in seats}
    files = 0
    while files < 100:
        prompt = engine.prompt(state)
        assert prompt is not None, "game 194 ended: the benchmark's stall is gone"
        files += 1
        batch = decide(
            engine,
            state_file(engine, state, prompt.seat),
            levels[prompt.seat],
            choices[prompt.seat],
        )
        _apply_batch(engine, state, prompt.seat, batch, Rng.for_entry(seed, files))
    now = engine.provisional_outcome(state)
    assert now.ranking[0] == ["p1"]
    rng = Rng(hashlib.sha256(b"agreement").digest())
    p2 = _proposal(state_file(engine, state, "p2"), "score", "p1", seats)
    assert accepts_end(engine, p2, rng)
    p1 = _proposal(state_file(engine, state, "p1"), "abandon", "p2", seats)
    assert not accepts_end(engine, p1, rng)
