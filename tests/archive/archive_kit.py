"""Build archives of finished self-played games for the archive tests and the benchmark.

Games are played with ``arbiter.bots.selfplay`` (keys, joins, signed moves, the real
referee, reveal) in worker processes, then only the published game folder is kept (no
``referee/``: an archive is what a referee publishes). Building skips fsync: these
folders are throwaway fixtures, and the referee's fsyncs are a third of a game's cost;
and it plays in memory-backed scratch space when there is some (``/dev/shm``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TALLY = "tally=testgame:TallyEngine"

GAMES = 6
"""Games in the small archive of the default tests (conftest.small_archive)."""
UNREVEALED = (4,)
"""One game of the small archive is not revealed: verify checks only its public files."""


@dataclass
class Result:
    """One ``arbiter`` run of a test (conftest's ``cli``): exit code, stdout, stderr."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


Cli = Callable[..., Result]


def name(index: int) -> str:
    return f"g{index:04d}"


def _init() -> None:
    os.fsync = lambda fd: None  # this worker only builds throwaway fixtures
    if os.environ.get("ARBITER_ENGINES", "") == "" or "tally" not in os.environ["ARBITER_ENGINES"]:
        os.environ["ARBITER_ENGINES"] = TALLY


def _play(task: tuple[str, str, str, str, bool]) -> str:
    from arbiter.bots.selfplay import play

    dest, engine, seed, scratch, revealed = task
    root = Path(tempfile.mkdtemp(dir=scratch))
    run = play(root, engine, 2, seed, reveal_at_end=revealed)
    shutil.rmtree(run.game / "referee")
    # A copy when the scratch space is another file system: complete it, then rename, so
    # an interrupted build leaves no half game where a cached archive expects whole ones.
    shutil.rmtree(dest + ".part", ignore_errors=True)
    shutil.move(run.game, dest + ".part")
    os.replace(dest + ".part", dest)
    shutil.rmtree(root)
    return dest


def build(
    archive: Path,
    count: int,
    engine: str = "mottainai",
    seed: str = "archive",
    unrevealed: tuple[int, ...] = (),
    jobs: int | None = None,
    start: int = 0,
) -> list[Path]:
    """Play games ``start`` .. ``count - 1`` into ``archive/gNNNN`` (skipping folders that
    exist); the games in ``unrevealed`` stay unrevealed. Return every game folder."""
    archive.mkdir(parents=True, exist_ok=True)
    # Memory-backed scratch space where there is one: a game's build is mostly renames.
    shm = Path("/dev/shm")
    where = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    scratch = tempfile.mkdtemp(prefix="arbiter-archive-build-", dir=where)
    tasks = [
        (str(archive / name(i)), engine, f"{seed}-{i}", scratch, i not in unrevealed)
        for i in range(start, count)
        if not (archive / name(i)).exists()
    ]
    try:
        with ProcessPoolExecutor(max_workers=jobs or os.cpu_count() or 1, initializer=_init) as pool:
            list(pool.map(_play, tasks, chunksize=max(1, len(tasks) // 32)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return [archive / name(i) for i in range(count)]


# -- tampering: one byte of one file ---------------------------------------------------

TAMPERS = ("chain", "log", "revealed")


def _flip(path: Path, line: int, anchor: bytes) -> None:
    """Change the one byte after ``anchor`` in line ``line`` (0-based) of ``path``."""
    lines = path.read_bytes().split(b"\n")
    at = lines[line].index(anchor) + len(anchor)
    byte = lines[line][at : at + 1]
    lines[line] = lines[line][:at] + (b"Y" if byte == b"X" else b"X") + lines[line][at + 1 :]
    path.write_bytes(b"\n".join(lines))


def tamper(game: Path, where: str) -> str:
    """Change one byte of a finished game (``where``: one of ``TAMPERS``); return the
    words verify's message names the first bad entry with."""
    if where == "chain":  # a letter of entry #5's public summary
        _flip(game / "chain.jsonl", 5, b'"summary":["')
        return "chain entry 5"
    if where == "log":  # a letter of the public log's first line of entry #4
        log = game / "public" / "log.md"
        line = log.read_bytes().split(b"\n").index(
            next(x for x in log.read_bytes().split(b"\n") if x.startswith(b"- `#4` "))
        )
        _flip(log, line, b"- `#4` ")
        return "at entry #4"
    if where == "revealed":  # a byte of entry #7's signed move file, published by reveal
        _flip(game / "reveal" / "signed.jsonl", 6, b'"seat":"')
        return "chain entry 7"
    raise ValueError(where)


def set_engine(game: Path, engine: str) -> None:
    """Make a game's manifest name another engine (its tests register odd ones)."""
    manifest = game / "game.json"
    text = manifest.read_text()
    name = text.split('"name": "', 1)[1].split('"', 1)[0]
    manifest.write_text(text.replace(f'"name": "{name}"', f'"name": "{engine}"', 1))
