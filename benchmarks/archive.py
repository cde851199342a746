"""Archive verify (issues 13 and 25): games verified per second, one core and all cores.

    python benchmarks/archive.py [--games 1000] [--sample 50] [--repeat 1] [--profile]

The archive: ``--games`` finished 2-player Mottainai games played by the demo's bots
through the real path (signed joins and moves, the referee, reveal), published folders
only (no ``referee/``). It is built once and cached under
``/tmp/arbiter-archive-bench/<engine>-<version>/`` (reused when present; a build of 1,000
games takes several minutes on two cores).

Figures, each the median of ``--repeat`` runs, wall time of a real ``arbiter`` process
(start-up included, signatures checked):

- one process: ``arbiter verify ARCHIVE -j 1``;
- all cores: ``arbiter verify ARCHIVE -j N``, N the cores (what ``arbiter verify ARCHIVE``
  uses without ``-j``: one worker per core);
- the baseline: one ``arbiter verify GAME`` process per game. It is timed on the first
  ``--sample`` games only and extrapolated to the whole archive (games/s of the sample).

Printed: games/s and games/s per core, each as a ratio to the baseline, and the speed-up
of all cores over one process, against the number of cores; then games per CPU second
(worker processes included), which other work on the machine does not skew, and the load
average before the runs (a busy machine lowers the all-core figures). Budget (DESIGN.md):
≥ 100 games/s per core with signatures, and a speed-up ≥ 0.8 × cores. Nothing is asserted.
``--profile`` adds where a verify spends its time (cProfile over the sample, in process).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "archive"))

from archive_kit import build

from arbiter.archive.pool import default_jobs
from arbiter.core import registry

CACHE = Path("/tmp/arbiter-archive-bench")
ENGINE = "mottainai"
BUDGET = 100  # games/s per core, with signatures (DESIGN.md)
GAME = "g[0-9][0-9][0-9][0-9]"  # archive_kit.name
# Measure as installed software runs: with compiled bytecode (benchmarks/run.py).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def archive(games: int) -> Path:
    """Return the cached archive of ``games`` games, playing the missing ones first."""
    folder = CACHE / f"{ENGINE}-{registry.get(ENGINE).info.version}"
    present = len(list(folder.glob(GAME))) if folder.is_dir() else 0
    if present < games:
        print(f"building the archive: {games - present} games to play into {folder} …", flush=True)
        start = time.perf_counter()
        build(folder, games, engine=ENGINE, seed="bench")
        print(f"  built in {time.perf_counter() - start:.0f} s", flush=True)
    return folder


CPU: list[float] = []
"""CPU seconds (user + system) of each timed run, its worker processes included."""


def timed(argv: list[str]) -> float:
    """Return the wall time of running ``argv``; note its CPU time in ``CPU``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    folder = archive(args.games)
    games = sorted(folder.glob(GAME))[: args.games]
    if len(games) < args.games:
        raise SystemExit(f"{folder} holds {len(games)} games, not {args.games}")
    target = folder if len(list(folder.glob(GAME))) == args.games else None
    cores = default_jobs()
    arbiter = [sys.executable, "-m", "arbiter", "verify"]
    paths = [str(target)] if target is not None else [str(game) for game in games]
    timed([*arbiter, str(games[0])])  # warm-up: bytecode caches
    print(
        f"{args.games} finished 2-player {ENGINE} games (signatures checked), {cores} cores; "
        f"median of {args.repeat}; python {sys.version.split()[0]}",
        flush=True,
    )
    load = os.getloadavg()[0]
    sample = games[: args.sample]
    walls, cpus = [], []
    for _ in range(args.repeat):
        start = len(CPU)
        walls.append(sum(timed([*arbiter, str(game)]) for game in sample) / len(sample))
        cpus.append(sum(CPU[start:]) / len(sample))
    per_game = statistics.median(walls)
    baseline = 1 / per_game
    # -j 1 and all cores alternate, and the speed-up is the median of each pair's ratio:
    # the machine's speed drifts (other work comes and goes) over a run of minutes.
    one_argv = [*arbiter, *paths, "-j", "1", "--json"]
    every_argv = [*arbiter, *paths, "-j", str(cores), "--json"]
    ones, everys, ratios, one_cpus, every_cpus = [], [], [], [], []
    for _ in range(args.repeat):
        ones.append(timed(one_argv))
        one_cpus.append(CPU[-1])
        everys.append(timed(every_argv))
        every_cpus.append(CPU[-1])
        ratios.append(ones[-1] / everys[-1])
    one = args.games / statistics.median(ones)
    every = args.games / statistics.median(everys)
    one_cpu = args.games / statistics.median(one_cpus)
    every_cpu = args.games / statistics.median(every_cpus)
    print(
        f"baseline, one `arbiter verify GAME` process per game: {baseline:6.1f} games/s "
        f"({per_game * 1000:.0f} ms a game, {statistics.median(cpus) * 1000:.0f} ms of CPU; "
        f"timed on {len(sample)} games and extrapolated)"
    )
    print(
        f"one process  (-j 1):      {one:6.1f} games/s          = {one / baseline:5.1f}× the baseline"
        f"   (budget ≥ {BUDGET} games/s per core: {one / BUDGET:.2f}×)"
    )
    print(
        f"all cores    (-j {cores}):      {every:6.1f} games/s, "
        f"{every / cores:5.1f} per core = {every / baseline:5.1f}× the baseline"
        f"   (budget ≥ {BUDGET} per core: {every / cores / BUDGET:.2f}×)"
    )
    speedup = statistics.median(ratios)
    print(
        f"speed-up all cores / one process (median of paired runs): {speedup:.2f} on {cores} cores = "
        f"{speedup / cores:.2f} × cores   (budget ≥ 0.8 × cores)"
    )
    print(
        f"CPU: {one_cpu:.1f} games per CPU second with -j 1, {every_cpu:.1f} with -j {cores} "
        f"(the pool's own cost: {one_cpu / every_cpu:.2f}×; budget ≥ {BUDGET} per core: "
        f"{one_cpu / BUDGET:.2f}× by CPU time with -j 1)"
    )
    print(
        f"load average before the runs: {load:.1f} on {cores} cores"
        + (" — other work competed for the cores: all-core figures are low" if load > 0.5 else "")
    )
    if args.profile:
        profile(sample)


def profile(sample: list[Path]) -> None:
    """Print where an in-process verify of the sample spends its time."""
    import cProfile
    import pstats

    from arbiter.core.replay import verify

    verify(sample[0])  # imports and caches outside the profile
    profiler = cProfile.Profile()
    profiler.enable()
    for game in sample:
        verify(game)
    profiler.disable()
    print(f"\nwhere verify spends its time ({len(sample)} games, in process):")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main()
