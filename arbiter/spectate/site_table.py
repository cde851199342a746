"""One table of a round as the site shows it (shared by the site and its index page)."""

from __future__ import annotations

from dataclasses import dataclass, field

from arbiter.spectate.delay import Shown
from arbiter.spectate.live import Snapshot
from arbiter.tournament.standings import GameResult


@dataclass
class Table:
    """One table of a round, as the site shows it."""

    result: GameResult
    snapshot: Snapshot | None
    """``None``: the game folder is not there (not created yet)."""
    shown: Shown | None = None
    page: str | None = None
    built: dict[str, str] = field(default_factory=dict)
    """``key`` (what the page was built from) and ``sha256`` (its bytes), for reuse."""
