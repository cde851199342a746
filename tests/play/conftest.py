"""Fixtures for the player's side: XDG folders in the test's tmp_path, an in-process
``arbiter`` (exit code, out, err), the mail desk's real servers (imported from tests/mail,
not copied), and the ``browser`` marker (as ``tests/viewer`` declares it, so ``pytest
tests/play`` alone knows it too).

Tests that use a mail server carry the project's ``needs`` marker for Dovecot, those of
test_transport_git.py the one for git: skipped with the reason on a machine without the
program, run (and failed) in CI, where `.ci/run` installs both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.tools import needs

# The mail desk's fixtures, reused as they are (servers started on first use).
from mail.conftest import (  # noqa: F401 (pytest finds fixtures by name)
    SERVER_FIXTURES,
    dovecot,
    needs_dovecot,
    new_user,
    smtp_relay,
    smtp_relay_factory,
)

from arbiter.cli.main import run

HERE = Path(__file__).parent
needs_git = needs("git", "the git transport's tests use real repositories")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path))
        if HERE not in path.parents:
            continue
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(needs_dovecot)
        if path.name == "test_transport_git.py":
            item.add_marker(needs_git)


@pytest.fixture(autouse=True)
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The player's XDG folders inside the test's tmp_path (never the user's own)."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    return home


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "browser: drives headless Chromium (Debian's chromium and chromium-driver); runs "
        "by default where they are installed, and CI requires them",
    )


@dataclass
class Ran:
    code: int
    out: str
    err: str


Cli = Callable[..., Ran]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run ``arbiter ARGS...`` in this process; return its exit code, stdout and stderr."""

    def invoke(*args: Any) -> Ran:
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        code = info.value.code
        return Ran(0 if code is None else int(code), out, err)

    return invoke
