"""A tiny run of benchmarks/standing_orders.py (one short 3-player Mottainai game each
way), so the benchmark docs/standing-orders.md quotes cannot rot: it must still play,
send and fire standing orders, reveal, verify and print its table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "standing_orders.py"


def test_the_standing_orders_benchmark_prints_its_table() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--games", "1", "--level", "greedy", "--max-files", "12"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "| game | turns (without) |" in run.stdout
    row = next(line for line in run.stdout.splitlines() if line.startswith("| 0 |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert int(cells[7]) >= 1 and int(cells[8]) >= 1  # orders sent, steps fired
    assert "Round trips per game:" in run.stdout
