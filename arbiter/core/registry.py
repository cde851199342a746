"""Map engine names to engines without the core importing any engine eagerly.

Built-in engines are listed by import path and loaded on first use. Third-party engines
join through the ``arbiter.engines`` entry-point group or the ``ARBITER_ENGINES``
environment variable (``name=module:Class,...``); tests register with ``register``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable

from arbiter.core.engine import Engine
from arbiter.core.errors import UsageError

# Real engines shipped with arbiter, in the order `arbiter games` lists them. The
# demo uses the first one present here ("mottainai" once it exists).
BUILTIN: dict[str, str] = {
    "mottainai": "arbiter.games.mottainai:MottainaiEngine",
    "motcoin": "arbiter.games.motcoin:MotCoinEngine",
    "momiji": "arbiter.games.momiji:MomijiEngine",
}

PREFERRED_DEMO = ("mottainai", "motcoin", "momiji")

_extra: dict[str, Callable[[], Engine]] = {}
_loaded: dict[str, Engine] = {}


def register(name: str, factory: Callable[[], Engine]) -> None:
    """Register an engine factory under ``name`` (used by plug-ins and tests)."""
    _extra[name] = factory
    _loaded.pop(name, None)


def unregister(name: str) -> None:
    """Remove an engine registered with ``register``."""
    _extra.pop(name, None)
    _loaded.pop(name, None)


def _load_path(path: str) -> Engine:
    module_name, _, attr = path.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    return cls()


def _env_engines() -> dict[str, str]:
    spec = os.environ.get("ARBITER_ENGINES", "")
    out: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, sep, path = item.partition("=")
        if sep and ":" in path:
            out[name.strip()] = path.strip()
    return out


def _entry_points() -> dict[str, str]:
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group="arbiter.engines")}


def names() -> list[str]:
    """Return every engine name: built-ins first, then plug-ins, then registered ones."""
    out = list(BUILTIN)
    for source in (_entry_points(), _env_engines(), _extra):
        out.extend(name for name in source if name not in out)
    return out


def get(name: str) -> Engine:
    """Return the engine called ``name`` or raise ``UsageError`` listing the known ones."""
    if name in _loaded:
        return _loaded[name]
    engine: Engine
    if name in _extra:
        engine = _extra[name]()
    elif name in BUILTIN:
        engine = _load_path(BUILTIN[name])
    elif name in (env := _env_engines()):
        engine = _load_path(env[name])
    elif name in (eps := _entry_points()):
        engine = _load_path(eps[name])
    else:
        known = ", ".join(names()) or "none"
        raise UsageError(
            f"unknown game engine {name!r}: choose one of {known} (see `arbiter games`)"
        )
    _loaded[name] = engine
    return engine


def demo_default() -> str | None:
    """Return the engine ``arbiter demo`` plays by default, or ``None`` if none is installed."""
    for name in PREFERRED_DEMO:
        if name in BUILTIN:
            return name
    available = names()
    return available[0] if available else None


# Bots that decide for a timed-out seat (docs/bots.md), by level, loaded like the built-in
# engines: by import path on first use, so the core imports no bot (bots build on the core).
BOT_LEVELS: dict[str, str] = {
    "greedy": "arbiter.bots.levels:decide",
    "search": "arbiter.bots.levels:decide",
}


def bot(level: str) -> Callable[..., list[dict[str, object]]]:
    """Return ``decide(engine, state_file, level, rng)`` of the bots that play ``level``."""
    if level not in BOT_LEVELS:
        raise UsageError(f"no bot plays at level {level!r} (levels: {', '.join(BOT_LEVELS)})")
    module_name, _, attr = BOT_LEVELS[level].partition(":")
    decide: Callable[..., list[dict[str, object]]] = getattr(
        importlib.import_module(module_name), attr
    )
    return decide
