"""The standing orders a bot sends (arbiter.bots.orders, docs/standing-orders.md)."""

from __future__ import annotations

import hashlib

from arbiter.bots.levels import decide
from arbiter.bots.match import state_file
from arbiter.bots.orders import condition, standing_orders
from arbiter.core import registry
from arbiter.core.order_patterns import ANY
from arbiter.core.rng import Rng

SEATS = ["alice", "bob", "carol"]


def _mid_game(name: str, files: int) -> tuple[object, object]:
    engine = registry.get(name)
    seed = hashlib.sha256(f"bot-orders-{name}".encode()).digest()
    state, _ = engine.setup({}, SEATS, Rng.for_entry(seed, 0))
    for n in range(files):
        prompt = engine.prompt(state)
        assert prompt is not None
        batch = decide(engine, state_file(engine, state, prompt.seat), "random", Rng(seed + bytes([n])))
        for action in batch:
            engine.apply(state, prompt.seat, action, Rng.for_entry(seed, n + 1))
    return engine, state


def test_mottainai_orders_turn_on_the_opponents_tasks_only() -> None:
    engine, state = _mid_game("mottainai", 5)
    waiting = next(s for s in SEATS if s != engine.prompt(state).seat)
    seen = state_file(engine, state, waiting)
    steps = standing_orders(engine, seen, Rng(b"\x01" * 32), "greedy")
    assert len(steps) == 1
    when = steps[0]["when"]
    assert when[0] == ANY and when[-1] == ANY
    assert all(item == ANY or item["kind"] in ("task", "no_task") for item in when)
    # The same state file and stream: the same orders (a bot is a function of its file).
    assert standing_orders(engine, seen, Rng(b"\x01" * 32), "greedy") == steps


def test_no_orders_on_the_seat_s_own_turn() -> None:
    engine, state = _mid_game("mottainai", 5)
    deciding = engine.prompt(state).seat
    assert standing_orders(engine, state_file(engine, state, deciding), Rng(b"\x02" * 32)) == []


def test_an_engine_without_a_pivot_is_predicted_decision_by_decision() -> None:
    """Mot Coin has no pivot kind: the condition is the predicted public decisions."""
    engine = registry.get("motcoin")
    decisions = [{"kind": "pass"}, {"kind": "bid", "amount": 3}]
    assert condition(engine, decisions) == decisions
    mottainai = registry.get("mottainai")
    turn = [{"kind": "return", "card": 4}, {"kind": "task", "card": 9}, {"kind": "prayer"}]
    assert condition(mottainai, turn) == [ANY, {"kind": "task", "card": 9}, ANY]
