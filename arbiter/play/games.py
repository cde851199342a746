""""My games": every game of the player's profile, whose turn it is, and the time left.

``arbiter play`` with no argument lists them and opens the one waiting for this player
with the least time left; ``arbiter play --check`` prints the list only (for a shell
prompt or cron: exit 0, and the count of games waiting for the player on the first line).
A game whose transport cannot be reached is listed with the one-line reason, never
dropped: the others are still shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError


@dataclass(frozen=True)
class Row:
    """One game of the list."""

    game: str
    seat: str
    via: str
    status: str  # joining, playing, over, or "unreachable"
    turn: str | None  # the seat the game waits for
    mine: bool
    due: str | None  # when the waiting seat's time runs out (UTC), if the game has deadlines
    left: int | None  # seconds left until ``due`` (negative: past it)
    note: str  # one line: "your turn (task)", "bob decides", or the transport's error

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def describe_left(seconds: int | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 0:
        return "past the deadline"
    from arbiter.core.deadlines import describe_duration

    return describe_duration(seconds) + " left"


def row_for(
    game: str,
    seat: str,
    via: str,
    manifest: Mapping[str, Any] | None,
    fetch: Callable[[], tuple[dict[str, Any], str | None]],
    now: str,
) -> Row:
    """Build one row; ``fetch`` returns (the seat's state file, the last entry's time)."""
    from arbiter.core.deadlines import seconds_between, terms_of

    try:
        state, time = fetch()
    except ArbiterError as exc:
        return Row(game, seat, via, "unreachable", None, False, None, None, exc.message)
    prompt = state.get("prompt")
    turn = prompt["seat"] if isinstance(prompt, dict) else None
    mine = bool(state.get("legal"))
    status = str(state["status"])
    if status == "joining" and seat in state.get("waiting_for", []):
        mine, note = True, "waits for your join"
    elif status == "over":
        outcome = state.get("outcome") or {}
        note = "over: " + (", ".join(outcome.get("winners", [])) or "no winner") + " won"
    elif mine:
        note = f"your turn ({prompt['kind']})" if prompt else "your turn"
    elif turn:
        note = f"{turn} decides"
    else:
        note = status
    terms = terms_of(dict(manifest)) if manifest else None
    due = terms.due(time) if terms is not None and time and status == "playing" else None
    clock = state.get("clock")  # a bank, leave or weekend pauses: the fold's due (docs/clocks.md)
    if isinstance(clock, dict) and status == "playing":
        due = clock.get("due")
    left = seconds_between(now, due) if due else None
    return Row(game, seat, via, status, turn, mine, due, left, note)


def order(rows: list[Row]) -> list[Row]:
    """Games waiting for the player first, least time left first (no deadline last)."""
    big = 1 << 62
    return sorted(rows, key=lambda r: (not r.mine, r.left if r.left is not None else big, r.game))


def next_game(rows: list[Row]) -> Row | None:
    """The game to open: waiting for the player, with the least time left."""
    waiting = [r for r in order(rows) if r.mine]
    return waiting[0] if waiting else None


def read_manifest(path: Path) -> dict[str, Any] | None:
    from arbiter.core.ledger import read_json

    try:
        value = read_json(path, "game.json")
    except ArbiterError:
        return None
    return value if isinstance(value, dict) else None
