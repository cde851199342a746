"""Shared test setup: make ``tests/`` importable and register the tally test game."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from arbiter.core.registry import register  # noqa: E402
from testgame import TallyEngine  # noqa: E402

register("tally", TallyEngine)
