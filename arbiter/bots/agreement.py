"""A bot's answer to a proposal to end the game (docs/bots.md, "Ending by agreement").

The policy: a bot accepts when its evaluation says it would not lose by it.

- **Scored as it stands**: the bot compares its place if the game ended now (the engine's
  early-end scoring, applied to worlds rebuilt from its own view) with the place its
  evaluation expects if play goes on (the same worth the greedy and search bots
  maximise: the score now plus the game's potential terms). It accepts when ending now
  places it no lower, averaged over the worlds.
- **Abandoned, no result**: it accepts unless its evaluation expects it to win (first,
  alone or shared, in most worlds): a seat expecting a win gives it up by abandoning.

- **A takeback request**: a bot accepts it (a bot is a partner to practise with, as the
  computer opponents of online platforms allow takebacks); tournaments allow none.

It reads only the seat's own state file (its view and the open proposal), as every bot
does; with no world to evaluate (an engine without ``determinize``) it declines.
"""

from __future__ import annotations

from typing import Any

from arbiter.bots.evaluate import estimator
from arbiter.bots.world import worlds
from arbiter.core.engine import Engine
from arbiter.core.rng import Rng

WORLDS = 8
"""Worlds rebuilt from the view to judge a proposal: hidden cards weigh on both places."""


def place(ranking: list[list[str]], seat: str) -> int:
    """How many seats finish strictly ahead of ``seat`` in a ranking."""
    ahead = 0
    for group in ranking:
        if seat in group:
            return ahead
        ahead += len(group)
    return ahead


def expected_place(worth: dict[str, float], seat: str) -> int:
    """How many seats the evaluation puts strictly ahead of ``seat``."""
    return sum(1 for other, value in worth.items() if other != seat and value > worth[seat])


def accepts_end(engine: Engine, state_file: dict[str, Any], rng: Rng) -> bool:
    """Whether the bot of the state file's seat accepts the open end proposal."""
    pending, seat = state_file.get("pending"), state_file["seat"]
    if pending is None or seat is None or pending.get("kind") != "propose-end":
        raise ValueError("the state file shows no end proposal to answer")
    states = worlds(engine, state_file, WORLDS, rng).states
    if not states:
        return False
    estimate = estimator(engine)
    playing = [s for s in state_file["seats"] if s not in state_file.get("resigned", [])]
    now_total, expected_total, winning = 0, 0, 0
    for state in states:
        worth = {s: v for s, v in estimate(engine, state).items() if s in playing}
        expected = expected_place(worth, seat)
        ranking = [
            [s for s in group if s in playing]
            for group in engine.provisional_outcome(state).ranking
        ]
        now_total += place([group for group in ranking if group], seat)
        expected_total += expected
        winning += expected == 0
    if pending["result"] == "score":
        return now_total <= expected_total
    return winning * 2 <= len(states)


def answer_file(state_file: dict[str, Any], key: Any, seed: str = "") -> dict[str, Any]:
    """The bot's signed answer to the open request of ``state_file`` (``arbiter bot`` and
    the mail desk's bot seats): an end proposal by ``accepts_end``, a takeback accepted."""
    from arbiter.bots.levels import bot_rng
    from arbiter.core.errors import NotReady
    from arbiter.core.life_files import make_answer
    from arbiter.core.viewcheck import known_engine

    pending = state_file.get("pending") or {}
    if pending.get("kind") == "takeback":
        return make_answer(state_file, key, "accept")
    engine = known_engine(state_file)
    if engine is None:
        name, version = state_file["engine"]["name"], state_file["engine"]["version"]
        raise NotReady(f"this arbiter cannot read a {name} {version} view: update arbiter")
    accept = accepts_end(engine, state_file, bot_rng(seed, state_file))
    return make_answer(state_file, key, "accept" if accept else "decline")
