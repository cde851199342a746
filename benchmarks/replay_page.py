"""Measure `arbiter html` (issue 14, item 6) and print the figures from one run.

    python benchmarks/replay_page.py [--repeat N] [--seed SEED]

- time: `arbiter html` on the longest example game (most chain entries), every viewer,
  against `arbiter verify` on the same folder, each a fresh process as a user runs them;
  the medians of N alternating runs, as a ratio. Budget: < 1.5×.
- size: the HTML file of a 5-player Mottainai game played by the random bots (a move
  file per turn, as players send them; and one decision per file, the longest chains),
  every viewer embedded, and the spectator's page alone. Budget: < 1 MB.

Nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# This file's folder comes first on sys.path, and its name would shadow the standard
# library's html module: put the project there instead.
sys.path[0] = str(ROOT)

MB = 1_000_000


def _run(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def longest_example() -> Path:
    games = [p for p in (ROOT / "examples").glob("*/game") if (p / "chain.jsonl").is_file()]
    return max(games, key=lambda p: len((p / "chain.jsonl").read_bytes().splitlines()))


def timing(repeat: int, work: Path) -> None:
    game = longest_example()
    entries = len((game / "chain.jsonl").read_bytes().splitlines())
    arbiter = [sys.executable, "-m", "arbiter"]
    page = work / "replay.html"
    verify_times, html_times = [], []
    _run([*arbiter, "--help"])  # warm the file cache
    for _ in range(repeat):
        verify_times.append(_run([*arbiter, "verify", str(game)]))
        html_times.append(_run([*arbiter, "html", str(game), "-o", str(page)]))
    v, h = statistics.median(verify_times), statistics.median(html_times)
    print(f"longest example: {game.relative_to(ROOT)} ({entries} entries)")
    print(f"  arbiter verify  {v * 1000:7.0f} ms (median of {repeat})")
    print(f"  arbiter html    {h * 1000:7.0f} ms ({page.stat().st_size:,} bytes)")
    print(f"  ratio html/verify: {h / v:.2f}x (budget < 1.5x)")


def sizes(seed: str, work: Path) -> None:
    from arbiter.bots.selfplay import play
    from arbiter.viewer.page import build

    for batch in (True, False):
        run = play(work / f"m5-{batch}", "mottainai", 5, seed, batch=batch)
        entries = len((run.game / "chain.jsonl").read_bytes().splitlines())
        start = time.perf_counter()
        every = build(run.game)
        took = time.perf_counter() - start
        seat = build(run.game, run.seats[0])
        how = "a move file per turn" if batch else "one decision per file"
        print(f"5-player Mottainai, {how}: {entries} entries, {run.decisions} decisions")
        print(
            f"  every viewer: {len(every.data):,} bytes ({len(every.data) / MB:.2f} MB, "
            f"budget < 1 MB), built in {took * 1000:.0f} ms"
        )
        print(f"  one seat:     {len(seat.data):,} bytes")
        if not batch:
            arbiter = [sys.executable, "-m", "arbiter"]
            v = _run([*arbiter, "verify", str(run.game)])
            h = _run([*arbiter, "html", str(run.game), "-o", str(work / "m5.html")])
            print(f"  arbiter html {h * 1000:.0f} ms / verify {v * 1000:.0f} ms: {h / v:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", default="bench-html")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        timing(args.repeat, Path(tmp))
        sizes(args.seed, Path(tmp))


if __name__ == "__main__":
    main()
