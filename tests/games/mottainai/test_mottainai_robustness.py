"""Random playouts with every card in play (issue 5, item 6).

2-, 3-, 4- and 5-player games (one deck for 2-3 players, two for 4-5: all 54 cards,
twice) played by the random bot (``iter_playout``, which also ``check``s every decision)
must end without an engine error, conserve every card at every step (the engine's
``invariants`` plus an independent count of the encoded state), replay identically from
their seed, and between them use every one of the 54 effects.

"Used" means an observable influence on the game:

- decision effects (morning/night, before a task or a TAILOR, after effects, instead-of,
  boosters): an ``effect`` event naming the card (``as``: a Kite copy counts as the copy);
- Curtain and Tower: a ``gate`` event (an opponent revealed a card or skipped the task);
- Straw: a SMITH completed with fewer supports than the work's value less one;
- Go Set, Bangle, Mask, Turtle: the continuous / obstruction answer changed something
  while a decision was applied (a STONE work counted in the other wing, helper actions
  taken away or STONE helpers covered, a task masked, the game won at once);
- end-game scoring cards: the seat's final total is different with the card's effect
  switched off.

The default run plays ``SEEDS`` games per player count; the slow suite plays more.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from arbiter.bots.random_bot import iter_playout
from arbiter.core.canonical import digest
from arbiter.games.mottainai import MottainaiEngine, scoring
from arbiter.games.mottainai.cards import CARDS, VALUE, base_id, card, deck_ids
from arbiter.games.mottainai.effects import REGISTRY
from arbiter.games.mottainai.effects.dispatch import identity
from arbiter.games.mottainai.state import decode, encode

PLAYER_COUNTS = (2, 3, 4, 5)
SEEDS = 125
"""Per player count in the default run: 500 games in all."""
SLOW_SEEDS = 750
"""Per player count in the slow suite: 3,000 games in all."""
REPLAY_EVERY = 10
"""Every 10th game is played a second time and compared step by step."""
MAX_STEPS = 5_000
SEATS = ["alice", "bob", "carol", "dave", "erin"]
PASSIVE_QUERIES = ("go-set", "bangle", "mask", "turtle")


class RecordingEngine(MottainaiEngine):
    """The real engine; it notes when a decision is being applied (not checked or listed)."""

    applying = False

    def apply(self, state, seat, action, rng):  # type: ignore[no-untyped-def]
        self.applying = True
        try:
            return super().apply(state, seat, action, rng)
        finally:
            self.applying = False


@dataclasses.dataclass
class Run:
    games: int = 0
    steps: int = 0
    ends: Counter[str] = dataclasses.field(default_factory=Counter)
    used: Counter[str] = dataclasses.field(default_factory=Counter)
    errors: list[str] = dataclasses.field(default_factory=list)
    lost_cards: list[str] = dataclasses.field(default_factory=list)
    replays: int = 0
    replay_diffs: list[str] = dataclasses.field(default_factory=list)


def options(players: int, k: int) -> dict[str, Any]:
    """Mostly the base game; every 4th game extended, every other 4-player game in teams."""
    return {"extended": k % 4 == 3, "teams": players == 4 and k % 2 == 1}


def seed_of(players: int, k: int) -> bytes:
    return hashlib.sha256(f"mottainai-robustness-{players}-{k}".encode()).digest()


FULL_DECK = {decks: sorted(deck_ids(decks)) for decks in (1, 2)}
ZONES = ("hand", "waiting", "helpers", "bench", "sales", "gallery", "gift_shop")


def every_card(data: dict[str, Any]) -> list[str]:
    """List every card of the encoded state, zone by zone (not via ``invariants``)."""
    found: list[str] = data["deck"] + data["floor"]
    for p in data["players"].values():
        for zone in ZONES:
            found += p[zone]
        if p["task"] is not None:
            found.append(p["task"])
    return sorted(found)


@contextmanager
def recording_passives(engine: RecordingEngine, used: Counter[str]) -> Iterator[None]:
    """Wrap the query effects so that a changed answer while applying a decision counts."""
    saved = {c: REGISTRY[c] for c in PASSIVE_QUERIES}

    def wrap(card_id: str, resolve: Any) -> Any:
        def recorded(state, seat, work, query, value, ctx):  # type: ignore[no-untyped-def]
            out = resolve(state, seat, work, query, value, ctx)
            if engine.applying and out != value:
                used[card_id] += 1
            return out

        return recorded

    try:
        for c, eff in saved.items():
            REGISTRY[c] = dataclasses.replace(eff, resolve=wrap(c, eff.resolve))
        yield
    finally:
        REGISTRY.update(saved)


def _off(state: Any, seat: str, work: str, sheet: dict[str, Any]) -> None:
    return None


def scoring_influence(state: Any, used: Counter[str]) -> None:
    """Count each end-game scoring card whose effect changed its owner's final total."""
    totals = {s: state.result["seats"][s]["parts"]["total"] for s in state.seats}
    for seat in state.seats:
        p = state.players[seat]
        ids = {card(identity(state, w)).id for w in p.gallery + p.gift_shop}
        for cid in sorted(i for i in ids if CARDS[i].window == "scoring"):
            saved = REGISTRY[cid]
            REGISTRY[cid] = dataclasses.replace(saved, resolve=_off)
            try:
                without = scoring.score(state)["seats"][seat]["parts"]["total"]
            finally:
                REGISTRY[cid] = saved
            if without != totals[seat]:
                used[cid] += 1


def observe(state: Any, events: list[Any], used: Counter[str]) -> None:
    """Count the effects the events of one decision show in use."""
    returned = 0
    for e in events:
        if e.kind == "effect":
            used[base_id(e.data["as"])] += 1
        elif e.kind == "gate":
            used[base_id(identity(state, e.data["by"]))] += 1
        elif e.kind == "crane":
            returned = len(e.data["cards"])
        elif e.kind == "work" and "support" in e.data:
            w = card(e.data["card"])
            if len(e.data["support"]) + returned < VALUE[w.material] - 1:
                used["straw"] += 1  # only Straw lowers a SMITH's supports


def step_digest(data: dict[str, Any], events: list[Any]) -> str:
    return digest({"state": data, "events": [[e.kind, e.data, e.barrier] for e in events]})


def play(players: int, k: int, engine: RecordingEngine, run: Run, replay: bool) -> None:
    """Play one game, checking every step; record what went wrong."""
    seats = SEATS[:players]
    seed = seed_of(players, k)
    opts = options(players, k)
    where = f"{players}p seed {k} {opts}"
    trace: list[str] = []
    last = None
    try:
        for step in iter_playout(engine, opts, seats, seed, max_steps=MAX_STEPS):
            last = step
            run.steps += 1
            state = step.state
            data = engine.encode(state)
            try:
                engine.invariants(state)
            except AssertionError as exc:
                run.lost_cards.append(f"{where} step {step.n}: invariants: {exc}")
                return
            if every_card(data) != FULL_DECK[data["decks"]]:
                run.lost_cards.append(f"{where} step {step.n}: the zones do not hold the deck")
                return
            observe(state, step.events, run.used)
            if replay:
                assert encode(decode(data)) == data
                trace.append(step_digest(data, step.events))
    except Exception as exc:  # an engine error: report it with its place
        run.errors.append(f"{where} step {last.n + 1 if last else 0}: {exc!r}")
        return
    assert last is not None
    state = last.state
    if engine.prompt(state) is not None or state.result is None or engine.outcome(state) is None:
        run.errors.append(f"{where}: the playout stopped without a result")
        return
    run.games += 1
    run.ends[state.end["reason"]] += 1
    scoring_influence(state, run.used)
    if replay:
        run.replays += 1
        again = [
            step_digest(engine.encode(s.state), s.events)
            for s in iter_playout(engine, opts, seats, seed, max_steps=MAX_STEPS)
        ]
        if again != trace:
            n = next(
                (i for i, (a, b) in enumerate(zip(again, trace, strict=False)) if a != b),
                len(trace),
            )
            run.replay_diffs.append(f"{where}: the replay differs from step {n}")


def playouts(seeds: int) -> Run:
    engine = RecordingEngine()
    run = Run()
    with recording_passives(engine, run.used):
        for players in PLAYER_COUNTS:
            for k in range(seeds):
                play(players, k, engine, run, replay=k % REPLAY_EVERY == 0)
    return run


def report(run: Run) -> str:
    per_card = ", ".join(f"{c} {run.used[c]}" for c in CARDS)
    return f"{run.games} games, {run.steps} steps, ends {dict(run.ends)}; used: {per_card}"


@pytest.fixture(scope="module")
def default_run() -> Run:
    return playouts(SEEDS)


def test_random_playouts_end_without_an_engine_error(default_run):
    assert default_run.errors == []
    assert default_run.games == SEEDS * len(PLAYER_COUNTS)


def test_random_playouts_conserve_every_card_at_every_step(default_run):
    assert default_run.lost_cards == []
    assert default_run.steps > default_run.games * 50


def test_random_playouts_replay_identically(default_run):
    assert default_run.replays == len(PLAYER_COUNTS) * -(-SEEDS // REPLAY_EVERY)
    assert default_run.replay_diffs == []


def test_random_playouts_use_every_effect(default_run):
    never = [c for c in CARDS if default_run.used[c] == 0]
    assert never == [], f"never used in {default_run.games} games: {never}\n{report(default_run)}"


@pytest.mark.slow
@pytest.mark.full  # ~3 minutes on two cores: benchmarks/full.sh (the default run plays 500)
def test_slow_random_playouts_with_every_card():
    run = playouts(SLOW_SEEDS)
    assert run.errors == []
    assert run.lost_cards == []
    assert run.replay_diffs == []
    assert run.games == SLOW_SEEDS * len(PLAYER_COUNTS)
    never = [c for c in CARDS if run.used[c] == 0]
    assert never == [], f"never used: {never}\n{report(run)}"
