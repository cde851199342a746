"""Shared test setup: make ``tests/`` importable and register the tally test game."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from testgame import TallyEngine

from arbiter.core.registry import register

register("tally", TallyEngine)
