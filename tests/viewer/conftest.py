"""The replay page tests: the ``browser`` marker, and games before and after the reveal.

Tests marked ``browser`` drive Debian's headless Chromium (``chromium``,
``chromium-driver``) with selenium. They run in the default suite wherever Chromium is
installed; elsewhere they are skipped with the reason, except in CI, where `.ci/run`
installs Chromium and a missing one fails the run (``helpers.tools.needs``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "browser: drives headless Chromium (Debian's chromium and chromium-driver); runs "
        "by default where they are installed, and CI requires them",
    )


@pytest.fixture(scope="session")
def before_reveal(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Finished games with hidden hands, not revealed (the referee's copy), each with a
    revealed twin to compute what the seats saw: ``{engine: (referee copy, revealed)}``."""
    from arbiter.bots.selfplay import play
    from arbiter.core.referee import reveal

    out = {}
    for engine, seats in (("mottainai", 3), ("momiji", 2)):
        root = tmp_path_factory.mktemp(f"unrevealed-{engine}")
        run = play(root / "play", engine, seats, "viewer-tests", reveal_at_end=False)
        twin = root / "revealed"
        shutil.copytree(run.game, twin)
        reveal(twin)
        out[engine] = (run.game, twin)
    return out
