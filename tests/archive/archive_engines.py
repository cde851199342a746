"""Engines that fail the way arbiter must survive in an archive run (``ARBITER_ENGINES``).

A game whose manifest names one of these meets it when verify loads the engine: in any
worker, however it was started, since the registry reads the environment.
"""

from __future__ import annotations

import os

ENGINES = "raising=archive_engines:RaisingEngine,dying=archive_engines:DyingEngine"


class RaisingEngine:
    """A bug: an exception no domain error covers."""

    def __init__(self) -> None:
        raise RuntimeError("a bug met on one game")


class DyingEngine:
    """A crash: the process verifying the game ends at once (as a segfault would)."""

    def __init__(self) -> None:
        os._exit(70)
