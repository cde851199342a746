"""Every level plays only legal batches that stop at barriers, from the state file alone."""

from __future__ import annotations

import copy

import pytest
from botkit import ENGINES, positions

from arbiter.bots.levels import LEVELS, decide
from arbiter.bots.match import _apply_batch, state_file
from arbiter.core.rng import Rng

BUDGET = 3


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_batches_are_legal_and_stop_at_barriers(name: str, level: str) -> None:
    every = 3 if level != "search" else 9
    batches = 0
    games = 10 if name == "tally" else 2  # tally games are short
    for engine, state, seat in positions(name, games=games, every=every, tag=level):
        data = state_file(engine, state, seat)
        batch = decide(engine, data, level, Rng(f"{level}{batches}".encode()), BUDGET)
        assert batch and batch[0] in data["legal"]
        scratch = engine.decode(engine.encode(state))
        _apply_batch(engine, scratch, seat, batch, Rng(b"referee"))
        batches += 1
    assert batches >= 10


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_same_seed_decides_the_same_batch(name: str) -> None:
    for engine, state, seat in positions(name, games=1, every=11, tag="seed"):
        data = state_file(engine, state, seat)
        first = decide(engine, data, "search", Rng(b"same"), BUDGET)
        assert decide(engine, copy.deepcopy(data), "search", Rng(b"same"), BUDGET) == first


@pytest.mark.parametrize("level", ["greedy", "search"])
@pytest.mark.parametrize("name", ["mottainai", "motcoin", "momiji", "tally"])
def test_hidden_cards_do_not_change_the_decision(name: str, level: str) -> None:
    """Two states that differ only in what the seat cannot see: the same decision."""
    compared = 0
    for engine, state, seat in positions(name, games=3, every=13 if name != "tally" else 2, tag="hidden"):
        other = engine.resample(state, seat, Rng(f"r{compared}".encode()))
        if engine.encode(other) == engine.encode(state):
            continue
        decisions = [
            decide(engine, state_file(engine, s, seat), level, Rng(b"bot"), BUDGET)
            for s in (state, other)
        ]
        assert decisions[0] == decisions[1]
        compared += 1
    assert compared >= 2


def test_an_unknown_level_is_refused() -> None:
    engine, state, seat = next(iter(positions("tally", games=1, every=1)))
    with pytest.raises(ValueError, match="unknown bot level"):
        decide(engine, state_file(engine, state, seat), "genius", Rng(b"x"))


def test_greedy_beats_random_at_tally() -> None:
    """A cheap sanity check of the evaluation (the strength figures are in benchmarks/)."""
    import hashlib

    from arbiter.bots.match import play
    from arbiter.core import registry

    engine = registry.get("tally")
    wins = 0.0
    for game in range(10):
        levels = {"a": "greedy", "b": "random"} if game % 2 else {"a": "random", "b": "greedy"}
        seed = hashlib.sha256(f"tally-strength:{game}".encode()).digest()
        result = play(engine, engine.parse_options({}), levels, seed)
        winners = result.outcome.winners
        greedy_seat = "a" if game % 2 else "b"
        wins += 1 / len(winners) if greedy_seat in winners else 0
    assert wins >= 7
