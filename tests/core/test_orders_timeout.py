"""A timeout's decisions count toward another seat's standing orders: the step they
complete applies in the same ``arbiter timeout`` operation, dated like it, and the game
replays after the reveal (docs/standing-orders.md)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.tables import REFEREE_SEED, SECRET, Table, make_keys

from arbiter.core.canonical import pretty
from arbiter.core.orders import make_orders
from arbiter.core.referee import new_game, reveal, submit, timeout
from arbiter.core.replay import verify

START = "2026-01-01T00:00:00Z"
DAY = 86400


def test_a_timeout_completes_a_step_and_it_applies_at_once(tmp_path: Path) -> None:
    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    new_game(
        tmp_path / "game", "tally", [(s, f"{keys[s]}.pub") for s in ("alice", "bob")],
        {"cards": "8", "hand": "2"}, join=False, game_id="orders-clock", created=START,
        secret=SECRET, referee_seed=REFEREE_SEED, deadline=3 * DAY, grace=DAY,
    )
    table = Table(tmp_path / "game", keys, ["alice", "bob"], tmp_path / "out")
    assert table.turn() == "alice"
    bob = table.state("bob")
    # The pass policy draws for alice (TALLY-7): bob orders his answer to exactly that.
    steps = [{"when": [{"kind": "draw"}], "then": [{"kind": "play", "card": min(bob["view"]["hand"])}]}]
    submit(table.root, pretty(make_orders(bob, keys["bob"], steps)), "orders.json", now=START)
    waiting = timeout(table.root, "2026-01-05T00:00:00Z")
    assert waiting.timed_out is not None
    chain = [json.loads(line) for line in table.gd.chain.read_text().splitlines()]
    assert [e["kind"] for e in chain[-2:]] == ["timeout", "order-step"]
    assert chain[-1]["time"] == chain[-2]["time"] == "2026-01-05T00:00:00Z"
    assert table.state("bob")["prompt"]["seat"] == "bob"  # his batch was one play: he goes on
    assert "orders" not in table.state("bob")
    reveal(table.root, force=True)
    assert verify(table.root).replayed
