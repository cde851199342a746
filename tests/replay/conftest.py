"""Fixtures of the replay tests: an in-process ``arbiter`` and a game before its reveal."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from cli.clikit import Cli, Result

from arbiter.cli.main import run


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run ``arbiter ARGS...`` in-process; return its exit code, stdout and stderr."""

    def invoke(*args: Any) -> Result:
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        code = info.value.code
        return Result(0 if code is None else int(code), out, err)

    return invoke


@pytest.fixture(scope="session")
def _unrevealed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from arbiter.bots.selfplay import play

    root = tmp_path_factory.mktemp("unrevealed")
    run = play(root / "play", "momiji", 2, "replay-tests", reveal_at_end=False)
    assert run.status == "over"
    return run.game


@pytest.fixture
def unrevealed(_unrevealed: Path, tmp_path: Path) -> Path:
    """A finished Momiji game the referee has not revealed yet (the referee's copy)."""
    target = tmp_path / "game"
    shutil.copytree(_unrevealed, target)
    return target


@pytest.fixture
def published(unrevealed: Path) -> Path:
    """What the referee publishes before the reveal: the folder without referee/."""
    shutil.rmtree(unrevealed / "referee")
    return unrevealed
