"""Mail round trips per turn in 3-player Mottainai bot games, with and without standing orders.

    python benchmarks/standing_orders.py [--games N] [--seed S] [--level greedy|random|search]
                                         [--max-files N] [--no-verify]

Drives the referee core directly (``arbiter.core.referee.submit``), as the mail desk does
for each mail: a **round trip** is a time the game waits for a seat that must answer by
mail (the referee → seat → referee cycle): one per move file a bot sends. An order step
the referee applies itself (``order-step`` entries) is no round trip: the next seat's state
comes out of the same operation. Orders files are counted apart: a seat sends them while
another seat decides, so the game never waits for them (docs/standing-orders.md).

Each game is played twice from the same seed: once without orders, once with the bots
sending the obvious ones (``arbiter.bots.orders``): when another seat's turn begins, each
bot not deciding predicts the others' decisions up to its turn in its own determinised
worlds and orders, conditioned on the tasks they choose, the batch it would decide for
that case (a new orders file replaces the pending one only when it differs). Every game is revealed and verified afterwards (``--no-verify`` skips it).
Prints the table of docs/standing-orders.md; figures vary with the machine only in time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbiter.bots.levels import decide
from arbiter.bots.orders import standing_orders
from arbiter.core import registry
from arbiter.core.canonical import pretty
from arbiter.core.orders import make_orders
from arbiter.core.player import load_state, make_join, make_move
from arbiter.core.referee import new_game, reveal, submit
from arbiter.core.replay import verify
from arbiter.core.rng import Rng
from arbiter.core.signing import keygen

SEATS = ["alice", "bob", "carol"]
MAX_FILES = 2000


@dataclass
class Played:
    """One game's counts."""

    turns: int = 0
    round_trips: int = 0
    orders_sent: int = 0
    steps_fired: int = 0
    entries: int = 0
    status: str = ""
    seconds: float = 0.0

    @property
    def per_turn(self) -> float:
        return self.round_trips / self.turns if self.turns else 0.0


def _decided(game: Path, seat: str) -> int:
    """How many times ``seat`` has decided so far (its moves and its orders' steps)."""
    chain = [json.loads(line) for line in (game / "chain.jsonl").read_text().splitlines()]
    return sum(1 for e in chain if e["seat"] == seat and e["kind"] in ("move", "order-step"))


def _derive(seed: str, label: str) -> bytes:
    return hashlib.sha256(f"arbiter-bench-orders/1\x00{seed}\x00{label}".encode()).digest()


def play(
    root: Path, seed: str, level: str, orders: bool, check: bool, max_files: int = MAX_FILES
) -> Played:
    """Play one 3-player Mottainai game of bots; count its round trips."""
    started = time.perf_counter()
    engine = registry.get("mottainai")
    keys = root / "keys"
    for seat in SEATS:
        keygen(seat, keys, seed=_derive(seed, f"key:{seat}"))
    game = root / "game"
    new_game(
        game,
        "mottainai",
        [(seat, str(keys / f"{seat}.pub")) for seat in SEATS],
        {},
        created="2026-12-01T00:00:00Z",
        secret=_derive(seed, "secret"),
        game_id="bench-orders",
        referee_seed=_derive(seed, "referee"),
    )
    for seat in SEATS:
        submit(game, pretty(make_join(game / "game.json", seat, keys / seat)), "join")
    played = Played()
    files = 0
    while files < max_files:
        public = load_state(game / "public" / "state.json")
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seat"]
        state = load_state(game / "players" / seat / "state.json")
        # The bot's stream follows the seat's own decisions so far, not the chain head: an
        # orders entry then changes nothing the bots choose, and the two runs of a game
        # part only where a step fired.
        actions = decide(engine, state, level, Rng(_derive(seed, f"bot:{seat}:{_decided(game, seat)}")))
        submit(game, pretty(make_move(state, keys / seat, actions)), "move")
        played.round_trips += 1
        files += 1
        if not orders:
            continue
        now = load_state(game / "public" / "state.json")
        turn_began = now["status"] == "playing" and now["prompt"]["seat"] != seat
        for other in SEATS:
            view = load_state(game / "players" / other / "state.json")
            if view["status"] != "playing" or view["prompt"]["seat"] == other:
                continue
            pending = view.get("orders")
            if pending is not None and not turn_began:
                continue  # orders are made (or made again) when another seat's turn begins
            rng = Rng(_derive(seed, f"orders:{other}:{_decided(game, other)}:{view['seq']}"))
            steps = standing_orders(engine, view, rng, level)
            if steps and (pending is None or pending["steps"] != steps):
                submit(game, pretty(make_orders(view, keys / other, steps)), "orders")
                played.orders_sent += 1
                files += 1
    chain = [json.loads(line) for line in (game / "chain.jsonl").read_text().splitlines()]
    deciding = [e["seat"] for e in chain if e["kind"] in ("move", "order-step", "timeout")]
    played.turns = 1 + sum(a != b for a, b in pairwise(deciding)) if deciding else 0
    played.steps_fired = sum(e["kind"] == "order-step" for e in chain)
    played.entries = len(chain)
    played.status = load_state(game / "public" / "state.json")["status"]
    if check:
        reveal(game, force=played.status != "over")
        verify(game)
    played.seconds = time.perf_counter() - started
    return played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", default="orders")
    parser.add_argument("--level", default="greedy", choices=["random", "greedy", "search"])
    parser.add_argument("--no-verify", action="store_true")
    parser.add_argument(
        "--max-files", type=int, default=MAX_FILES, help="stop a game after this many files"
    )
    args = parser.parse_args(argv)
    rows: list[tuple[int, Played, Played]] = []
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(args.games):
            seed = f"{args.seed}-{index}"
            runs = []
            for orders in (False, True):
                root = Path(scratch) / f"{index}-{int(orders)}"
                runs.append(play(root, seed, args.level, orders, not args.no_verify, args.max_files))
            rows.append((index, runs[0], runs[1]))
            print(
                f"game {index}: without {runs[0].round_trips} round trips / {runs[0].turns} "
                f"turns; with {runs[1].round_trips} / {runs[1].turns} "
                f"({runs[1].steps_fired} steps fired of {runs[1].orders_sent} orders)",
                file=sys.stderr,
            )
    print(table(rows, args))
    return 0


def table(rows: list[tuple[int, Played, Played]], args: argparse.Namespace) -> str:
    out = [
        f"3-player Mottainai, {args.level} bots, seeds {args.seed}-0 … {args.seed}-{len(rows) - 1}"
        + (f", at most {args.max_files} files a game" if args.max_files != MAX_FILES else ""),
        "",
        "| game | turns (without) | round trips (without) | per turn | turns (with) "
        "| round trips (with) | per turn | orders sent | steps fired | ended |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for index, without, with_ in rows:
        out.append(
            f"| {index} | {without.turns} | {without.round_trips} | {without.per_turn:.2f} "
            f"| {with_.turns} | {with_.round_trips} | {with_.per_turn:.2f} "
            f"| {with_.orders_sent} | {with_.steps_fired} "
            f"| {'yes' if without.status == 'over' else 'no'}/{'yes' if with_.status == 'over' else 'no'} |"
        )
    n = len(rows) or 1
    base = sum(w.round_trips for _, w, _ in rows) / n
    now = sum(w.round_trips for _, _, w in rows) / n
    base_turn = sum(w.per_turn for _, w, _ in rows) / n
    now_turn = sum(w.per_turn for _, _, w in rows) / n
    out += [
        "",
        f"Round trips per game: {base:.1f} without, {now:.1f} with standing orders "
        f"({100 * (1 - now / base) if base else 0:.0f}% fewer).",
        f"Round trips per turn: {base_turn:.2f} without, {now_turn:.2f} with "
        f"({100 * (1 - now_turn / base_turn) if base_turn else 0:.0f}% fewer).",
    ]
    return "\n".join(out)


if __name__ == "__main__":
    raise SystemExit(main())
