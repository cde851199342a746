"""The search bot: determinised Monte Carlo search from one seat's view (docs/bots.md).

Each playout takes one determinised world (hidden cards drawn from what the seat cannot
see), a root decision chosen by UCB1, and plays on with a fast greedy policy for every
seat for a few decisions; the position reached is scored in [0, 1] (a win, or a
logistic of the evaluated lead). After ``budget`` playouts the most visited decision is
played. Root decisions are pre-ranked by the greedy evaluation when there are many.
"""

from __future__ import annotations

import math
from typing import Any

from arbiter.bots import greedy
from arbiter.bots.evaluate import evaluate, value
from arbiter.bots.world import copy, step
from arbiter.core.engine import Action, Engine
from arbiter.core.rng import Rng

BUDGET = 48
"""Default playouts per decision (docs/bots.md: about half a second here)."""
WORLDS = 8
ARMS = 8
"""Root decisions searched: the greedy evaluation's best ones when there are more."""
DEPTH = 12
"""Decisions played out (all seats) before the position is evaluated."""
EXPLORE = 0.6
PLAYOUT_WIDTH = 3
"""Decisions the playout policy compares at each step (a random sample)."""
EPSILON = 8
"""One playout step in ``EPSILON`` takes a random decision instead."""
SCALE = {"mottainai": 6.0, "motcoin": 15.0, "momiji": 6.0}
"""Points of lead worth about 73% in a playout's score, per engine (default 6)."""


def choose(
    engine: Engine,
    states: list[Any],
    seat: str,
    legal: list[Action],
    rng: Rng,
    check: bool,
    budget: int = BUDGET,
) -> Action:
    """Return the most visited root decision after ``budget`` playouts."""
    if len(legal) == 1 or not states:
        return legal[0] if len(legal) == 1 else legal[rng.below(len(legal))]
    arms = _arms(engine, states, seat, legal, rng, check)
    if len(arms) == 1:
        return arms[0]
    scale = SCALE.get(engine.info.name, 6.0)
    visits = [0] * len(arms)
    wins = [0.0] * len(arms)
    for n in range(max(budget, 1)):
        j = _select(visits, wins, n)
        world = copy(engine, states[n % len(states)])
        if step(engine, world, seat, arms[j], rng, check) is None:
            visits[j] += 1  # illegal in this world: counts as a loss
            continue
        _playout(engine, world, rng)
        visits[j] += 1
        wins[j] += value(engine, world, seat, scale)
    top = max(range(len(arms)), key=lambda i: (visits[i], wins[i]))
    return arms[top]


def _arms(
    engine: Engine, states: list[Any], seat: str, legal: list[Action], rng: Rng, check: bool
) -> list[Action]:
    if len(legal) <= ARMS:
        return legal
    actions = greedy.sample(legal, greedy.WIDTH, rng)
    values = greedy.scores(engine, states[:1], seat, actions, rng, check)
    ranked = [-math.inf if v is None else v for v in values]
    order = sorted(range(len(actions)), key=lambda i: -ranked[i])
    return [actions[i] for i in order[:ARMS]]


def _select(visits: list[int], wins: list[float], n: int) -> int:
    """UCB1: every arm once, then the best mean plus an exploration bonus."""
    for i, v in enumerate(visits):
        if v == 0:
            return i
    log = math.log(n)
    return max(
        range(len(visits)),
        key=lambda i: wins[i] / visits[i] + EXPLORE * math.sqrt(log / visits[i]),
    )


def _playout(engine: Engine, state: Any, rng: Rng) -> None:
    """Play ``DEPTH`` decisions in place with the fast greedy policy for every seat."""
    for _ in range(DEPTH):
        prompt = engine.prompt(state)
        if prompt is None:
            return
        legal = engine.legal_actions(state, prompt.seat)
        if not legal:
            return
        if len(legal) == 1 or rng.below(EPSILON) == 0:
            action = legal[rng.below(len(legal))]
        else:
            action = _quick(engine, state, prompt.seat, legal, rng)
        engine.apply(state, prompt.seat, action, rng)


def _quick(engine: Engine, state: Any, seat: str, legal: list[Action], rng: Rng) -> Action:
    """Return the best of a few sampled decisions by one-step evaluation."""
    picks = greedy.sample(legal, PLAYOUT_WIDTH, rng)
    best, best_value = picks[0], -math.inf
    for action in picks:
        after = copy(engine, state)
        engine.apply(after, seat, action, rng)
        v = evaluate(engine, after, seat)
        if v > best_value:
            best, best_value = action, v
    return best
