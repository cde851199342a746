"""Find the game folders to verify: the paths given, or the game folders below them."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from arbiter.core.errors import NotReady
from arbiter.core.safeio import shown, visible


@dataclass(frozen=True)
class GameFolder:
    """One game folder: its name in the report, and the absolute path a worker opens."""

    name: str
    """As given, or the given folder joined with the path found below it."""
    path: str
    """Absolute: a worker on another machine (or in another folder) opens this."""


def is_game_folder(path: Path) -> bool:
    """Whether ``path`` is a game folder: it holds ``game.json`` (of whatever kind).

    A ``game.json`` that is a symlink or a folder still marks a game folder, so that
    verify reports it as tampered instead of the search walking past it.
    """
    return os.path.lexists(path / "game.json")


def sort_key(name: str) -> tuple[str, ...]:
    """Order report rows by path components (``a/b`` before ``a-b``), the same everywhere."""
    return Path(name).parts


def find(paths: Iterable[Path]) -> list[GameFolder]:
    """Return the game folders at or below ``paths``, sorted by name, each once.

    A path holding ``game.json`` is a game folder; any other folder is searched, and the
    search does not descend into a game folder (its ``reveal/`` is no game) nor follow
    symlinked folders. Raises ``NotReady`` for a path that is not a folder or holds no
    game folder, and lets an ``OSError`` from an unreadable folder through (exit 17).
    """
    found: dict[str, GameFolder] = {}
    for given in paths:
        if not given.is_dir():
            raise NotReady(f"{shown(given)} is not a folder: give game folders or folders holding them")
        before = len(found)
        for folder in _below(given):
            real = os.path.realpath(folder)
            found.setdefault(real, GameFolder(visible(os.fspath(folder)), real))
        if len(found) == before and not _already(given, found):
            raise NotReady(
                f"no game folder in {shown(given)} (a game folder holds game.json): "
                "give game folders or folders holding them"
            )
    return sorted(found.values(), key=lambda game: sort_key(game.name))


def _already(given: Path, found: dict[str, GameFolder]) -> bool:
    """Whether ``given``'s games were all found before (the same folder given twice)."""
    real = os.path.realpath(given)
    return any(key == real or key.startswith(real + os.sep) for key in found)


def _below(given: Path) -> list[Path]:
    if is_game_folder(given):
        return [given]
    out: list[Path] = []

    def refuse(exc: OSError) -> None:
        raise exc

    for top, dirs, _files in os.walk(given, onerror=refuse):
        here = Path(top)
        dirs.sort()
        if top != os.fspath(given) and is_game_folder(here):
            out.append(here)
            dirs.clear()  # a game folder's own folders (players/, reveal/) are no games
    return sorted(out, key=lambda path: sort_key(os.fspath(path)))
