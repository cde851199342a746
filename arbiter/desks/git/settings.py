"""What ``arbiter git run`` is told, checked before anything is written: the game folder's
path in the repository, the commits' author, the branch, and the referee's sealed game."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError, UsageError
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import shown
from arbiter.desks.git import owned
from arbiter.desks.git.plumbing import Git

_AUTHOR = re.compile(r"\s*([^<>\n]*?)\s*<([^<>\s]+)>\s*")
_PATH_PART = re.compile(r"[^\x00-\x1f/\\]+")


@dataclass
class Settings:
    """What ``arbiter git run`` was told."""

    repo: Path
    game_path: str
    secret_dir: Path
    remote: str = "origin"
    branch: str | None = None
    push: bool = False
    author: str | None = None
    interval: float = 30.0


def clean_game_path(text: str) -> str:
    """Check ``--game``: a folder path inside the repository, as git spells it."""
    path = text.strip("/")
    parts = path.split("/")
    # A folder named like a file the desk owns (owned.py) would be that file's place too.
    bad = [
        p
        for p in parts
        if p in ("", ".", "..", ".git") or p.lower() in owned.NAMES or not _PATH_PART.fullmatch(p)
    ]
    if not path or bad or text.startswith("/"):
        raise UsageError(
            f"--game {text[:80]!r} must be the game folder's relative path inside the "
            "repository (like games/g1)"
        )
    return path


def parse_author(text: str | None, game: str) -> tuple[str, str]:
    """``"Name <email>"`` -> (name, email); the default names the referee of the game."""
    if text is None:
        return "arbiter referee", f"referee@{game}.invalid"
    match = _AUTHOR.fullmatch(text)
    if not match or not match.group(1):
        raise UsageError(f"--author {text[:80]!r} must look like 'Name <email>'")
    return match.group(1), match.group(2)


def current_branch(git: Git) -> str:
    done = git.run(["symbolic-ref", "-q", "--short", "HEAD"], check=False)
    if done.returncode != 0:
        raise UsageError("the clone is not on a branch (detached HEAD): pass --branch")
    return done.stdout.decode().strip()


def sealed_manifest(gd: GameDir) -> dict[str, Any]:
    from arbiter.core.ledger import load_manifest

    if not gd.manifest.is_file():
        raise UsageError(
            f"{shown(gd.root)} is not a game folder (no game.json): pass the referee's own "
            "folder made by `arbiter new ... --sealed`"
        )
    try:
        manifest, _, _ = load_manifest(gd)
    except ArbiterError as exc:
        raise UsageError(f"{shown(gd.root)}: {exc.message}") from None
    if manifest.get("sealed") is not True:
        raise UsageError(
            f"{shown(gd.root)} is not a sealed game: unsealed games must not be played in a "
            "shared repository (every player could read every hand); make it with "
            "`arbiter new ... --sealed`"
        )
    return manifest
