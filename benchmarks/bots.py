"""Bot strength: win rates with 95% Wilson intervals, and the search bot's time per decision.

    python benchmarks/bots.py [--games N] [--from K] [--pairs greedy:random,search:greedy]
                              [--engines mottainai,motcoin,momiji] [--budget B]
                              [--results FILE] [--table] [-j N] [--max-files N]
                              [--search width=10,budget=128,arms=4,depth=30]

Each game seats one bot of the stronger level against bots of the weaker one (2 seats;
Mot Coin needs 3: one stronger against two weaker), the stronger seat rotating through
every position. A game counts 1 when the stronger bot wins alone, 1/k when it shares
the win with k seats. Results are appended to a JSON lines file (default
benchmarks/results/bots.jsonl) one game per line, and games already there are skipped:
the run can be stopped and resumed (``--from K`` starts at game K, to split a run between
processes). ``--table`` prints the table from the file only.
``-j N`` plays N games at once in worker processes (one per core at most: the thinking
time per decision is measured in each game's own process).
Search time is the stronger seat's thinking time per call of the bot (one batch).
A game still going after ``--max-files`` move files (default 1000) is recorded as
unfinished: a game the stronger level did not win, nor finished ahead in; the table
counts them beside the games. ``--search`` changes the search bot for a trial (write its
rows to their own ``--results`` file: the table does not tell settings apart).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbiter.bots.match import NoEnd, play
from arbiter.core import registry

SEATS = {"motcoin": 3}
MAX_FILES = 1000
"""A game still going after this many move files is recorded as unfinished (the longest
finished game of every engine and pair so far took under 310 files)."""
RESULTS = Path(__file__).resolve().parent / "results" / "bots.jsonl"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def load(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def tune_search(engine_name: str, settings: str) -> None:
    """Change the search bot for a trial: ``width=10,budget=128`` (the engine's
    ``search.TUNING`` fields), ``arms=4``, ``depth=30`` (the module's, every engine)."""
    from arbiter.bots import search

    fields = {}
    for item in filter(None, settings.split(",")):
        key, _, value = item.partition("=")
        if key in ("arms", "depth"):
            setattr(search, key.upper(), int(value))
        elif key in ("width", "budget"):
            fields[key] = int(value)
        elif key == "scale":
            fields[key] = float(value)
        else:
            raise SystemExit(f"--search: unknown setting {key!r} (width, budget, scale, arms, depth)")
    search.TUNING[engine_name] = dataclasses.replace(search.tuning(registry.get(engine_name)), **fields)


def run_game(
    engine_name: str,
    strong: str,
    weak: str,
    index: int,
    budget: int | None,
    max_files: int = MAX_FILES,
    settings: str = "",
) -> dict:
    if settings:
        tune_search(engine_name, settings)
    engine = registry.get(engine_name)
    count = SEATS.get(engine_name, 2)
    seats = [f"p{i + 1}" for i in range(count)]
    seat = seats[index % count]
    levels = {s: (strong if s == seat else weak) for s in seats}
    seed = hashlib.sha256(f"arbiter-bench-bots/1:{engine_name}:{strong}:{weak}:{index}".encode()).digest()
    row: dict = {
        "engine": engine_name,
        "pair": f"{strong}:{weak}",
        "game": index,
        "budget": budget,
        "seats": count,
        "strong_seat": seat,
    }
    if settings:
        row["search"] = settings
    started = time.perf_counter()
    try:
        match = play(
            engine, engine.parse_options({}), levels, seed, budget, clock=time.perf_counter,
            max_files=max_files,
        )
    except NoEnd as stalled:
        # Counted as a game the stronger level did not win, and shown in the table.
        row.update(unfinished=stalled.files, winners=[], scores={}, credit=0.0)
        row.update(strong_seconds=0.0, strong_calls=0)
    else:
        winners = match.outcome.winners
        row.update(winners=winners, scores=match.outcome.scores)
        row["credit"] = (1 / len(winners)) if seat in winners else 0.0
        row.update(strong_seconds=round(match.seconds[seat], 4), strong_calls=match.calls[seat])
    row["seconds"] = round(time.perf_counter() - started, 3)
    return row


def _play_all(todo: list[tuple], jobs: int) -> Iterator[dict]:
    """Yield each game's row as it ends (in worker processes when ``jobs`` > 1)."""
    if jobs <= 1:
        yield from (run_game(*task) for task in todo)
        return
    with ProcessPoolExecutor(jobs) as pool:
        for future in as_completed([pool.submit(run_game, *task) for task in todo]):
            yield future.result()


def _ahead(game: dict) -> float:
    """Return the share of weaker seats the stronger one outscored (a tie counts ½):
    with three seats, where one stronger bot against two weaker ones wins about a third
    of the games when it is no better, this is the pairwise rate (½ when no better)."""
    if game.get("unfinished"):
        return 0.0
    scores, seat = game["scores"], game["strong_seat"]
    others = [s for s in scores if s != seat]
    return sum(
        1.0 if scores[seat] > scores[o] else 0.5 if scores[seat] == scores[o] else 0.0
        for o in others
    ) / len(others)


def table(rows: list[dict]) -> list[str]:
    """Return the Markdown table of the results."""
    out = [
        "| engine | stronger : weaker | seats | games | stronger wins | rate | 95% interval "
        "| ahead of each weaker | stronger's s/decision |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["engine"], row["pair"]), []).append(row)
    for (engine, pair), games in sorted(groups.items()):
        n = len(games)
        wins = sum(g["credit"] for g in games)
        low, high = wilson(wins, n)
        calls = sum(g["strong_calls"] for g in games)
        per = sum(g["strong_seconds"] for g in games) / max(calls, 1)
        seats = games[0]["seats"]
        shape = f"1 vs {seats - 1}"
        ahead = sum(_ahead(g) for g in games)
        # Per game, not per pair: the two comparisons of one game are not independent.
        a_low, a_high = wilson(ahead, n)
        stalled = sum(1 for g in games if g.get("unfinished"))
        count = f"{n} ({stalled} unfinished)" if stalled else f"{n}"
        out.append(
            f"| {engine} | {pair.replace(':', ' : ')} | {shape} | {count} | {wins:g} | "
            f"{wins / n:.0%} | {low:.0%}–{high:.0%} | {ahead / n:.0%} ({a_low:.0%}–{a_high:.0%}) "
            f"| {per:.3f} |"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--from", dest="first", type=int, default=0, help="first game index")
    parser.add_argument("--pairs", default="greedy:random,search:greedy")
    parser.add_argument("--engines", default="mottainai,motcoin,momiji")
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--table", action="store_true")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--max-files", type=int, default=MAX_FILES, help="unfinished after this")
    parser.add_argument(
        "--search", default="", help="a trial's search settings, e.g. width=10,budget=128,arms=4"
    )
    args = parser.parse_args(argv)
    done = load(args.results)
    if not args.table:
        have = {(r["engine"], r["pair"], r["game"]) for r in done}
        args.results.parent.mkdir(parents=True, exist_ok=True)
        # Round-robin over engines and pairs, so a stopped run has a bit of each.
        todo = [
            (engine, *pair.split(":"), index, args.budget, args.max_files, args.search)
            for index in range(args.first, args.games)
            for pair in args.pairs.split(",")
            for engine in args.engines.split(",")
            if (engine, pair, index) not in have
        ]
        for row in _play_all(todo, args.jobs):
            with args.results.open("a") as f:
                f.write(json.dumps(row, sort_keys=True) + "\n")
            done.append(row)
    print("\n".join(table(done)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
