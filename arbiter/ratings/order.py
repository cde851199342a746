"""The order games are rated in: each game's time, then its game id.

Ratings are updated one game at a time, so the order changes the numbers. It must be
the same for everyone who rates the same games, whatever the order of the folders given
or of the file system: it is read from the verified files only.

A game's time is the ``time`` of its last chain entry: games with deadlines record the
referee's clock on every entry, so that is when the game ended. A game without deadlines
records no time in its chain; its ``created`` (game.json, stamped by ``arbiter new``)
stands in, the only time it carries. A value not of the referee's form
(``2026-12-01T10:00:00Z``) counts as no time, and games with no time come first. Equal
times are ordered by game id (ids are unique among the games rated).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arbiter.core.errors import UsageError
from arbiter.ratings.facts import Rated


def game_time(last_entry_time: Any, created: Any) -> tuple[str | None, str | None]:
    """Return a game's time and where it came from (``"chain"``, ``"created"`` or ``None``)."""
    if _is_time(last_entry_time):
        return last_entry_time, "chain"
    if _is_time(created):
        return created, "created"
    return None, None


def sort_key(game: Rated) -> tuple[str, str]:
    """No time sorts first (""), then the referee's UTC times, which sort as text."""
    return (game.time or "", game.game)


def in_order(games: Sequence[Rated]) -> list[Rated]:
    return sorted(games, key=sort_key)


def _is_time(value: Any) -> bool:
    from arbiter.core.deadlines import check_time

    if not isinstance(value, str):
        return False
    try:
        check_time(value)
    except UsageError:
        return False
    return True
