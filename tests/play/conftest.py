"""The player's desk tests: the ``browser`` marker (as ``tests/viewer`` declares it), so
``pytest tests/play`` alone knows it too."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "browser: drives headless Chromium (Debian's chromium and chromium-driver); runs "
        "by default where they are installed, and CI requires them",
    )
