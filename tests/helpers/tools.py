"""Markers for tests that need an outside program (ssh-keygen...).

On a developer's machine without the program such a test is skipped with the reason.
In CI (``CI`` set, as `.ci/run` runs) it never is: `.ci/run` installs the program, and a
missing one must fail the run, not pass it silently.
"""

from __future__ import annotations

import os
import shutil

import pytest


def needs(program: str, why: str = "") -> pytest.MarkDecorator:
    """Skip outside CI when ``program`` is not on the PATH."""
    missing = shutil.which(program) is None and not os.environ.get("CI")
    reason = f"{program} is not installed{': ' + why if why else ''} (.ci/run installs it)"
    return pytest.mark.skipif(missing, reason=reason)
