"""Bot levels and the one entry point that decides a seat's batch from its state file.

``decide`` reads nothing but a seat's state file (the dict ``arbiter show`` reads): the
view, prompt and legal decisions. It is a deterministic function of that file and the
``rng`` stream passed in, so a referee can replay a bot's decision (a timeout) from the
seat's state file and a seed stream.
"""

from __future__ import annotations

import hashlib
from typing import Any

from arbiter.bots import greedy, search
from arbiter.bots.world import Worlds, step, worlds
from arbiter.core.engine import Action, Engine
from arbiter.core.rng import Rng

LEVELS = ("random", "greedy", "search")
MAX_BATCH = 64
BOT_TAG = b"arbiter-bot/1"


def bot_rng(seed: str, state_file: dict[str, Any]) -> Rng:
    """Return the stream of ``arbiter bot --seed SEED`` for a state file: it follows from the
    seed, the game, the seat and the chain head, so each decision draws afresh."""
    parts = [BOT_TAG, seed.encode(), state_file["game"].encode(), state_file["seat"].encode()]
    parts.append(state_file["head"].encode())
    return Rng(hashlib.sha256(b"\x00".join(parts)).digest())


def decide(
    engine: Engine,
    state_file: dict[str, Any],
    level: str,
    rng: Rng,
    budget: int | None = None,
) -> list[Action]:
    """Return the seat's decisions up to the next barrier or another seat's turn.

    The first decision is one of the state file's legal decisions. Later ones are
    planned in determinised worlds that agree with the state file, and the batch stops
    where any world shows the seat something new, ends the game or passes the turn, or
    where the worlds disagree on what is legal (a hidden card would matter). With no
    such world (an engine without ``determinize``, or a view that leaves its prompt's
    context out) the batch is that one decision. ``budget``: the search bot's playouts.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
    seat, legal = state_file["seat"], state_file["legal"]
    if seat is None or not legal:
        raise ValueError("the state file shows no decision for its seat now")
    count = search.WORLDS if level == "search" else greedy.WORLDS
    found = worlds(engine, state_file, count, rng)
    actions: list[Action] = []
    now = list(legal)
    while True:
        action = _choose(engine, found, seat, now, level, rng, budget)
        actions.append(action)
        if not found.trusted or len(actions) >= MAX_BATCH:
            return actions
        following = _advance(engine, found.states, seat, action, rng)
        if following is None:
            return actions
        now = following


def _choose(
    engine: Engine,
    found: Worlds,
    seat: str,
    legal: list[Action],
    level: str,
    rng: Rng,
    budget: int | None,
) -> Action:
    if level == "random" or not found.states:
        return legal[rng.below(len(legal))]
    check = not found.trusted
    if level == "greedy":
        return greedy.choose(engine, found.states, seat, legal, rng, check)
    return search.choose(engine, found.states, seat, legal, rng, check, budget)


def _advance(
    engine: Engine, states: list[Any], seat: str, action: Action, rng: Rng
) -> list[Action] | None:
    """Apply ``action`` in every world; return the seat's next legal decisions, or
    ``None`` where the batch must stop."""
    following: list[Action] | None = None
    for state in states:
        events = step(engine, state, seat, action, rng, check=True)
        if events is None or any(e.barrier for e in events):
            return None
        prompt = engine.prompt(state)
        if prompt is None or prompt.seat != seat:
            return None
        legal = engine.legal_actions(state, seat)
        if following is None:
            following = legal
        elif legal != following:
            return None
    return following
