"""A tiny run of benchmarks/replay_speed.py's arbiter worker, so the replay benchmark
cannot rot as arbiter changes: it must keep verifying a game through public entry points
only, in a fresh process, and report what it replayed. Speed is never asserted here (the
python-chess half needs the bench extra, which the tests do not install)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.core.replay import verify

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "replay_speed.py"
GAMES = sorted(p for p in (ROOT / "examples").glob("*/game") if (p / "chain.jsonl").is_file())


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.parent.name)
def test_the_replay_worker_verifies_a_game_cold_then_warm(game: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--worker", "arbiter", str(game), "--seconds", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout.splitlines()[-1])
    assert figures["units"] == verify(game, signatures=False).decisions > 0
    assert figures["cold"] > 0 and figures["warm"] > 0 and figures["load"] >= 0
