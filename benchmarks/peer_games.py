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
  (one observer ``PeerGame`` fed all of them, timed once: "check");
- of that, the **cryptography** alone, the budget's measure: the time spent in the
  functions of ``arbiter/core/peer`` and ``Deck`` (each outermost call timed once);
- bytes on the wire: the JSON of the messages it sends, sent once to each other player;
- messages it sends;
- rounds, and **blocking rounds per turn**: rounds in which nobody decides (shares, a
  fact about a hand, a pass of a hand), over turns (runs of one seat's decisions), the
  setup's (keys, shuffles, the deal) left out;
- **sequential hops per turn**: how many times, after the setup, the game waits for a
  message to travel from one player to another (a round whose senders are not the lone
  sender of the round before: a seat's consecutive decisions are made on its own machine
  and travel together), over turns; and the setup's hops, once per game.

Budgets: a whole game's cryptography ≤ 2 s of CPU per player; blocking rounds ≤ 0.3 per
turn; ≤ 1.3 sequential hops per turn. Figures are medians over ``--games`` games, quoted
as ratios to the budgets.

With ``--no-preshares`` the engines name no card to share ahead (``Engine.preshares``:
Mottainai's face-down tasks then open in a round of their own), to measure what the
pre-shares save.

    python benchmarks/peer_games.py [--games 3] [--level greedy] [--only mottainai]
                                    [--no-preshares]
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
from arbiter.peer.protocol import DECISION, FACTS, PASSES, SHARES, PeerGame
from arbiter.peer.seat import PeerSeat

CPU_BUDGET = 2.0


class CryptoClock:
    """Process time spent in the cryptography: every public function of the modules of
    ``arbiter/core/peer`` and ``Deck``'s, wrapped so that the outermost call counts once."""

    def __init__(self) -> None:
        self.total = 0.0
        self.depth = 0

    def install(self) -> None:
        import inspect

        from arbiter.core.peer import dleq, elgamal, group, oneof, returned, schnorr, shuffle
        from arbiter.peer import decks, seat

        for module in (dleq, elgamal, group, oneof, returned, schnorr, shuffle):
            for name, fn in list(vars(module).items()):
                if inspect.isfunction(fn) and fn.__module__ == module.__name__:
                    setattr(module, name, self.timed(fn))
        seat.open_with = elgamal.open_with  # imported by name
        for name in ("slot", "without"):
            setattr(decks.Deck, name, self.timed(getattr(decks.Deck, name)))
        decks.Deck.start = classmethod(self.timed(decks.Deck.start.__func__))  # type: ignore[method-assign]

    def timed(self, fn: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.total += time.process_time() - start
                self.depth -= 1

        return call


CLOCK = CryptoClock()
BLOCKING_BUDGET = 0.3
HOPS_BUDGET = 1.3
GAMES = [("motcoin", 3, ""), ("motcoin", 4, ""), ("momiji", 3, ""), ("momiji", 4, "")]
GAMES += [("mottainai", n, wutai) for wutai in ("", "wutai") for n in (2, 3, 5)]


def play(
    name: str, seats: int, seed: int, wutai: str = "", level: str = "random"
) -> dict[str, Any]:
    engine = registry.get(name)
    names = [f"s{i}" for i in range(seats)]
    options = engine.parse_options({"wutai": "yes"} if wutai else {})
    game = PeerGame(engine, options, names, f"bench-{seed}", "sha256:" + "00" * 32)
    # Seeded secrets (SHA-512 of the seed, the seat and a counter, reduced): every run
    # plays the same games, so two runs compare pair by pair (--no-preshares).
    players = {s: PeerSeat(game, s, _seeded(seed, i)) for i, s in enumerate(names)}
    chooser = Rng(bytes([seed]) * 32)
    cpu: dict[str, float] = defaultdict(float)
    crypto: dict[str, float] = defaultdict(float)
    sent: dict[str, int] = defaultdict(int)
    count: dict[str, int] = defaultdict(int)
    messages = []
    rounds: list[tuple[frozenset[str], str]] = []
    """Each round: its senders, and what it waits for."""
    while not game.over:
        if len(rounds) == game.round:  # a round begins
            kind = next(iter(game.waiting.values())).kind
            rounds.append((frozenset(game.waiting), kind))
        seat = next(s for s in names if game.owed(s) is not None)
        start, crypto_before = time.process_time(), CLOCK.total
        message = players[seat].compose(
            _chooser(engine, chooser, level if seat == "s0" else "random")
        )
        cpu[seat] += time.process_time() - start
        crypto[seat] += CLOCK.total - crypto_before
        sent[seat] += len(json.dumps(message, separators=(",", ":"))) * (seats - 1)
        count[seat] += 1
        messages.append(message)
        game.receive(message)
    observer = PeerGame(engine, options, names, game.game, game.manifest)
    start, crypto_before = time.process_time(), CLOCK.total
    for message in messages:
        observer.receive(message)
    check = time.process_time() - start
    checked = CLOCK.total - crypto_before
    movers = [step.seat for step, _ in game.history if step.seat is not None]
    turns = 1 + sum(1 for a, b in itertools.pairwise(movers) if a != b)
    first = next(i for i, (_, kind) in enumerate(rounds) if kind == DECISION)
    hops = [
        i for i, (a, b) in enumerate(itertools.pairwise(rounds), start=1)
        if not (len(a[0]) == 1 and b[0] == a[0])
    ]  # fmt: skip
    blocking = sum(kind in (SHARES, FACTS, PASSES) for _, kind in rounds[first:])
    return {
        "cpu": max(cpu[s] + check for s in names),
        "check": check,
        "crypto": max(crypto[s] + checked for s in names),
        "bytes": max(sent.values()),
        "messages": max(count.values()),
        "rounds": game.round,
        "turns": turns,
        "blocking": blocking / turns,
        "hops": sum(i > first for i in hops) / turns,
        "setup": sum(i <= first for i in hops),
    }


def _seeded(seed: int, seat: int) -> Any:
    from arbiter.core.peer import group

    count = itertools.count(1)
    return lambda: group.hash_to_scalar(bytes([seed, seat]) + next(count).to_bytes(8, "big"))


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
    parser.add_argument("--no-preshares", action="store_true", help="share nothing ahead")
    args = parser.parse_args()
    CLOCK.install()
    if args.no_preshares:
        from arbiter.core.engine import Engine

        for name in registry.names():
            engine = registry.get(name)
            engine.preshares = Engine.preshares.__get__(engine)  # type: ignore[method-assign]
    print(
        "game          cpu/player  check  crypto/player (÷2 s)  bytes/player  msgs/player  rounds  turns"
        "  blocking/turn (÷0.3)  hops/turn (÷1.3)  setup hops"
    )
    for name, seats, wutai in GAMES:
        if args.only and name != args.only:
            continue
        runs = [play(name, seats, seed, wutai, args.level) for seed in range(1, args.games + 1)]

        def med(key: str, runs: list[dict[str, Any]] = runs) -> float:
            return statistics.median(r[key] for r in runs)

        print(
            f"{name[:9] + ('+W' if wutai else ''):11} {seats}p {med('cpu'):8.2f} s {med('check'):5.2f} s"
            f"  {med('crypto'):9.2f} s {med('crypto') / CPU_BUDGET:5.2f}×"
            f"  {med('bytes') / 1000:9.0f} KB  {med('messages'):10.0f}  {med('rounds'):6.0f}"
            f"  {med('turns'):5.0f}  {med('blocking'):6.2f} {med('blocking') / BLOCKING_BUDGET:5.2f}×"
            f"         {med('hops'):5.2f} {med('hops') / HOPS_BUDGET:5.2f}×  {med('setup'):6.0f}"
        )


if __name__ == "__main__":
    main()
