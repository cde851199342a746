"""Fixtures of the game record tests: an in-process ``arbiter`` and finished games.

The games are played once per test session by seeded random bots through the real path
(``arbiter.bots.selfplay``: keys, joins, signed moves, referee, reveal) and only read by
the tests; a test that changes a game copies it first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli.clikit import Cli, Result
from export_kit import ENGINES

from arbiter.cli.main import run
from arbiter.core.gamedir import deferred_sync


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
def revealed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished and revealed game of each engine: ``{engine: game folder}`` (read only)."""
    from arbiter.bots.selfplay import play

    root = tmp_path_factory.mktemp("records")
    # A test's games need not survive a power cut: no fsync per file, a faster setup.
    with deferred_sync():
        return {
            engine: play(root / engine, engine, seats, f"record-tests-{engine}").game
            for engine, seats in ENGINES.items()
        }


@pytest.fixture(scope="session")
def unrevealed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished Momiji game its referee has not revealed (read only: copy to change)."""
    from arbiter.bots.selfplay import play

    root = tmp_path_factory.mktemp("unrevealed")
    with deferred_sync():
        return play(root / "play", "momiji", 2, "record-tests-unrevealed", reveal_at_end=False).game
