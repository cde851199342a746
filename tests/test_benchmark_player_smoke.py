"""A tiny run of benchmarks/player_routine.py (two decisions at a kitchen-table desk), so
the player's-routine benchmark cannot rot as ``arbiter play`` and the player's commands
change: both routines must still play the same game through real processes and print
the table docs/player-guide.md quotes. Times are never asserted here; the mail and git
rows need a Dovecot and take longer (run the benchmark itself for them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "player_routine.py"


def test_the_player_routine_benchmark_prints_its_table(tmp_path: Path) -> None:
    out = tmp_path / "player-routine.json"
    run = subprocess.run(
        [sys.executable, str(BENCH), "--transports", "desk", "--decisions", "2", "--table",
         "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("| desk |")]
    assert len(rows) == 1 and "| 4 → 1 |" in rows[0], run.stdout
    assert "| transport | commands per decision" in run.stdout
    results = json.loads(out.read_text())
    assert results["machine"]["nproc"] >= 1 and results["machine"]["python"]
    desk = results["transports"]["desk"]
    for routine, commands in (("today", 4), ("play", 1)):
        summary = desk[routine]["summary"]
        assert summary["decisions"] == 2
        assert summary["commands_per_decision"] == [commands]
        assert summary["player_median"] > 0
