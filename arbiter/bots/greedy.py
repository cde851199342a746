"""The greedy bot: one-step look-ahead over determinised worlds (docs/bots.md).

Each legal decision is applied in every world and the resulting positions are scored
with the engine's evaluation (``arbiter.bots.evaluate``); the best average wins, ties
broken by the bot's seeded stream.
"""

from __future__ import annotations

from typing import Any

from arbiter.bots.evaluate import evaluate
from arbiter.bots.world import step
from arbiter.core.engine import Action, Engine
from arbiter.core.rng import Rng

WORLDS = 4
"""Determinised worlds the greedy bot averages over."""
WIDTH = 48
"""At most this many decisions are looked at (a sample, when the list is longer)."""


def sample(legal: list[Action], width: int, rng: Rng) -> list[Action]:
    """Return ``legal``, or ``width`` of them drawn without replacement, in list order."""
    if len(legal) <= width:
        return legal
    picks = list(range(len(legal)))
    rng.shuffle(picks)
    return [legal[i] for i in sorted(picks[:width])]


def scores(
    engine: Engine,
    states: list[Any],
    seat: str,
    actions: list[Action],
    rng: Rng,
    check: bool,
) -> list[float | None]:
    """Return each action's average evaluation over ``states`` (``None``: never applied)."""
    out: list[float | None] = []
    for action in actions:
        total, n = 0.0, 0
        for state in states:
            after = engine.copy(state)
            if step(engine, after, seat, action, rng, check) is None:
                continue
            total += evaluate(engine, after, seat)
            n += 1
        out.append(total / n if n else None)
    return out


def best(actions: list[Action], values: list[float | None], rng: Rng) -> Action:
    """Return the best-valued action; equal values are drawn with ``rng``."""
    top = max((v for v in values if v is not None), default=None)
    if top is None:
        return actions[rng.below(len(actions))]
    ties = [a for a, v in zip(actions, values, strict=True) if v is not None and v >= top - 1e-9]
    return ties[rng.below(len(ties))]


def choose(
    engine: Engine, states: list[Any], seat: str, legal: list[Action], rng: Rng, check: bool
) -> Action:
    """Return the greedy decision among ``legal`` in the worlds ``states``."""
    if len(legal) == 1:
        return legal[0]
    actions = sample(legal, WIDTH, rng)
    return best(actions, scores(engine, states, seat, actions, rng, check), rng)
