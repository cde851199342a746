"""Whole peer games against DESIGN.md's budgets (docs/peer.md §4.4, issue 29 item 8, issue
30 item 4): Mot Coin and Momiji at 3 and 4 seats, Mottainai at 2, 3 and 5 (with and
without Wutai), every seat a bot playing through the real protocol (keys, shuffles,
shares, openings, claims, returns, facts, passes, re-randomisations), in one process. The
first seat plays at ``--level`` (random, greedy or search: a stronger seat among random
ones, as all-greedy Mottainai tables never end, docs/peer-mottainai.md §6 Q7), deciding
from its own view; the others at random.

Per player and per game it prints:

- CPU seconds: the seat's own messages (composing them, its bot's choice and the engine
  included) plus checking every message of the game, as each player's machine does
  (one observer ``PeerGame`` fed all of them, timed once);
- bytes on the wire: the JSON of the messages it sends, sent once to each other player;
- messages it sends;
- rounds, and **blocking rounds per turn**: rounds of shares only (nobody decides in
  them), over turns (runs of one seat's decisions).

Budgets: a whole game's cryptography ≤ 2 s of CPU per player; blocking rounds ≤ 0.3 per
turn. Figures are medians over ``--games`` games, quoted as ratios to the budgets.

    python benchmarks/peer_games.py [--games 3] [--level greedy] [--only mottainai]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import itertools

from arbiter.core import registry
from arbiter.core.rng import Rng
from arbiter.peer.protocol import SHARES, PeerGame
from arbiter.peer.seat import PeerSeat

CPU_BUDGET = 2.0
BLOCKING_BUDGET = 0.3
GAMES = [("motcoin", 3, ""), ("motcoin", 4, ""), ("momiji", 3, ""), ("momiji", 4, "")]
GAMES += [("mottainai", n, wutai) for wutai in ("", "wutai") for n in (2, 3, 5)]


def play(
    name: str, seats: int, seed: int, wutai: str = "", level: str = "random"
) -> dict[str, Any]:
    engine = registry.get(name)
    names = [f"s{i}" for i in range(seats)]
    options = engine.parse_options({"wutai": "yes"} if wutai else {})
    game = PeerGame(engine, options, names, f"bench-{seed}", "sha256:" + "00" * 32)
    players = {s: PeerSeat(game, s) for s in names}
    chooser = Rng(bytes([seed]) * 32)
    cpu: dict[str, float] = defaultdict(float)
    sent: dict[str, int] = defaultdict(int)
    count: dict[str, int] = defaultdict(int)
    messages = []
    while not game.over:
        seat = next(s for s in names if game.owed(s) is not None)
        start = time.process_time()
        message = players[seat].compose(
            _chooser(engine, chooser, level if seat == "s0" else "random")
        )
        cpu[seat] += time.process_time() - start
        sent[seat] += len(json.dumps(message, separators=(",", ":"))) * (seats - 1)
        count[seat] += 1
        messages.append(message)
        game.receive(message)
    observer = PeerGame(engine, options, names, game.game, game.manifest)
    start = time.process_time()
    for message in messages:
        observer.receive(message)
    check = time.process_time() - start
    movers = [step.seat for step, _ in game.history if step.seat is not None]
    turns = 1 + sum(1 for a, b in itertools.pairwise(movers) if a != b)
    return {
        "cpu": max(cpu[s] + check for s in names),
        "check": check,
        "bytes": max(sent.values()),
        "messages": max(count.values()),
        "rounds": game.round,
        "turns": turns,
        "blocking": game.stats.rounds[SHARES] / turns,
    }


def _chooser(engine: Any, rng: Rng, level: str) -> Any:
    """A seat's decision maker: at random, or a bot level deciding from the seat's own
    private state (its view, prompt and legal decisions, as its state file carries them)."""
    from arbiter.bots.levels import decide
    from arbiter.bots.match import state_file

    def choose(state: Any, seat: str, legal: list[Any]) -> Any:
        if level == "random":
            return rng.choice(legal)
        return decide(engine, state_file(engine, state, seat), level, rng)[0]

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--level", default="random", help="the first seat's bot level")
    parser.add_argument("--only", default=None, help="one engine's rows")
    args = parser.parse_args()
    print(
        "game          cpu/player  (÷2 s)  check   bytes/player  msgs/player  rounds  turns  blocking/turn (÷0.3)"
    )
    for name, seats, wutai in GAMES:
        if args.only and name != args.only:
            continue
        runs = [play(name, seats, seed, wutai, args.level) for seed in range(1, args.games + 1)]

        def med(key: str, runs: list[dict[str, Any]] = runs) -> float:
            return statistics.median(r[key] for r in runs)

        print(
            f"{name[:9] + ('+W' if wutai else ''):11} {seats}p {med('cpu'):8.2f} s  {med('cpu') / CPU_BUDGET:5.2f}×  {med('check'):5.2f} s"
            f"  {med('bytes') / 1000:9.0f} KB  {med('messages'):10.0f}  {med('rounds'):6.0f}"
            f"  {med('turns'):5.0f}  {med('blocking'):6.2f} {med('blocking') / BLOCKING_BUDGET:5.2f}×"
        )


if __name__ == "__main__":
    main()
