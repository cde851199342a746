"""Replay speed per engine beside python-chess's PGN replay, measured in one run (issue 25).

    python benchmarks/replay_speed.py [--games 4] [--chess-games 20] [--engines LIST]
                                      [--seconds 0.5] [--profile]

What a user meets: ``arbiter verify GAME`` replays a game *for the first time* in a fresh
process, so nothing a process remembers (validated decisions, compiled validators, engine
tables) helps it. Each game is therefore verified in a fresh worker process, signatures
excluded (``arbiter.core.replay.verify(game, signatures=False)``):

- cold: the first verify of the game in that process, its engine already loaded (loading
  the engine is start-up, which ``benchmarks/run.py`` measures as a whole process); the
  figure with loading the engine is printed beside it;
- warm: the same game verified again in the same process, repeated for ``--seconds``,
  the best round (noise only slows a round down).

The reference, in the same run: python-chess reading random games from PGN
(``chess.pgn.read_game``, which parses every SAN move against the position, so each move's
legality is checked; a game with an error is refused), pushing every move onto a board to
reach the final position, and checking the recorded result against that position's
outcome — what a verifier of a chess record does. ``--chess-games`` random legal games
(moves chosen by a seeded ``random.Random``) are written as PGN once; a fresh worker
process replays all of them once (cold) and then again for ``--seconds`` (warm).

Every figure is per second of the worker's own CPU time (``time.process_time``: user +
system), which other work on a shared machine disturbs much less than the wall clock; both
sides are single-threaded and read files already in the page cache. Each arbiter worker is
paired with a chess worker run right after it; a ratio is the median of the per-pair
ratios (arbiter decisions/s ÷ chess plies/s), so what drift remains cancels. Budget (DESIGN.md): decisions/s cold ≥ python-chess's plies/s,
i.e. a ratio ≥ 1.0, in every engine. Nothing is asserted.

Games are played once by the demo's bots through the real path (keys, signed joins and
moves, the referee, reveal) and cached, with the PGN file, under
``/tmp/arbiter-replay-bench/`` (a Mot Coin game takes most of a minute to play).
Needs the ``bench`` extra: ``pip install -e '.[bench]'`` (python-chess). ``--profile``
prints instead where one game's cold verify spends its time, per engine (cProfile).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path("/tmp/arbiter-replay-bench")
# Measure as installed software runs: with compiled bytecode (benchmarks/run.py).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
# Each worker times itself in its own CPU time (user + system): on a shared machine other
# work stretches the wall clock of a run by tens of percent, its CPU time much less.
CLOCK = time.process_time
ENV["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))


@dataclass(frozen=True)
class Setup:
    """One engine as the benchmark plays it: the fewest seats it allows."""

    key: str
    label: str
    engine: str
    seats: int
    options: tuple[tuple[str, str], ...] = ()


SETUPS = (
    Setup("mottainai", "Mottainai", "mottainai", 2),
    Setup("wutai", "Mottainai + Wutai", "mottainai", 2, (("wutai", "yes"),)),
    Setup("motcoin", "Mot Coin", "motcoin", 3),
    Setup("momiji", "Momiji", "momiji", 2),
)


# -- the workers: each runs in a fresh process and prints one JSON line ----------------


def _worker_arbiter(game: str, seconds: float, profile: bool = False) -> dict:
    import json as json_

    from arbiter.core import registry
    from arbiter.core.replay import verify

    name = json_.loads((Path(game) / "game.json").read_text())["engine"]["name"]
    start = CLOCK()
    registry.get(name)
    loaded = CLOCK()
    if profile:
        return _profile_cold(Path(game))
    report = verify(Path(game), signatures=False)
    cold = CLOCK()
    warm = []
    while len(warm) < 3 or sum(warm) < seconds:
        begin = CLOCK()
        verify(Path(game), signatures=False)
        warm.append(CLOCK() - begin)
    return {
        "units": report.decisions,
        "load": loaded - start,
        "cold": cold - loaded,
        "warm": min(warm),
    }


def _profile_cold(game: Path) -> dict:
    """Print where a game's first verify spends its time (cProfile, stderr)."""
    import cProfile
    import pstats

    from arbiter.core.replay import verify

    profiler = cProfile.Profile()
    profiler.enable()
    verify(game, signatures=False)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stderr)
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(25)
    return {}


def _chess_round(text: str) -> int:
    """Read every game of ``text`` and replay it as a verifier would; return the plies."""
    import io

    import chess.pgn

    plies = 0
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise SystemExit(f"python-chess refused a game: {game.errors[0]}")
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
        outcome = board.outcome()
        if (outcome.result() if outcome else "*") != game.headers["Result"]:
            raise SystemExit("python-chess: a game's result does not match its final position")
        plies += board.ply()
    return plies


def _worker_chess(pgn: str, seconds: float) -> dict:
    import logging

    import chess.pgn  # noqa: F401  (imported before the clock starts, as arbiter's engine is)

    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # errors are read from .errors
    text = Path(pgn).read_text()
    start = CLOCK()
    plies = _chess_round(text)
    cold = CLOCK() - start
    warm = []
    while len(warm) < 3 or sum(warm) < seconds:
        begin = CLOCK()
        _chess_round(text)
        warm.append(CLOCK() - begin)
    return {"units": plies, "load": 0.0, "cold": cold, "warm": min(warm)}


def _worker(kind: str, path: Path, seconds: float) -> dict:
    argv = [sys.executable, __file__, "--worker", kind, str(path), "--seconds", str(seconds)]
    done = subprocess.run(argv, env=ENV, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout.splitlines()[-1])


# -- the inputs, built once and cached ---------------------------------------------------


def _play(task: tuple[str, str, int, dict[str, str], str, str]) -> str:
    from arbiter.bots.selfplay import play

    os.fsync = lambda fd: None  # throwaway fixtures (tests/archive/archive_kit.py)
    dest, engine, seats, options, seed, scratch = task
    root = Path(tempfile.mkdtemp(dir=scratch))
    run = play(root, engine, seats, seed, options=options)
    shutil.rmtree(run.game / "referee")  # what a referee publishes
    shutil.rmtree(dest + ".part", ignore_errors=True)
    shutil.move(run.game, dest + ".part")
    os.replace(dest + ".part", dest)  # whole games only, even after an interrupted build
    shutil.rmtree(root)
    return dest


def games(setups: list[Setup], count: int) -> dict[str, list[Path]]:
    """Return ``count`` finished games of each setup, playing the missing ones first."""
    sys.path.insert(0, str(ROOT))
    from arbiter.core import registry

    folders: dict[str, list[Path]] = {}
    tasks = []
    for setup in setups:
        version = registry.get(setup.engine).info.version
        folder = CACHE / f"{setup.key}-{version}"
        folders[setup.key] = [folder / f"g{i:03d}" for i in range(count)]
        for i, game in enumerate(folders[setup.key]):
            if not game.is_dir():
                folder.mkdir(parents=True, exist_ok=True)
                options = dict(setup.options)
                tasks.append((str(game), setup.engine, setup.seats, options, f"replay-{i}"))
    if tasks:
        print(f"playing {len(tasks)} games into {CACHE} …", flush=True)
        start = time.perf_counter()
        shm = Path("/dev/shm")
        where = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
        scratch = tempfile.mkdtemp(prefix="arbiter-replay-build-", dir=where)
        try:
            with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                list(pool.map(_play, [(*task, scratch) for task in tasks]))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        print(f"  played in {time.perf_counter() - start:.0f} s", flush=True)
    return folders


def chess_games(count: int, seed: str = "bench") -> Path:
    """Return a PGN file of ``count`` random legal games, writing it first if missing."""
    import random

    import chess
    import chess.pgn

    path = CACHE / f"chess-{chess.__version__}-{count}-{seed}.pgn"
    if path.is_file():
        return path
    rng = random.Random(seed)
    texts = []
    for index in range(count):
        board = chess.Board()
        while not board.is_game_over():  # mate, stalemate, 75 moves, fivefold, material
            board.push(rng.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"random game {index} ({seed})"
        texts.append(str(game))
    CACHE.mkdir(parents=True, exist_ok=True)
    path.with_suffix(".part").write_text("\n\n".join(texts) + "\n")
    os.replace(path.with_suffix(".part"), path)
    return path


# -- the run -----------------------------------------------------------------------------


@dataclass
class Row:
    """One engine's figures: arbiter's rates, chess's rates in the paired runs, ratios."""

    label: str
    games: int
    decisions: int
    cold: float  # decisions/s, engine loaded beforehand
    cold_with_load: float
    warm: float
    chess_cold: float  # plies/s
    chess_warm: float
    ratio_cold: float  # median of the per-pair ratios
    ratio_warm: float
    warm_over_cold: float  # median over games of warm decisions/s ÷ cold, in one process


def _rate(runs: list[dict], key: str, with_load: bool = False) -> float:
    units = sum(run["units"] for run in runs)
    return units / sum(run[key] + (run["load"] if with_load else 0.0) for run in runs)


def _paired_ratio(ours: list[dict], theirs: list[dict], key: str) -> float:
    """The median over pairs of (arbiter decisions/s) / (chess plies/s)."""
    return statistics.median(
        (a["units"] / a[key]) / (c["units"] / c[key]) for a, c in zip(ours, theirs, strict=True)
    )


def measure(setups: list[Setup], count: int, chess_count: int, seconds: float) -> list[Row]:
    """Pair each game's fresh arbiter worker with a fresh chess worker; return a row per setup."""
    folders = games(setups, count)
    pgn = chess_games(chess_count)
    _worker("chess", pgn, 0.0)  # warm-up: bytecode caches
    _worker("arbiter", folders[setups[0].key][0], 0.0)
    rows = []
    for setup in setups:
        ours, theirs = [], []
        for game in folders[setup.key]:
            ours.append(_worker("arbiter", game, seconds))
            theirs.append(_worker("chess", pgn, seconds))

        rows.append(
            Row(
                setup.label,
                len(ours),
                sum(run["units"] for run in ours),
                _rate(ours, "cold"),
                _rate(ours, "cold", with_load=True),
                _rate(ours, "warm"),
                _rate(theirs, "cold"),
                _rate(theirs, "warm"),
                _paired_ratio(ours, theirs, "cold"),
                _paired_ratio(ours, theirs, "warm"),
                statistics.median(run["cold"] / run["warm"] for run in ours),
            )
        )
    return rows


def table(rows: list[Row], chess_count: int) -> list[str]:
    """The figures as printed lines (benchmarks/run.py prints them too)."""
    lines = [
        f"replay, signatures excluded, each game in a fresh process, per CPU second; "
        f"python-chess: {chess_count} random games read from PGN and replayed, paired run by run",
        f"  {'engine':<18} {'games':>5} {'decisions':>9}  {'cold /s':>8} "
        f"{'(+ load)':>8} {'warm /s':>8}  {'chess cold':>10} {'chess warm':>10}  "
        f"{'cold ×':>6} {'warm ×':>6}  {'warm÷cold':>9}",
    ]
    for row in rows:
        lines.append(
            f"  {row.label:<18} {row.games:>5} {row.decisions:>9}  {row.cold:>8,.0f} "
            f"{row.cold_with_load:>8,.0f} {row.warm:>8,.0f}  {row.chess_cold:>10,.0f} "
            f"{row.chess_warm:>10,.0f}  {row.ratio_cold:>6.2f} {row.ratio_warm:>6.2f}  "
            f"{row.warm_over_cold:>9.2f}"
        )
    lines.append(
        "  (× = arbiter decisions/s ÷ chess plies/s, median of per-pair ratios; "
        "budget: cold ≥ 1.0 in every engine; warm÷cold, the same game verified again in "
        "one process: ≤ 1.2, issue 25)"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per engine (default 4)")
    parser.add_argument("--chess-games", type=int, default=20)
    parser.add_argument(
        "--engines",
        default=",".join(setup.key for setup in SETUPS),
        help="comma-separated, of: " + ", ".join(setup.key for setup in SETUPS),
    )
    parser.add_argument(
        "--seconds", type=float, default=0.5, help="warm rounds per worker (default 0.5 s)"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="print cProfile of the first game's cold verify in each engine, then stop",
    )
    parser.add_argument("--worker", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        kind, path = args.worker
        if kind == "profile":
            _worker_arbiter(path, 0.0, profile=True)
            return
        work = _worker_arbiter if kind == "arbiter" else _worker_chess
        print(json.dumps(work(path, args.seconds)))
        return
    wanted = args.engines.split(",")
    unknown = set(wanted) - {setup.key for setup in SETUPS}
    if unknown:
        raise SystemExit(f"--engines: unknown {', '.join(sorted(unknown))}")
    setups = [setup for setup in SETUPS if setup.key in wanted]
    print(f"python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.1f}", flush=True)
    if args.profile:
        for setup, folder in games(setups, 1).items():
            print(f"\n== {setup}: where a first verify spends its time (cProfile)", flush=True)
            argv = [sys.executable, __file__, "--worker", "profile", str(folder[0])]
            subprocess.run(argv, env=ENV, stdout=sys.stderr, check=True)
        return
    rows = measure(setups, args.games, args.chess_games, args.seconds)
    print("\n".join(table(rows, args.chess_games)))


if __name__ == "__main__":
    main()
