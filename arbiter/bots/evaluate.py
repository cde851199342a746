"""Static evaluation of a position for one seat: what the greedy and search bots maximise.

Each engine's evaluation lives in its own module (``eval_<engine>``) and returns every
seat's estimated worth in points: the score the rules would give now (the engine's
``provisional_outcome``) plus the game's potential terms (docs/bots.md). An engine with
no module of its own is judged by its provisional score alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from importlib import import_module
from typing import Any

from arbiter.core.engine import Engine

Estimate = Callable[[Engine, Any], dict[str, float]]
_MODULES = {"mottainai": "eval_mottainai", "motcoin": "eval_motcoin", "momiji": "eval_momiji"}
_CACHE: dict[str, Estimate] = {}


def provisional(engine: Engine, state: Any) -> dict[str, float]:
    """Return the score each seat would have if the game ended now (final: the result)."""
    outcome = engine.outcome(state) or engine.provisional_outcome(state)
    return {seat: float(points) for seat, points in outcome.scores.items()}


def estimator(engine: Engine) -> Estimate:
    """Return the engine's estimate of every seat's worth (cached per engine name)."""
    name = engine.info.name
    if name not in _CACHE:
        module = _MODULES.get(name)
        _CACHE[name] = (
            import_module(f"arbiter.bots.{module}").estimate if module else provisional
        )
    return _CACHE[name]


def margin(worth: dict[str, float], seat: str) -> float:
    """Return the seat's worth minus the best other seat's (ahead is positive)."""
    best = max((v for s, v in worth.items() if s != seat), default=0.0)
    return worth[seat] - best


def evaluate(engine: Engine, state: Any, seat: str) -> float:
    """Return the seat's lead over its best opponent in estimated points."""
    return margin(estimator(engine)(engine, state), seat)


def value(engine: Engine, state: Any, seat: str, scale: float) -> float:
    """Return a playout's worth to ``seat`` in [0, 1]: 1 a win, 0.5 a shared win, 0 a loss
    once the game is over (nudged by the margin), else a logistic of the lead."""
    outcome = engine.outcome(state)
    if outcome is not None:
        lead = margin({s: float(v) for s, v in outcome.scores.items()}, seat)
        nudge = 0.05 * math.tanh(lead / scale)
        if outcome.ranking and seat in outcome.ranking[0]:
            won = 1.0 if len(outcome.ranking[0]) == 1 else 0.5
            return min(1.0, max(0.0, won - 0.05 + nudge))
        return min(1.0, max(0.0, 0.05 + nudge))
    return 1.0 / (1.0 + math.exp(-evaluate(engine, state, seat) / scale))
