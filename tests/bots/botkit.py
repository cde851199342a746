"""Positions of every engine for the bot tests: random playouts, sampled decisions."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

from arbiter.bots.random_bot import iter_playout
from arbiter.core import registry
from arbiter.core.engine import Engine

ENGINES = {"tally": 2, "mottainai": 2, "motcoin": 3, "momiji": 2}
"""Every registered engine with the seats its positions are sampled at."""


def positions(name: str, games: int, every: int, tag: str = "") -> Iterator[tuple[Engine, Any, str]]:
    """Yield (engine, live state, prompted seat) at every ``every``-th decision of random games.

    The state is the playout's own: copy it before changing it.
    """
    engine = registry.get(name)
    seats = [f"s{i}" for i in range(ENGINES[name])]
    options = engine.parse_options({})
    for game in range(games):
        seed = hashlib.sha256(f"bots:{name}:{tag}:{game}".encode()).digest()
        for step in iter_playout(engine, options, seats, seed, check=False):
            prompt = engine.prompt(step.state)
            if prompt is not None and step.n % every == 0:
                yield engine, step.state, prompt.seat
