"""The search bot: determinised Monte Carlo search from one seat's view (docs/bots.md).

The root decisions are ranked by the greedy evaluation averaged over every determinised
world, and the best ``ARMS`` of them are searched by sequential halving: each round
gives every surviving decision the same playouts — the same world and the same random
stream for playout ``k`` whichever decision it starts with (common random numbers, so
two decisions are compared on the same deals) — and keeps the better half by mean
playout value. A playout applies the decision and plays on with a greedy policy for
every seat for ``DEPTH`` decisions; the position reached is scored in [0, 1] (a win, or a
logistic of the evaluated lead). The decision left, the most visited, is played.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from arbiter.bots import greedy
from arbiter.bots.evaluate import evaluate, value
from arbiter.bots.world import step
from arbiter.core.engine import Action, Engine
from arbiter.core.rng import Rng

BUDGET = 48
"""Default playouts per decision (docs/bots.md: 0.5–0.7 s per decision here); an engine
may set its own in ``TUNING``."""
WORLDS = 8
"""Determinised worlds rebuilt for each decision."""
ARMS = 6
"""Root decisions searched: the greedy evaluation's best ones when there are more."""
DEPTH = 12
"""Decisions played out (all seats) before the position is evaluated."""
PLAYOUT_WIDTH = 4
"""Decisions the playout policy compares at each step (a random sample)."""
SCALE = 6.0
"""Points of lead worth about 73% in a playout's score."""
BUDGET_MOTCOIN = 96
"""Mot Coin's default playouts per decision."""


@dataclass(frozen=True)
class Tuning:
    """One engine's search settings (docs/bots.md, "Search")."""

    budget: int = BUDGET
    width: int = PLAYOUT_WIDTH
    scale: float = SCALE


TUNING = {
    "mottainai": Tuning(),
    "momiji": Tuning(),
    # Mot Coin's evaluation is cheap and a seat has at most 10 decisions (pass and the
    # weakest bid per number of dice): the playout policy compares them all, so the
    # opponents in a playout answer a bid as the greedy bot would, and the time saved
    # buys more playouts. Its scores run to the hundreds: a wider scale.
    "motcoin": Tuning(budget=BUDGET_MOTCOIN, width=10, scale=15.0),
}
"""Search settings per engine; an engine not listed gets the defaults."""


def tuning(engine: Engine) -> Tuning:
    """Return the engine's search settings."""
    return TUNING.get(engine.info.name, Tuning())


def choose(
    engine: Engine,
    states: list[Any],
    seat: str,
    legal: list[Action],
    rng: Rng,
    check: bool,
    budget: int | None = None,
) -> Action:
    """Return the decision that survives sequential halving after ``budget`` playouts
    (the engine's default when ``None``; at least one per searched decision and round)."""
    if len(legal) == 1 or not states:
        return legal[0] if len(legal) == 1 else legal[rng.below(len(legal))]
    arms = _arms(engine, states, seat, legal, rng, check)
    if len(arms) == 1:
        return arms[0]
    tune = tuning(engine)
    budget = tune.budget if budget is None else budget
    base = rng.bytes(16)
    totals = [0.0] * len(arms)
    visits = [0] * len(arms)
    alive = list(range(len(arms)))
    rounds = math.ceil(math.log2(len(arms)))
    used = k = 0
    for done in range(rounds):
        per = max(1, (max(budget, 1) - used) // ((rounds - done) * len(alive)))
        for _ in range(per):
            # Playout k: the same world and stream for every decision still searched.
            for j in alive:
                stream = Rng(base + k.to_bytes(4, "big"))
                totals[j] += _playout_value(
                    engine, states[k % len(states)], seat, arms[j], stream, check, tune
                )
                visits[j] += 1
            k += 1
        used += per * len(alive)
        alive.sort(key=lambda j: (-totals[j] / visits[j], j))
        alive = alive[: math.ceil(len(alive) / 2)]
    return arms[alive[0]]


def _arms(
    engine: Engine, states: list[Any], seat: str, legal: list[Action], rng: Rng, check: bool
) -> list[Action]:
    """Return the greedy evaluation's best ``ARMS`` decisions (over every world), best
    first; decisions that apply in no world are left out unless none applies."""
    actions = greedy.sample(legal, greedy.WIDTH, rng)
    values = greedy.scores(engine, states, seat, actions, rng, check)
    order = sorted(
        (i for i, v in enumerate(values) if v is not None), key=lambda i: -(values[i] or 0.0)
    )
    return [actions[i] for i in order[:ARMS]] or actions[:1]


def _playout_value(
    engine: Engine, world: Any, seat: str, action: Action, rng: Rng, check: bool, tune: Tuning
) -> float:
    """Return the worth to ``seat`` of ``action`` played in a copy of ``world`` and
    followed by ``DEPTH`` greedy decisions (0: the decision is illegal there)."""
    state = engine.copy(world)
    if step(engine, state, seat, action, rng, check) is None:
        return 0.0
    for _ in range(DEPTH):
        prompt = engine.prompt(state)
        if prompt is None:
            break
        legal = engine.legal_actions(state, prompt.seat)
        if not legal:
            break
        if len(legal) == 1:
            move = legal[0]
        else:
            move = _quick(engine, state, prompt.seat, legal, rng, tune.width)
        engine.apply(state, prompt.seat, move, rng)
    return value(engine, state, seat, tune.scale)


def _quick(
    engine: Engine, state: Any, seat: str, legal: list[Action], rng: Rng, width: int
) -> Action:
    """Return the best of ``width`` sampled decisions by one-step evaluation."""
    picks = greedy.sample(legal, width, rng)
    best, best_value = picks[0], -math.inf
    for action in picks:
        after = engine.copy(state)
        engine.apply(after, seat, action, rng)
        v = evaluate(engine, after, seat)
        if v > best_value:
            best, best_value = action, v
    return best
