"""Verify one game folder and return plain data: the unit of work of every backend.

A result is a small dict (JSON and pickle friendly) with the same keys for every game::

    {"folder", "game", "ok", "revealed", "entries", "error", "code"}

Nothing in it depends on where or when it ran (no timings, no host names), so the report
of a local run and of a Dask run are the same bytes. A job never raises for a bad game:
an ``ArbiterError`` is a failed game with its message and code, and so is any other
exception (a bug in arbiter met on one game must not stop the other 999).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError
from arbiter.core.safeio import visible

Result = dict[str, Any]

INTERNAL = "internal"
"""The code of a game whose check hit an unexpected exception (exit code 1's class)."""

_ID_LIMIT = 200


def one_line(text: str) -> str:
    """Return ``text`` as one visible line (messages of failures go into one-line errors)."""
    return visible(" ".join(text.split()))


def verify_game(name: str, path: str) -> Result:
    """Verify the game folder at ``path`` (shown as ``name``); never raises for a bad game."""
    result: Result = {
        "folder": name,
        "game": None,
        "ok": False,
        "revealed": False,
        "entries": 0,
        "error": None,
        "code": None,
    }
    try:
        from arbiter.core.replay import verify

        report = verify(Path(path))
    except ArbiterError as exc:
        result.update(error=one_line(exc.message), code=exc.code)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        where = os.fsdecode(exc.filename) if exc.filename is not None else "a file"
        result.update(error=one_line(f"cannot read {where} ({reason})"), code="not-ready")
    except Exception as exc:  # isolation: one game's bug must not stop the archive
        result.update(error=one_line(f"unexpected {type(exc).__name__}: {exc}"), code=INTERNAL)
    else:
        result.update(
            game=report.game, ok=True, revealed=report.revealed, entries=report.entries
        )
        return result
    result["game"] = _game_id(Path(path))
    result["revealed"] = _revealed(Path(path))
    return result


def verify_batch(batch: list[tuple[str, str]]) -> list[Result]:
    """Verify several games in a row: one task per batch keeps per-task costs small."""
    return [verify_game(name, path) for name, path in batch]


def failed(name: str, path: str, why: str) -> Result:
    """The result of a game whose job could not finish (its worker died, say)."""
    return {
        "folder": name,
        "game": _game_id(Path(path)),
        "ok": False,
        "revealed": _revealed(Path(path)),
        "entries": 0,
        "error": one_line(why),
        "code": INTERNAL,
    }


def _game_id(root: Path) -> str | None:
    """The game id the manifest claims, to name a failed game (best effort, unverified)."""
    from arbiter.core.safeio import open_nofollow_read

    try:
        data = json.loads(open_nofollow_read(root / "game.json"))  # no FIFO, no symlink
        game = data.get("game") if isinstance(data, dict) else None
    except Exception:  # a broken manifest is what verify already reported
        return None
    return visible(game[:_ID_LIMIT]) if isinstance(game, str) else None


def _revealed(root: Path) -> bool:
    from arbiter.core.gamedir import GameDir

    try:
        return GameDir(root).reveal_record.is_file()
    except OSError:
        return False
