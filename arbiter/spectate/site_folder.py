"""The site folder on disk: which folder may hold a site, and writing it again safely.

A site folder is new, empty, or one this command wrote for the same tournament (its
``site.json``): any other folder is refused, so ``--site`` never writes into a folder of
something else. Writing it again replaces each file atomically (a reader or a web server
never sees half a page), leaves a file whose bytes did not change untouched, and removes
the pages of games it no longer shows (a running game hidden by a delay, a game gone
from the tournament): only files named like this tournament's game pages, under
``games/``. Nothing else in the folder is touched.

Never under ``T/games/``: ``tournament verify`` refuses any folder there that is not a
scheduled game.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from arbiter.core.errors import UsageError
from arbiter.spectate import site as sites
from arbiter.tournament.folder import GAMES


def check(root: Path, out: Path, tournament_id: str) -> dict[str, Any] | None:
    """Refuse a folder that cannot be this tournament's site; return its site.json data
    when it already is one (``None``: a new or empty folder)."""
    from arbiter.core.safeio import shown

    games = (root / GAMES).resolve()
    place = out.resolve()
    if place == games or games in place.parents:
        raise UsageError(
            f"--site {shown(out)} is inside {shown(root / GAMES)}, which holds only the "
            "scheduled games (tournament verify refuses anything else): choose another folder"
        )
    if out.exists() and not out.is_dir():
        raise UsageError(f"--site {shown(out)} is not a folder: choose a new or empty folder")
    if not out.exists() or not any(out.iterdir()):
        return None
    data = _site_data(out / sites.DATA)
    if data is None:
        raise UsageError(
            f"--site {shown(out)} is not empty and holds no site written by `tournament "
            "report`: choose a new or empty folder"
        )
    if data.get("tournament") != tournament_id:
        raise UsageError(
            f"--site {shown(out)} holds the site of tournament "
            f"{str(data.get('tournament'))[:48]!r}, not {tournament_id}: choose another folder"
        )
    return data


def _site_data(path: Path) -> dict[str, Any] | None:
    """The data of a site.json this command wrote, else ``None`` (missing, unreadable, or
    anything else)."""
    import json

    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    return data if isinstance(data, dict) and data.get("format") == sites.FORMAT else None


def write(root: Path, out: Path, tournament_id: str, files: dict[str, bytes]) -> list[Path]:
    """Write the site's files into ``out`` (``check`` passed before anything was written,
    so ``-o`` may name the same folder) under the tournament's lock; return the paths
    written or kept (pages, then index.html, then site.json)."""
    from arbiter.core.gamedir import PUBLIC_FILE, atomic_write, ensure_dir, remove_temporaries_of
    from arbiter.tournament import folder

    with folder.locked(root):  # one report of this tournament at a time
        # Made under the umask, an existing folder's mode left as it is (the site is the
        # organiser's to serve); the files themselves are world-readable.
        ensure_dir(out)
        ensure_dir(out / sites.PAGES)
        for stale in _stale_pages(out, tournament_id, files):
            remove_temporaries_of(stale)
            stale.unlink()
        written = []
        for name, data in files.items():
            path = out / name
            remove_temporaries_of(path)  # what a report killed mid-write left
            if not _same(path, data):
                atomic_write(path, data, mode=PUBLIC_FILE)
            written.append(path)
    return written


def _stale_pages(out: Path, tournament_id: str, files: dict[str, bytes]) -> list[Path]:
    """Pages of this tournament's games in ``out/games`` the new site does not have."""
    pattern = re.compile(rf"{re.escape(tournament_id)}-r[0-9]+-t[0-9]+\.html")
    found = []
    for entry in os.scandir(out / sites.PAGES):
        name = f"{sites.PAGES}/{entry.name}"
        if (
            entry.is_file(follow_symlinks=False)
            and pattern.fullmatch(entry.name)
            and name not in files
        ):
            found.append(Path(entry.path))
    return sorted(found)


def _same(path: Path, data: bytes) -> bool:
    try:
        return not path.is_symlink() and path.read_bytes() == data
    except OSError:
        return False
