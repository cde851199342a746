"""Standing orders a bot sends: the obvious ones (issue 27 item 8, docs/standing-orders.md).

When another seat's turn begins, a bot predicts the other seats' decisions up to its own
turn in its determinised worlds (each opponent played greedily in each world, where the
bot sees its own cards), and orders its whole next turn as it would decide it itself (at
its own level) for the prediction most worlds share: "when you choose these tasks, I
follow or decline them as my evaluation says". A turn that crosses an information barrier
is ordered as several steps, the later ones with an empty ``when`` (nobody else decides
in between); a turn the bot cannot decide to its end is not ordered at all.

The condition names only what the bot's plan turns on. In Mottainai that is the task
each opponent chooses (the tasks the bot performs at noon, rules summary "Noon"): the
rest of their turns is ``"*"``, and a plan the rest made illegal is dropped by the
referee (the seat is then asked as usual). Engines without such a pivot are predicted
decision by decision, ICCF style. Reads only the seat's own state file, like every bot;
deterministic in ``rng``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from arbiter.bots import greedy
from arbiter.bots.world import step, worlds
from arbiter.core.engine import Action, Engine
from arbiter.core.order_patterns import ANY
from arbiter.core.rng import Rng

WORLDS = 8
"""Worlds the prediction is taken over."""
MAX_DECISIONS = 256
"""Predicted decisions of the other seats beyond which nothing is ordered."""
MAX_TURN = 64
"""Decisions of the seat's own turn beyond which nothing is ordered."""
PIVOTS: dict[str, frozenset[str]] = {"mottainai": frozenset({"task", "no_task"})}
"""Per engine, the kinds of the others' decisions a bot's order is conditioned on (the
rest of their decisions is ``"*"``); an engine not listed is matched decision by decision."""


def condition(engine: Engine, decisions: list[Action]) -> list[Any]:
    """The ``when`` a bot orders for these predicted decisions of the other seats."""
    public = [engine.public_decision(a) for a in decisions]  # type: ignore[attr-defined]
    pivots = PIVOTS.get(engine.info.name)
    if pivots is None:
        return public
    when: list[Any] = [ANY]
    for decision in public:
        if decision.get("kind") in pivots:
            when += [decision, ANY]
    return when


def standing_orders(
    engine: Engine, state_file: dict[str, Any], rng: Rng, level: str = "greedy"
) -> list[dict[str, Any]]:
    """Return the steps to order now (none when there is nothing obvious to order).

    Only while another seat decides: the condition is the others' decisions up to this
    seat's turn (``condition``) that most worlds predict; the order is the batch the bot
    of ``level`` decides in the first world that predicted them, from the state file the
    seat would receive there.
    """
    seat, prompt = state_file["seat"], state_file["prompt"]
    if state_file["status"] != "playing" or prompt is None:
        return []
    if getattr(engine, "public_decision", None) is None or prompt["seat"] == seat:
        return []
    found = worlds(engine, state_file, WORLDS, rng)
    votes: Counter[str] = Counter()
    first: dict[str, tuple[list[Any], Any]] = {}
    ends: list[Any] = []
    for world in found.states:
        guessed = _predict(engine, world, seat, rng)
        if guessed is None:
            continue
        when = condition(engine, guessed[0])
        key = repr(when)
        votes[key] += 1
        first.setdefault(key, (when, guessed[1]))
        ends.append(guessed[1])
    if not votes:
        return []
    when, state = first[votes.most_common(1)[0][0]]
    batches = _whole_turn(engine, state, seat, level, rng)
    if not batches:
        return []
    if len(ends) > 1 and all(_legal(engine, end, seat, batches[0], rng) for end in ends):
        # The batch holds whatever the others do in every world (say it declines every
        # task they might choose): no condition is needed beyond "my turn comes".
        when = [ANY]
    # Later batches continue the same turn past a barrier: nobody else decides between.
    return [{"when": when if n == 0 else [], "then": then} for n, then in enumerate(batches)]


def _whole_turn(engine: Engine, world: Any, seat: str, level: str, rng: Rng) -> list[list[Action]]:
    """The seat's whole turn in ``world`` as the bot decides it, one batch per stretch
    between information barriers (a step's ``then`` may not cross one); none when the
    turn cannot be decided to its end (an order that leaves the seat to be asked anyway
    would save no round trip and bind it for nothing)."""
    from arbiter.bots.levels import decide
    from arbiter.bots.match import state_file as file_in

    state = engine.copy(world)
    batches: list[list[Action]] = []
    crossed = True  # a new step starts the turn, and after every barrier
    decided = 0
    while (now := engine.prompt(state)) is not None and now.seat == seat:
        if decided >= MAX_TURN:
            return []
        try:
            batch = decide(engine, file_in(engine, state, seat), level, rng)
        except ValueError:
            return []
        for action in batch:
            events = step(engine, state, seat, action, rng, check=True)
            if events is None:
                return []
            if crossed:
                batches.append([])
            batches[-1].append(action)
            crossed = any(event.barrier for event in events)
            decided += 1
    return batches


def _legal(engine: Engine, state: Any, seat: str, batch: list[Action], rng: Rng) -> bool:
    """Whether ``batch`` applies, decision by decision, for ``seat`` in ``state``."""
    state = engine.copy(state)
    for action in batch:
        now = engine.prompt(state)
        if now is None or now.seat != seat or step(engine, state, seat, action, rng, check=True) is None:
            return False
    return True


def _predict(engine: Engine, world: Any, seat: str, rng: Rng) -> tuple[list[Action], Any] | None:
    """Play the other seats greedily in ``world`` until ``seat`` decides; their decisions
    and the state then."""
    state = engine.copy(world)
    decisions: list[Action] = []
    while (now := engine.prompt(state)) is not None and now.seat != seat:
        if len(decisions) >= MAX_DECISIONS:
            return None
        legal = engine.legal_actions(state, now.seat)
        if not legal:
            return None
        action = greedy.choose(engine, [state], now.seat, legal, rng, False)
        if step(engine, state, now.seat, action, rng, check=True) is None:
            return None
        decisions.append(action)
    if engine.prompt(state) is None or not decisions:
        return None
    return decisions, state
