"""Helpers of the conformance suite: cases, seeds, recorded playouts, JSON checks."""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from arbiter.bots.random_bot import iter_playout
from arbiter.core import registry
from arbiter.core.canonical import MAX_SAFE_INT
from arbiter.core.engine import Action, Engine, Event
from arbiter.core.rng import Rng

SEAT_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def seats_for(n: int) -> list[str]:
    """Return ``n`` realistic seat names."""
    return list(SEAT_NAMES[:n]) if n <= len(SEAT_NAMES) else [f"s{i}" for i in range(1, n + 1)]


VARIANTS: dict[str, tuple[str, dict[str, str], tuple[int, ...]]] = {
    # Mottainai with the Wutai Mountain expansion, at every player count (issue 15).
    "mottainai+wutai": ("mottainai", {"wutai": "yes"}, (2, 3, 4, 5)),
}
"""Case name → (engine, the ``--option`` values it is played with, seat counts)."""


def cases() -> list[Any]:
    """Return one pytest case per registered engine and extreme seat count, then one per
    option variant (``VARIANTS``) and seat count."""
    out = []
    for name in registry.names():
        info = registry.get(name).info
        for n in sorted({info.min_seats, info.max_seats}):
            out.append(pytest.param(name, seats_for(n), id=f"{name}-{n}p"))
    for name, (base, _, counts) in VARIANTS.items():
        if base in registry.names():
            out += [pytest.param(name, seats_for(n), id=f"{name}-{n}p") for n in counts]
    return out


@functools.cache
def engine_of(name: str) -> Engine:
    """Return the engine of a case: a registered engine, or a variant whose default
    options are the variant's (``parse_options({})`` gives them, all else is the engine)."""
    if name not in VARIANTS:
        return registry.get(name)
    base, raw, _ = VARIANTS[name]
    cls = type(registry.get(base))

    def parse_options(self: Engine, given: Any) -> dict[str, Any]:
        return cls.parse_options(self, {**raw, **given})

    variant = type(f"{cls.__name__}Variant", (cls,), {"parse_options": parse_options})
    return variant()  # type: ignore[no-any-return]


def games(fast: int, slow: int) -> list[Any]:
    """Return the seed ranges: ``fast`` games by default, ``slow`` more under -m slow."""
    return [
        pytest.param(range(fast), id="fast"),
        pytest.param(range(fast, fast + slow), id="slow", marks=pytest.mark.slow),
    ]


def seed(i: int) -> bytes:
    """Return the 32-byte seed of conformance game ``i``."""
    return hashlib.sha256(b"arbiter-conformance/%d" % i).digest()


def rng(*parts: object) -> Rng:
    """Return a test-only Rng named by ``parts`` (never a game's stream)."""
    return Rng(hashlib.sha256(repr(("conformance", *parts)).encode()).digest())


def options(engine: Engine) -> dict[str, Any]:
    """Return the engine's default manifest options."""
    return engine.parse_options({})


def event_json(event: Event) -> dict[str, Any]:
    """Return an event as JSON, hidden data included (for comparisons only)."""
    return {"kind": event.kind, "data": event.data, "barrier": event.barrier}


@dataclass
class Trace:
    """A recorded random game: the state (as ``key`` bytes) before each decision, and the moves."""

    seats: list[str]
    seed: bytes
    states: list[bytes] = field(default_factory=list)
    """``states[i]`` is the state after ``i`` decisions (0: just after setup)."""
    moves: list[tuple[str, Action]] = field(default_factory=list)
    """``moves[i]`` is decision ``i + 1`` as (seat, action)."""
    events: list[list[Event]] = field(default_factory=list)
    """``events[i]`` came from step ``i`` (0: setup)."""

    def state(self, engine: Engine, i: int) -> Any:
        """Return a fresh decoded copy of ``states[i]``."""
        return engine.decode(json.loads(self.states[i]))

    def sample(self, k: int) -> list[int]:
        """Return up to ``k`` evenly spaced state indices, first and last included."""
        last = len(self.states) - 1
        if k <= 1 or last == 0:
            return [0]
        return sorted({round(i * last / (k - 1)) for i in range(k)})


@functools.lru_cache(maxsize=256)
def recorded(name: str, seats: tuple[str, ...], i: int) -> Trace:
    """Return game ``i`` of engine ``name``, recorded once per session (do not mutate it)."""
    return record(engine_of(name), list(seats), i)


def record(engine: Engine, seats: list[str], i: int) -> Trace:
    """Play random game ``i`` and record it."""
    trace = Trace(list(seats), seed(i))
    for step in iter_playout(engine, options(engine), seats, trace.seed):
        trace.states.append(key(engine.encode(step.state)))
        trace.events.append(step.events)
        if step.seat is not None and step.action is not None:
            trace.moves.append((step.seat, step.action))
    return trace


def assert_plain_json(value: Any, where: str) -> None:
    """Assert ``value`` is JSON made of dicts with string keys, lists, str, int, bool, None."""
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            for key, sub in item.items():
                assert isinstance(key, str), f"{path}: key {key!r} is not a string"
                stack.append((sub, f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((sub, f"{path}[{n}]") for n, sub in enumerate(item))
        elif isinstance(item, bool) or item is None or isinstance(item, str):
            pass
        elif isinstance(item, int):
            assert abs(item) <= MAX_SAFE_INT, f"{path}: integer {item} is out of range"
        else:
            raise AssertionError(f"{path}: {type(item).__name__} {item!r} is not plain JSON")


def key(value: Any) -> bytes:
    """Return stable bytes to compare and deduplicate JSON values.

    Sorted-key ``json.dumps`` is as exact as canonical bytes for comparing plain JSON and
    many times faster; ``assert_plain_json`` and the round-trip test use ``canonical``.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
