"""Fixtures of the player's desk tests: an in-process ``arbiter`` (exit code, out, err);
and the ``browser`` marker (as ``tests/viewer`` declares it), so ``pytest tests/play``
alone knows it too."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from arbiter.cli.main import run


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
    """Run ``arbiter ARGS...`` in this process."""

    def invoke(*args: Any) -> Ran:
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        code = info.value.code
        return Ran(0 if code is None else int(code), out, err)

    return invoke
