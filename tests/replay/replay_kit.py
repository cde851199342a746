"""Constants shared by the replay tests (a test module never imports conftest)."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = ("mottainai", "motcoin", "momiji")
