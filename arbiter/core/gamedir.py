"""The game folder on disk: its layout, atomic writes and the referee's lock.

Layout (DESIGN.md): ``game.json``, ``chain.jsonl``, ``public/``, ``players/<seat>/``,
private ``referee/`` (``secret`` and ``signed.jsonl``, the accepted signed files one per
line) and ``reveal/`` after reveal (``reveal.json`` and a copy of ``signed.jsonl``).
Every write is a temp file + fsync + rename, so a reader never sees half a file.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from arbiter.core.errors import NotReady


def atomic_write(path: Path, data: bytes, sync_dir: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically (temp file, fsync, rename, fsync dir).

    ``sync_dir=False`` leaves the folder's fsync to the caller, who syncs once per folder.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    if sync_dir:
        fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class GameDir:
    """Paths of one game folder."""

    def __init__(self, root: Path | str):
        self.root = Path(root)

    # public
    @property
    def manifest(self) -> Path:
        return self.root / "game.json"

    @property
    def chain(self) -> Path:
        return self.root / "chain.jsonl"

    @property
    def public_state(self) -> Path:
        return self.root / "public" / "state.json"

    @property
    def public_log(self) -> Path:
        return self.root / "public" / "log.md"

    def seat_state(self, seat: str) -> Path:
        return self.root / "players" / seat / "state.json"

    def seat_log(self, seat: str) -> Path:
        return self.root / "players" / seat / "log.md"

    # private until reveal
    @property
    def referee(self) -> Path:
        return self.root / "referee"

    @property
    def secret(self) -> Path:
        return self.referee / "secret"

    @property
    def lockfile(self) -> Path:
        return self.referee / "lock"

    @property
    def referee_signed(self) -> Path:
        """Every accepted signed file, canonical, one per line: line n−1 is entry n."""
        return self.referee / "signed.jsonl"

    # after reveal
    @property
    def reveal(self) -> Path:
        return self.root / "reveal"

    @property
    def reveal_record(self) -> Path:
        return self.reveal / "reveal.json"

    @property
    def reveal_signed(self) -> Path:
        """After reveal: the same lines as ``referee/signed.jsonl``, for anyone to replay."""
        return self.reveal / "signed.jsonl"

    def require(self) -> None:
        """Raise ``NotReady`` unless this looks like a game folder."""
        if not self.manifest.is_file():
            raise NotReady(f"{self.root} is not a game folder (no game.json): check the path")

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the referee's exclusive lock for the duration of a write."""
        if not self.lockfile.is_file():
            raise NotReady(f"{self.root} has no referee/ folder: only the referee can do this")
        with open(self.lockfile, "rb") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
