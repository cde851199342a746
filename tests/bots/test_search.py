"""The search bot's procedure (docs/bots.md, "Search"): sequential halving over the
greedy evaluation's best decisions, with paired playouts."""

from __future__ import annotations

from typing import Any

import pytest
from bots.botkit import positions

from arbiter.bots import greedy, search
from arbiter.bots.match import state_file
from arbiter.bots.world import worlds
from arbiter.core.rng import Rng


def _wide_position(name: str) -> tuple[Any, list[Any], str, list[Any]]:
    """Return an engine, its trusted worlds, the seat and its legal decisions at the first
    sampled position with more decisions than the search looks at."""
    for engine, state, seat in positions(name, 4, 3, "search"):
        data = state_file(engine, state, seat)
        if len(data["legal"]) > search.ARMS:
            found = worlds(engine, data, search.WORLDS, Rng(b"search-test"))
            if found.trusted:
                return engine, found.states, seat, data["legal"]
    raise AssertionError(f"no position with more than {search.ARMS} decisions in {name}")


@pytest.mark.parametrize("name", ["momiji", "mottainai"])
@pytest.mark.parametrize("budget", [48, 20, 1])
def test_sequential_halving_spends_the_budget_on_paired_playouts(
    name: str, budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine, states, seat, legal = _wide_position(name)
    calls: list[tuple[int, int, bytes]] = []
    real = search._playout_value

    def spy(
        engine: Any, world: Any, seat: str, action: Any, rng: Rng, check: bool, scale: float
    ) -> float:
        calls.append(
            (legal.index(action), next(i for i, s in enumerate(states) if s is world), rng.bytes(8))
        )
        return real(engine, world, seat, action, Rng(rng.bytes(32)), check, scale)

    monkeypatch.setattr(search, "_playout_value", spy)
    chosen = search.choose(engine, states, seat, legal, Rng(b"x"), False, budget)
    arms = {a for a, _, _ in calls}
    assert len(arms) == search.ARMS
    # The whole budget is spent, and at least one playout per decision and round
    # (6 + 3 + 2 when the budget is smaller).
    assert len(calls) == max(budget, 6 + 3 + 2)
    visits = {a: sum(1 for c in calls if c[0] == a) for a in arms}
    assert visits[legal.index(chosen)] == max(visits.values())
    # Paired: playout k is the same world and stream whichever decision it starts with.
    by_k: dict[tuple[int, bytes], set[int]] = {}
    for arm, world, stream in calls:
        by_k.setdefault((world, stream), set()).add(arm)
    assert max(len(v) for v in by_k.values()) == search.ARMS
    assert len({stream for _, _, stream in calls}) == len(by_k)


def test_searched_decisions_are_the_greedy_evaluations_best() -> None:
    engine, states, seat, legal = _wide_position("momiji")
    arms = search._arms(engine, states, seat, legal, Rng(b"a"), False)
    actions = greedy.sample(legal, greedy.WIDTH, Rng(b"a"))
    values = greedy.scores(engine, states, seat, actions, Rng(b"a"), False)
    ranked = sorted((v for v in values if v is not None), reverse=True)
    got = [values[actions.index(a)] for a in arms]
    assert len(arms) == search.ARMS and got == ranked[: search.ARMS]
