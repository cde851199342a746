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
        engine: Any, world: Any, seat: str, action: Any, rng: Rng, check: bool, tune: Any
    ) -> float:
        calls.append(
            (legal.index(action), next(i for i, s in enumerate(states) if s is world), rng.bytes(8))
        )
        return real(engine, world, seat, action, Rng(rng.bytes(32)), check, tune)

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


@pytest.mark.parametrize(("name", "playouts"), [("motcoin", 95), ("momiji", 48)])
def test_the_default_budget_is_the_engines(
    name: str, playouts: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mot Coin searches with 96 playouts (95 spent: 5 x 6 + 11 x 3 + 16 x 2), the others 48."""
    engine, states, seat, legal = _wide_position(name)
    assert search.tuning(engine).budget == (96 if name == "motcoin" else search.BUDGET)
    count = [0]
    real = search._playout_value

    def spy(*args: Any) -> float:
        count[0] += 1
        return real(*args)

    monkeypatch.setattr(search, "_playout_value", spy)
    search.choose(engine, states, seat, legal, Rng(b"budget"), False)
    assert count[0] == playouts


@pytest.mark.parametrize("name", ["motcoin", "momiji"])
def test_playouts_compare_the_engines_width_of_decisions(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mot Coin's playout policy compares every legal decision (at most 10: docs/bots.md),
    so its playout opponents answer as the greedy bot would; Momiji's samples 4."""
    engine, states, seat, legal = _wide_position(name)
    compared: list[tuple[int, int]] = []
    real = greedy.sample

    def spy(decisions: list[Any], width: int, rng: Rng) -> list[Any]:
        picks = real(decisions, width, rng)
        compared.append((len(decisions), len(picks)))
        return picks

    monkeypatch.setattr(greedy, "sample", spy)
    for k in range(4):
        search._playout_value(
            engine, states[k], seat, legal[k], Rng(b"w%d" % k), False, search.tuning(engine)
        )
    assert compared
    if name == "motcoin":
        assert any(n > 4 for n, _ in compared)
        assert all(n == kept for n, kept in compared)
    else:
        assert {kept for n, kept in compared if n > 4} == {4}
