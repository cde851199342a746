"""Fixtures for the git desk's tests: real git, a bare repository on disk, clones.

- ``world``: a sealed two-seat tally game, its bare repository (branch main, with a
  reflog) and the referee's clone, published by a first desk round; ``world.player(seat)``.
- ``make_world(engine=..., seats=...)``: other games.

Every test here carries the project's ``needs("git")`` marker: skipped with the reason on
a machine without git, run (and failed) in CI, where `.ci/run` installs it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.tools import needs

from git.gitkit import ISOLATED, World, make_world

HERE = Path(__file__).parent
needs_git = needs("git", "the git desk's tests use real repositories")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).parents:
            item.add_marker(needs_git)


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """The desk under test runs in this process: no user or system git configuration."""
    for name, value in ISOLATED.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def world(tmp_path: Path) -> World:
    return make_world(tmp_path)


@pytest.fixture
def new_world(tmp_path: Path) -> Callable[..., World]:
    made = [0]

    def make(**kwargs: object) -> World:
        made[0] += 1
        return make_world(tmp_path / f"w{made[0]}", **kwargs)  # type: ignore[arg-type]

    return make
