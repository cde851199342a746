"""Standing orders a bot sends: the obvious ones (issue 27 item 8, docs/standing-orders.md).

While the seat just before it decides, a bot predicts that seat's turn in its own
determinised worlds (the opponent played greedily in each world, where it sees its own
cards), takes the prediction most worlds share, and orders its own greedy batch for that
case: "when you play this turn, I follow or decline your task as my evaluation says".
Reads only the seat's own state file, like every bot; deterministic in ``rng``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from arbiter.bots import greedy
from arbiter.bots.world import step, worlds
from arbiter.core.engine import Action, Engine
from arbiter.core.rng import Rng

WORLDS = 8
"""Worlds the prediction is taken over."""
MAX_DECISIONS = 64
"""A predicted turn longer than this is not ordered for (a step's ``then`` is a batch)."""


def predecessor(seats: list[str], seat: str) -> str:
    return seats[(seats.index(seat) - 1) % len(seats)]


def standing_orders(engine: Engine, state_file: dict[str, Any], rng: Rng) -> list[dict[str, Any]]:
    """Return the steps to order now (none when there is nothing obvious to order).

    Only while the seat before this one decides: the condition is that seat's public
    decisions up to this seat's turn; the order is this seat's batch up to its next
    barrier, as greedy plays it in the world that predicted them.
    """
    seat, prompt = state_file["seat"], state_file["prompt"]
    public_decision = getattr(engine, "public_decision", None)
    if state_file["status"] != "playing" or prompt is None or public_decision is None:
        return []
    other = prompt["seat"]
    if other == seat or predecessor(state_file["seats"], seat) != other:
        return []
    found = worlds(engine, state_file, WORLDS, rng)
    predictions: dict[str, tuple[list[Action], list[Action]]] = {}
    votes: Counter[str] = Counter()
    for world in found.states:
        guessed = _predict(engine, world, other, seat, rng)
        if guessed is None:
            continue
        when, state = guessed
        then = _batch(engine, state, seat, rng)
        if not then:
            continue
        key = repr([public_decision(a) for a in when])
        votes[key] += 1
        predictions.setdefault(key, ([public_decision(a) for a in when], then))
    if not votes:
        return []
    key, _ = votes.most_common(1)[0]
    when, then = predictions[key]
    return [{"when": when, "then": then}]


def _predict(
    engine: Engine, world: Any, other: str, seat: str, rng: Rng
) -> tuple[list[Action], Any] | None:
    """Play ``other`` greedily in ``world`` until ``seat`` decides; its decisions and the state."""
    state = engine.copy(world)
    decisions: list[Action] = []
    while (now := engine.prompt(state)) is not None and now.seat == other:
        if len(decisions) >= MAX_DECISIONS:
            return None
        legal = engine.legal_actions(state, other)
        if not legal:
            return None
        action = greedy.choose(engine, [state], other, legal, rng, False)
        if step(engine, state, other, action, rng, check=True) is None:
            return None
        decisions.append(action)
    now = engine.prompt(state)
    if now is None or now.seat != seat or not decisions:
        return None
    return decisions, state


def _batch(engine: Engine, state: Any, seat: str, rng: Rng) -> list[Action]:
    """This seat's greedy decisions in ``state`` up to a barrier or the end of its turn."""
    state = engine.copy(state)
    batch: list[Action] = []
    while len(batch) < MAX_DECISIONS:
        now = engine.prompt(state)
        if now is None or now.seat != seat:
            break
        legal = engine.legal_actions(state, seat)
        if not legal:
            break
        action = greedy.choose(engine, [state], seat, legal, rng, False)
        events = step(engine, state, seat, action, rng, check=True)
        if events is None:
            break
        batch.append(action)
        if any(event.barrier for event in events):
            break
    return batch
