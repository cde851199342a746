"""Measure the performance budgets of DESIGN.md and print them as ratios from one run.

    python benchmarks/run.py [--engine NAME] [--repeat N] [--replay-games N] [--chess-games N]
                             [--no-replay]

Ends with the whole budget table of DESIGN.md: each figure measured here beside its
budget, and the benchmark to run for the others (docs/performance.md says how).

- replay: decisions/s per engine (Mottainai, Mottainai + Wutai, Mot Coin, Momiji), each
  game verified in a fresh process, signatures excluded, cold (its first verify) and warm
  (verified again), beside python-chess's PGN replay of random games in the same run
  (benchmarks/replay_speed.py, which needs the ``bench`` extra). Budget: cold ≥ 1.0×
  python-chess's plies/s in every engine.
- submit: wall time of `arbiter submit GAME MOVE` (a fresh process, as a referee runs it)
  for a move near the end of a 2-player game (the engine's minimum seats), as a ratio to
  the dependency floor `python -c "import typer, pydantic, jsonschema, cryptography"`,
  each submit timed right after a floor run; the median of the per-pair ratios.
  Budget: ≤ 1.2×.
- verify: wall time of `arbiter verify GAME` (signatures checked) of a finished 2-player
  game as published (move files carrying whole turns, no ``referee/``), against the same
  floor, paired the same way. Budget: ≤ 1.3×.
- random playouts: full games per second with the random bot on one core, per second of
  the process's CPU time (a shared machine's other work slows the wall clock; the wall
  clock's figure is printed beside it). Budget: ≥ 300.
- memory: peak memory allocated during verify (tracemalloc) of a short game and of a
  game about 10× longer. Budget: no growth with length (long/short ≤ 1.1).

Mottainai is measured by default (DESIGN.md's budgets are stated for it); `--engine`
picks another for submit, verify and playouts. Memory against length uses the test-only
"tally" engine, whose game length is an option. Nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ARBITER_ENGINES", "tally=testgame:TallyEngine")
os.environ["PYTHONPATH"] = os.pathsep.join(
    filter(None, [str(ROOT / "tests"), str(ROOT), os.environ.get("PYTHONPATH")])
)
sys.path.insert(0, str(ROOT / "tests"))

import contextlib

from arbiter.bots.selfplay import play
from arbiter.core import registry
from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_move
from arbiter.core.referee import reveal
from arbiter.core.replay import verify

# A long game of the test-only engine (about 120 decisions with two seats).
LONG_TALLY = {"cards": "60", "hand": "1"}


# Measure as installed software runs: with compiled bytecode. (Some shells set
# PYTHONDONTWRITEBYTECODE, which would make every run recompile arbiter's sources while
# the dependencies, compiled by pip at install time, would not.)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _run(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - start


def paired(
    floor_argv: list[str], argv: list[str], repeat: int, prepare=None
) -> tuple[float, float, float]:
    """Time ``floor_argv`` and ``argv`` alternately ``repeat`` times (after one warm-up).

    Return the median of each and the median of the per-pair ratios: the machine's speed
    drifts by tens of percent over seconds, so each ratio compares runs made side by side.
    """
    floors, times, ratios = [], [], []
    for attempt in range(repeat + 1):
        if prepare is not None:
            prepare()
        floor, took = _run(floor_argv), _run(argv)
        if attempt == 0:
            continue  # the warm-up writes bytecode caches
        floors.append(floor)
        times.append(took)
        ratios.append(took / floor)
    return statistics.median(floors), statistics.median(times), statistics.median(ratios)


def near_end_move(work: Path, engine: str, seats: int, sealed: bool = False) -> tuple[Path, Path]:
    """Return a game one decision before its end and a signed move that would end it
    (``sealed``: a sealed game and a move file sealed to the referee, docs/sealing.md)."""
    from arbiter.bots import selfplay
    from arbiter.core.player import seal_move

    work.mkdir(parents=True, exist_ok=True)
    # One decision per file here, so the game can stop exactly one decision short.
    total = play(work / "full", engine, seats, "bench", batch=False, sealed=sealed).decisions

    class Stop(Exception):
        pass

    def stop_before_last(n: int) -> None:
        if n >= total - 1:
            raise Stop

    partial = work / "partial"
    # The same seed replays the same game; stop one decision short of the end.
    with contextlib.suppress(Stop):
        selfplay.play(
            partial, engine, seats, "bench", progress=stop_before_last, batch=False, sealed=sealed
        )
    game = GameDir(partial / "game")
    seat = load_state(game.public_state)["prompt"]["seat"]
    key = partial / "keys" / seat
    state = (
        load_state(game.sealed_state(seat), key) if sealed else load_state(game.seat_state(seat))
    )
    move = make_move(state, key, [state["legal"][0]])
    if sealed:
        path = work / "move.json.age"
        path.write_bytes(seal_move(move, game.manifest))
    else:
        path = work / "move.json"
        path.write_bytes(pretty(move))
    return partial / "game", path


FLOOR = "import typer, pydantic, jsonschema, cryptography"
"""The dependency floor: what any arbiter command must import before it can start."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=None)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--replay-games", type=int, default=4, help="games per engine (replay)")
    parser.add_argument("--chess-games", type=int, default=20, help="python-chess's games")
    parser.add_argument("--no-replay", action="store_true", help="skip the replay figures")
    args = parser.parse_args()
    engine = args.engine or next(
        (n for n in ("mottainai", "tally") if n in registry.names()), "tally"
    )
    info = registry.get(engine).info
    seats = info.min_seats
    python = sys.executable
    work = Path(tempfile.mkdtemp(prefix="arbiter-bench-"))
    summary: list[tuple[str, str, str]] = []  # (figure, measured, budget)
    try:
        print(
            f"engine {engine} {info.version}, {seats} seats; median of {args.repeat} runs; "
            f"python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} cores"
        )
        if not args.no_replay:
            summary += _replay(args.replay_games, args.chess_games)

        game, move = near_end_move(work, engine, seats)
        scratch = work / "scratch"

        def fresh() -> None:
            shutil.rmtree(scratch, ignore_errors=True)
            shutil.copytree(game, scratch)

        floor, submit, ratio = paired(
            [python, "-c", FLOOR],
            [python, "-m", "arbiter", "submit", str(scratch), str(move)],
            args.repeat,
            fresh,
        )
        entries = len((game / "chain.jsonl").read_bytes().splitlines())
        print(
            f"submit (entry #{entries} of a {seats}-player game): {submit * 1000:.0f} ms = "
            f"{ratio:.2f}× the dependency floor ({floor * 1000:.0f} ms; median of the ratios "
            "of side-by-side runs); budget ≤ 1.2×"
        )
        summary.append(("`arbiter submit` / import floor", f"{ratio:.2f}×", "≤ 1.2×"))

        # verify as a player runs it: a finished game as published (no referee/ folder),
        # signatures checked, its move files carrying whole turns as players send them
        # (the archive benchmark's games; near_end_move's carry one decision each).
        finished = play(work / "finished", engine, seats, "verify").game
        shutil.rmtree(finished / "referee")
        report = verify(finished)
        floor, verified, ratio = paired(
            [python, "-c", FLOOR],
            [python, "-m", "arbiter", "verify", str(finished)],
            args.repeat,
        )
        print(
            f"verify GAME (a finished {seats}-player game, {report.entries} chain entries, "
            f"{report.decisions} decisions, signatures checked): {verified * 1000:.0f} ms = "
            f"{ratio:.2f}× the dependency floor ({floor * 1000:.0f} ms); budget ≤ 1.3×"
        )
        summary.append(("`arbiter verify GAME` / import floor", f"{ratio:.2f}×", "≤ 1.3×"))

        # A sealed game seals every seat's files again after each entry (docs/sealing.md).
        sealed_game, sealed_move = near_end_move(work / "sealed", engine, seats, sealed=True)

        def fresh_sealed() -> None:
            shutil.rmtree(scratch, ignore_errors=True)
            shutil.copytree(sealed_game, scratch)

        floor, sealed_submit, sealed_ratio = paired(
            [python, "-c", FLOOR + ", pyrage"],
            [python, "-m", "arbiter", "submit", str(scratch), str(sealed_move)],
            args.repeat,
            fresh_sealed,
        )
        print(
            f"sealed submit (a sealed game near its end, the move sealed to the referee): "
            f"{sealed_submit * 1000:.0f} ms = {sealed_ratio:.2f}× the floor with pyrage "
            f"({floor * 1000:.0f} ms); {sealed_submit / submit:.2f}× the plain submit"
        )

        rate, per_cpu, decisions = _playouts(engine, seats, seconds=3.0)
        print(
            f"random playouts: {per_cpu:,.1f} full {seats}-player games per CPU second on one "
            f"core ({decisions:,.0f} decisions per CPU second, with check; wall clock: "
            f"{rate:,.1f} games/s); budget ≥ 300 games/s"
        )
        summary.append(("random playouts, games per CPU second", f"{per_cpu:,.0f}", "≥ 300"))

        # Memory against length: one long game of the test-only "tally" engine, and
        # the same game cut after about a tenth of its decisions and revealed early (--force),
        # so both replays carry the same deck and differ only in length.
        long = play(work / "long", "tally", 2, "long", options=LONG_TALLY)
        short_root = work / "short"
        stop_after = max(long.decisions // 11, 1)  # batches may overshoot: aim past 10×

        class Stop(Exception):
            pass

        def stop(n: int) -> None:
            if n >= stop_after:
                raise Stop

        with contextlib.suppress(Stop):
            play(short_root, "tally", 2, "long", options=LONG_TALLY, progress=stop)
        reveal(short_root / "game", force=True)
        short_report = verify(short_root / "game", signatures=False)
        peak_short, peak_long = _peak_verify(short_root / "game"), _peak_verify(long.game)
        print(
            f"verify peak memory (tally, same deck): {short_report.decisions} decisions "
            f"{peak_short / 1024:.0f} KiB, {long.decisions} decisions {peak_long / 1024:.0f} KiB: "
            f"ratio {peak_long / peak_short:.2f} for "
            f"{long.decisions / max(short_report.decisions, 1):.1f}× the length; "
            "budget: no growth (≤ 1.1)"
        )
        summary.append(
            ("verify peak memory, long / short game", f"{peak_long / peak_short:.2f}", "≤ 1.1")
        )
        print(
            f"verify peak memory ({engine}, {report.decisions} decisions): "
            f"{_peak_verify(finished) / 1024:.0f} KiB"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print("\n".join(budget_table(summary)))


ELSEWHERE = (
    (
        "archive verify, games/s per core (signatures)",
        "python benchmarks/archive.py",
        "≥ 100; speed-up ≥ 0.8 × cores",
    ),
    ("mail desk, 200-mail backlog", "python benchmarks/mail.py", "≥ 50 messages/s"),
    ("git desk / bare git round", "python benchmarks/git.py", "≤ 1.5×"),
    ("search bot, time per decision", "python benchmarks/bots.py", "≤ 1 s"),
    (
        "peer games: shuffle proof, crypto CPU, rounds",
        "(no benchmark yet)",
        "≤ 50 ms; ≤ 2 s; ≤ 0.3",
    ),
)
"""DESIGN.md's budgets that other benchmarks measure (they take minutes or services)."""


def budget_table(summary: list[tuple[str, str, str]]) -> list[str]:
    """DESIGN.md's budget table: the figures of this run, then where the others are."""
    rows = [*summary, *ELSEWHERE]
    width = max(len(row[0]) for row in rows)
    middle = max(len(row[1]) for row in rows)
    lines = [f"{'DESIGN.md budget':<{width}}  {'this run':<{middle}}  budget"]
    lines += [f"{name:<{width}}  {figure:<{middle}}  {budget}" for name, figure, budget in rows]
    return lines


def _replay(games: int, chess_games: int) -> list[tuple[str, str, str]]:
    """Print the replay figures beside python-chess's; return their rows of the table."""
    try:
        import chess  # noqa: F401
    except ImportError:
        print("replay: skipped, python-chess is missing (pip install -e '.[bench]')")
        return [("replay, cold, vs python-chess", "needs the bench extra", "≥ 1.0×")]
    import replay_speed

    rows = replay_speed.measure(list(replay_speed.SETUPS), games, chess_games, seconds=0.5)
    print("\n".join(replay_speed.table(rows, chess_games)))
    return [
        (
            f"replay {row.label}: cold ÷ chess, warm ÷ cold",
            f"{row.ratio_cold:.2f}×, {row.warm_over_cold:.2f}×",
            "≥ 1.0×, ≤ 1.2×",
        )
        for row in rows
    ]


def _playouts(engine: str, seats: int, seconds: float) -> tuple[float, float, float]:
    """Return (games/s, games per CPU second, decisions per CPU second) of random playouts
    run for about ``seconds``. CPU time is this process's own: other work on a shared
    machine slows the wall clock, much less the CPU time a game takes."""
    import hashlib

    from arbiter.bots.random_bot import playout

    impl = registry.get(engine)
    options = impl.parse_options({})
    names = ["alice", "bob", "carol", "dave", "erin"][:seats]
    games = decisions = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        _, steps = playout(impl, options, names, hashlib.sha256(b"bench%d" % games).digest())
        games += 1
        decisions += steps
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return games / elapsed, games / cpu, decisions / cpu


def _peak_verify(game: Path) -> int:
    verify(game, signatures=False)
    tracemalloc.start()
    verify(game, signatures=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


if __name__ == "__main__":
    main()
