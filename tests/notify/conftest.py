"""Fixtures of the turn-notice tests: an in-process ``arbiter``, games, and a real HTTP
server (``hooks``: ``notify.hookserver``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.tables import make_keys

from arbiter.cli.main import run
from arbiter.core.referee import new_game
from notify.hookserver import Hooks, serve_hooks

CREATED = "2026-12-01T00:00:00Z"


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def hooks() -> Iterator[Hooks]:
    with serve_hooks() as server:
        yield server


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """Run ``arbiter ARGS...`` in-process; return its exit code, stdout and stderr."""

    def invoke(*args: Any) -> Result:
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        code = info.value.code
        return Result(0 if code is None else int(code), out, err)

    return invoke


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The webhook server is on loopback: no proxy of the machine stands between."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def make_game(tmp_path: Path) -> Callable[..., Path]:
    """``make_game("g1", ["alice", "bob"], deadline=…)``: a started game (no joins), the
    first seat of ``seats`` to decide (``join=True``: waiting for the joins); keys made
    once under ``tmp/keys``, at ``keys``."""
    keys = make_keys(tmp_path / "keys", ["alice", "bob", "carol"])

    def make(
        game: str,
        seats: list[str],
        *,
        engine: str = "tally",
        deadline: int | None = None,
        grace: int = 0,
        root: Path | None = None,
        join: bool = False,
    ) -> Path:
        folder = (root or tmp_path / "games") / game
        folder.parent.mkdir(parents=True, exist_ok=True)
        new_game(
            folder, engine, [(s, f"{keys[s]}.pub") for s in seats], {}, game_id=game,
            join=join, created=CREATED, deadline=deadline, grace=grace, secret=bytes(range(32)),
        )
        return folder

    make.keys = keys  # type: ignore[attr-defined]
    return make


def configure(folder: Path, text: str) -> None:
    """Write the game's ``referee/notices.toml``."""
    (folder / "referee" / "notices.toml").write_text(text, encoding="utf-8")
