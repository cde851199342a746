"""Determinised worlds: full states rebuilt from one seat's state file, and moves in them.

A bot holds only its seat's state file. ``worlds`` rebuilds full states from its view
with the engine's ``determinize`` hook (hidden cards drawn from what the seat cannot see)
and keeps those whose prompt and legal decisions are exactly the state file's: only those
can be trusted to plan a batch. When none agrees (a Mottainai effect prompt whose context
the view does not carry), the rebuilt states still serve to rank the listed decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.core.engine import Action, Engine, Event
from arbiter.core.errors import ArbiterError
from arbiter.core.rng import Rng

ATTEMPTS = 3
"""Rebuilds tried per world wanted before settling for untrusted ones."""


@dataclass
class Worlds:
    """Rebuilt states of one decision; ``trusted``: they agree with the state file."""

    states: list[Any]
    trusted: bool


def worlds(engine: Engine, state_file: dict[str, Any], count: int, rng: Rng) -> Worlds:
    """Return up to ``count`` states rebuilt from the state file's view (may be none)."""
    seat, view, prompt = state_file["seat"], state_file["view"], state_file["prompt"]
    legal = state_file["legal"]
    agree: list[Any] = []
    other: list[Any] = []
    for _ in range(count * ATTEMPTS):
        try:
            state = engine.determinize(view, seat, rng, prompt)
        except NotImplementedError:
            return Worlds([], False)
        if _agrees(engine, state, seat, prompt, legal):
            agree.append(state)
            if len(agree) == count:
                break
        elif len(other) < count:
            other.append(state)
        if len(other) == count and not agree:
            break
    return Worlds(agree, True) if agree else Worlds(other, False)


def _agrees(engine: Engine, state: Any, seat: str, prompt: Any, legal: list[Action]) -> bool:
    try:
        now = engine.prompt(state)
        return (
            now is not None
            and now.to_json() == prompt
            and engine.legal_actions(state, seat) == legal
        )
    except (ArbiterError, KeyError, IndexError, ValueError, TypeError, AssertionError):
        return False


def step(
    engine: Engine, state: Any, seat: str, action: Action, rng: Rng, check: bool
) -> list[Event] | None:
    """Apply ``action`` in place; ``None`` if it is illegal there or the engine fails on
    it (an untrusted world). With ``check`` the engine's check runs first."""
    try:
        if check:
            engine.check(state, seat, action)
        return engine.apply(state, seat, action, rng)
    except (ArbiterError, KeyError, IndexError, ValueError, TypeError, AssertionError):
        return None
