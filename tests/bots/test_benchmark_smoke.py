"""A tiny run of benchmarks/bots.py so the strength benchmark cannot rot."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bots.py"


def test_the_strength_benchmark_runs_resumes_and_tabulates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    results = tmp_path / "bots.jsonl"
    args = ["--games", "2", "--engines", "tally,momiji", "--pairs", "greedy:random,search:greedy"]
    args += ["--budget", "2", "--results", str(results)]
    assert bench.main(args) == 0
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(rows) == 8 and {r["strong_seat"] for r in rows} == {"p1", "p2"}
    assert bench.main(args) == 0  # resumed: nothing new to play
    assert len(results.read_text().splitlines()) == 8
    table = capsys.readouterr().out
    assert "| tally | search : greedy | 1 vs 1 | 2 |" in table
    assert "ahead of each weaker" in table
    low, high = bench.wilson(180, 200)
    assert 0.85 < low < 0.9 < high < 0.94


def test_the_strength_benchmark_plays_in_worker_processes(tmp_path: Path) -> None:
    """``-j 2``: games run in two worker processes, each row written once, same results as
    one process (a game is a function of its engine, pair and index)."""
    import subprocess
    import sys

    args = ["--games", "3", "--engines", "momiji", "--pairs", "greedy:random", "--budget", "2"]
    rows = {}
    for jobs in ("1", "2"):
        results = tmp_path / f"j{jobs}.jsonl"
        run = subprocess.run(
            [sys.executable, str(BENCH), *args, "--results", str(results), "-j", jobs],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
        lines = [json.loads(line) for line in results.read_text().splitlines()]
        rows[jobs] = sorted(
            (r["game"], r["strong_seat"], r["winners"], sorted(r["scores"].items())) for r in lines
        )
    assert len(rows["2"]) == 3 and rows["1"] == rows["2"]


def test_a_game_that_does_not_end_is_recorded_as_unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bots that stall (docs/bots.md) must not stop the run: the game is recorded, counts
    as one the stronger level did not win, and the table says how many did not end."""
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    results = tmp_path / "bots.jsonl"
    args = ["--games", "1", "--engines", "momiji", "--pairs", "greedy:random", "--max-files", "3"]
    assert bench.main([*args, "--results", str(results)]) == 0
    (row,) = [json.loads(line) for line in results.read_text().splitlines()]
    assert row["unfinished"] == 3 and row["credit"] == 0.0 and row["winners"] == []
    assert "| momiji | greedy : random | 1 vs 1 | 1 (1 unfinished) | 0 | 0% |" in capsys.readouterr().out


def test_a_trial_changes_the_search_settings_it_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--search width=2,arms=3``: the engine's playout width and the searched decisions."""
    from arbiter.bots import search

    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setattr(search, "TUNING", dict(search.TUNING))
    monkeypatch.setattr(search, "ARMS", search.ARMS)
    bench.tune_search("motcoin", "width=2,arms=3")
    assert search.TUNING["motcoin"].width == 2 and search.ARMS == 3
    assert search.TUNING["motcoin"].budget == search.BUDGET_MOTCOIN  # untouched
    with pytest.raises(SystemExit, match="unknown setting 'deep'"):
        bench.tune_search("motcoin", "deep=3")
