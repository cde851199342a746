"""Bots against bots in one process: each seat decides from its own state file's content.

Used by the strength benchmark and the tests. No keys or referee: the state file a seat
would receive is built as the referee builds it (view, prompt, legal decisions, through
JSON), the bot decides a batch from it alone, and the batch is applied the way the
referee applies one (checked, all before a barrier). Game randomness and each seat's
choices come from separate seeded streams.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from arbiter.bots.levels import decide
from arbiter.core.engine import Action, Engine, Outcome
from arbiter.core.rng import Rng

Clock = Callable[[], float]


class NoEnd(RuntimeError):
    """A game that reached ``max_files`` move files without ending (bots that stall)."""

    def __init__(self, engine: str, files: int):
        super().__init__(f"{engine}: no end after {files} move files")
        self.files = files


@dataclass
class Match:
    """How a match went: the outcome, decisions, and each seat's thinking time."""

    outcome: Outcome
    files: int = 0
    decisions: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)


def state_file(engine: Engine, state: Any, seat: str) -> dict[str, Any]:
    """Return the parts of ``seat``'s state file a bot reads, as JSON would carry them."""
    prompt = engine.prompt(state)
    legal = engine.legal_actions(state, seat) if prompt is not None and prompt.seat == seat else None
    data = {
        "seat": seat,
        "status": "playing" if prompt is not None else "over",
        "prompt": None if prompt is None else prompt.to_json(),
        "legal": legal,
        "view": engine.view(state, seat),
    }
    parsed: dict[str, Any] = json.loads(json.dumps(data))
    return parsed


def play(
    engine: Engine,
    options: Mapping[str, Any],
    levels: dict[str, str],
    seed: bytes,
    budget: int | None = None,
    clock: Clock | None = None,
    max_files: int = 5000,
) -> Match:
    """Play one game, seat ``s`` played at ``levels[s]``; ``clock`` times the bots."""
    seats = list(levels)
    state, _ = engine.setup(options, seats, Rng.for_entry(seed, 0))
    choices = {s: Rng(hashlib.sha256(seed + b"bot:" + s.encode()).digest()) for s in seats}
    match = Match(Outcome({}, []), seconds=dict.fromkeys(seats, 0.0), calls=dict.fromkeys(seats, 0))
    while (prompt := engine.prompt(state)) is not None:
        match.files += 1
        if match.files > max_files:
            raise NoEnd(engine.info.name, max_files)
        seat = prompt.seat
        started = clock() if clock else 0.0
        batch = decide(engine, state_file(engine, state, seat), levels[seat], choices[seat], budget)
        if clock:
            match.seconds[seat] += clock() - started
            match.calls[seat] += 1
        _apply_batch(engine, state, seat, batch, Rng.for_entry(seed, match.files))
        match.decisions += len(batch)
    result = engine.outcome(state)
    assert result is not None
    match.outcome = result
    return match


def _apply_batch(engine: Engine, state: Any, seat: str, batch: list[Action], rng: Rng) -> None:
    """Apply a batch as the referee does: each decision checked, none after a barrier."""
    for index, action in enumerate(batch):
        now = engine.prompt(state)
        if now is None or now.seat != seat:
            raise AssertionError(f"action {index + 1} of {seat}'s batch is out of turn")
        engine.check(state, seat, action)
        events = engine.apply(state, seat, action, rng)
        if index < len(batch) - 1 and any(e.barrier for e in events):
            raise AssertionError(f"{seat}'s batch runs past a barrier after action {index + 1}")
