"""Each timeout policy in each engine: recorded by the referee, replayed by verify.

The pass policy takes the engine's declared default decisions (docs/rulings), the bot
policy the random bot's from the seat's view, and forfeit ends the game with the seat
ranked last (provisional scoring). The slow variant plays whole games by timeouts alone.
"""

from __future__ import annotations

import pytest
from helpers.tables import REFEREE_SEED, SECRET, make_keys

from arbiter.core import deadlines
from arbiter.core.player import load_state
from arbiter.core.referee import new_game, reveal, timeout
from arbiter.core.replay import verify

SEATS = {"mottainai": 2, "motcoin": 3, "momiji": 2}
START = "2026-03-01T00:00:00Z"


def _game(tmp, engine: str, policy: str, forfeit_after: int | None = None):
    names = ["alice", "bob", "carol"][: SEATS[engine]]
    keys = make_keys(tmp / "keys", names)
    root = tmp / "game"
    new_game(
        root, engine, [(s, f"{keys[s]}.pub") for s in names], {}, join=False,
        game_id=f"{engine}-{policy}", created=START, secret=SECRET, referee_seed=REFEREE_SEED,
        deadline=86400, on_timeout=policy, forfeit_after=forfeit_after,
    )
    return root


def _time_out(root, count: int) -> int:
    now, done = START, 0
    for _ in range(count):
        if load_state(root / "public" / "state.json")["status"] != "playing":
            break
        now = deadlines.add(now, 86400)
        assert timeout(root, now).timed_out is not None
        done += 1
    return done


@pytest.mark.parametrize("policy", ["pass", "bot"])
@pytest.mark.parametrize("engine", sorted(SEATS))
def test_timeouts_replay_after_the_reveal(tmp_path, engine, policy):
    root = _game(tmp_path, engine, policy)
    assert _time_out(root, 6) >= 1
    reveal(root, force=load_state(root / "public" / "state.json")["status"] != "over")
    report = verify(root)
    assert report.replayed
    assert any(line.startswith("clock: every entry dated") for line in report.checks)


@pytest.mark.parametrize("engine", sorted(SEATS))
def test_forfeit_ranks_the_seat_last_and_replays(tmp_path, engine):
    root = _game(tmp_path, engine, "forfeit")
    seat = load_state(root / "public" / "state.json")["prompt"]["seat"]
    assert _time_out(root, 1) == 1
    public = load_state(root / "public" / "state.json")
    assert public["status"] == "over" and public["outcome"]["ranking"][-1] == [seat]
    reveal(root)
    assert verify(root).replayed


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["pass", "bot"])
@pytest.mark.parametrize("engine", sorted(SEATS))
def test_a_whole_game_by_timeouts(tmp_path, engine, policy):
    # Mottainai never ends when every seat only prays (M-R76): a seat that stops moving
    # forfeits after a few timeouts in a row.
    root = _game(tmp_path, engine, policy, forfeit_after=6 if engine == "mottainai" else None)
    _time_out(root, 2000)
    assert load_state(root / "public" / "state.json")["status"] == "over"
    reveal(root)
    assert verify(root).replayed


@pytest.mark.parametrize(
    "level", ["greedy", pytest.param("search", marks=pytest.mark.slow)]
)
@pytest.mark.parametrize("engine", sorted(SEATS))
def test_the_named_bot_decides_and_replays(tmp_path, engine, level):
    """--timeout-bot greedy|search: the bot decides from the seat's state file with the
    timeout's own stream, and verify re-runs it to the same decisions."""
    names = ["alice", "bob", "carol"][: SEATS[engine]]
    keys = make_keys(tmp_path / "keys", names)
    root = tmp_path / "game"
    new_game(
        root, engine, [(s, f"{keys[s]}.pub") for s in names], {}, join=False,
        game_id=f"{engine}-{level}", created=START, secret=SECRET, referee_seed=REFEREE_SEED,
        deadline=86400, on_timeout="bot", timeout_bot=level,
    )
    assert _time_out(root, 2) == 2
    reveal(root, force=load_state(root / "public" / "state.json")["status"] != "over")
    assert verify(root).replayed
