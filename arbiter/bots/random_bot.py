"""A random legal-move bot and seeded playouts for any engine.

Playouts are reproducible from one seed: setup uses chain stream 0, decision ``n`` is
applied with stream ``n``, and the bot's own choices come from a separate seed
(``sha256(seed ‖ "bot")``) so they never consume the game's randomness.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from arbiter.core.engine import Action, Engine, Event
from arbiter.core.rng import Rng


class PlayoutTooLong(RuntimeError):
    """A playout did not reach the end within its step budget."""


@dataclass
class Step:
    """One step of a playout; step 0 is the setup (no seat, no action).

    ``state`` is the live game state after the step: read it, copy it, never mutate it.
    """

    n: int
    seat: str | None
    action: Action | None
    state: Any
    events: list[Event] = field(default_factory=list)


def choose(engine: Engine, state: Any, seat: str, rng: Rng) -> Action:
    """Return one of ``seat``'s legal actions, chosen uniformly with ``rng``."""
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"{engine.info.name}: {seat} is prompted but has no legal action")
    return actions[rng.below(len(actions))]


def bot_seed(seed: bytes) -> bytes:
    """Return the seed of the bot's choices in a playout seeded with ``seed``."""
    return hashlib.sha256(seed + b"bot").digest()


def iter_playout(
    engine: Engine,
    options: Mapping[str, Any],
    seats: list[str],
    seed: bytes,
    max_steps: int = 100_000,
    check: bool = True,
) -> Iterator[Step]:
    """Yield the setup and then every decision of a random game until it ends.

    With ``check`` every chosen action also passes ``engine.check`` first, as the
    referee would do. Raise ``PlayoutTooLong`` after ``max_steps`` decisions.
    """
    state, events = engine.setup(options, list(seats), Rng.for_entry(seed, 0))
    yield Step(0, None, None, state, events)
    choices = bot_seed(seed)
    n = 0
    while (prompt := engine.prompt(state)) is not None:
        n += 1
        if n > max_steps:
            raise PlayoutTooLong(f"{engine.info.name}: no end after {max_steps} decisions")
        action = choose(engine, state, prompt.seat, Rng.for_entry(choices, n))
        if check:
            engine.check(state, prompt.seat, action)
        events = engine.apply(state, prompt.seat, action, Rng.for_entry(seed, n))
        yield Step(n, prompt.seat, action, state, events)


def playout(
    engine: Engine,
    options: Mapping[str, Any],
    seats: list[str],
    seed: bytes,
    max_steps: int = 100_000,
) -> tuple[Any, int]:
    """Play a random game to the end; return the final state and the number of decisions."""
    final = None
    for step in iter_playout(engine, options, seats, seed, max_steps):
        final = step
    assert final is not None
    return final.state, final.n
