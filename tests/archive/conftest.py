"""Fixtures of the archive tests: a small archive of finished games, built once."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from archive_engines import ENGINES
from archive_kit import GAMES, UNREVEALED, Cli, Result, build


@pytest.fixture(scope="session")
def small_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six finished 2-player Mottainai games (one not revealed), built once per session."""
    archive = tmp_path_factory.mktemp("archive-template") / "archive"
    build(archive, GAMES, seed="small", unrevealed=UNREVEALED)
    return archive


@pytest.fixture
def archive(small_archive: Path, tmp_path: Path) -> Path:
    """A copy of the small archive for one test to change."""
    dest = tmp_path / "archive"
    shutil.copytree(small_archive, dest, symlinks=True)
    return dest


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run ``arbiter ARGS...`` in this process; return its exit code, stdout and stderr."""
    from arbiter.cli.main import run

    def invoke(*args: Any) -> Result:
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        code = info.value.code
        return Result(0 if code is None else int(code), out, err)

    return invoke


@pytest.fixture(autouse=True)
def engines(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Workers started any way (fork, spawn) find the test engines through the registry."""
    here = str(Path(__file__).parent)
    parts = [os.environ.get("ARBITER_ENGINES", ""), ENGINES, "tally=testgame:TallyEngine"]
    monkeypatch.setenv("ARBITER_ENGINES", ",".join(filter(None, parts)))
    paths = [here, str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, paths)))
    monkeypatch.setenv("COLUMNS", "200")  # table rows on one line each
    yield

