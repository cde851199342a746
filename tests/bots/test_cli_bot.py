"""``arbiter bot`` in a folder holding only the seat's state file and key."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
from clikit import arbiter

from arbiter.bots.selfplay import play
from arbiter.core.gamedir import GameDir
from arbiter.core.referee import submit

SEATS = {"tally": 2, "mottainai": 2, "motcoin": 3, "momiji": 2}


def _game_in_progress(root: Path, name: str, files: int) -> tuple[Path, str]:
    run = play(root, name, SEATS[name], f"cli-bot-{name}", max_files=files, reveal_at_end=False)
    public = json.loads(GameDir(run.game).public_state.read_text())
    return run.game, public["prompt"]["seat"]


def _isolated(tmp: Path, game: Path, seat: str) -> Path:
    alone = tmp / "alone"
    alone.mkdir()
    shutil.copy(game / "players" / seat / "state.json", alone / "state.json")
    shutil.copy(game.parent / "keys" / seat, alone / "key")
    return alone


@pytest.mark.parametrize("level", ["random", "greedy", "search"])
@pytest.mark.parametrize("name", sorted(SEATS))
def test_the_bot_signs_a_move_the_referee_accepts(tmp_path: Path, name: str, level: str) -> None:
    game, seat = _game_in_progress(tmp_path, name, files=SEATS[name] + 3)
    alone = _isolated(tmp_path, game, seat)
    args = ["bot", "state.json", "--key", "key", "-o", "move.json", "--level", level, "--seed", "7"]
    result = arbiter(*args, "--budget", "4", cwd=alone)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in alone.iterdir()) == ["key", "move.json", "state.json"]
    again = arbiter(*args[:-1], "7", "--budget", "4", "-o", "again.json", cwd=alone)
    assert again.returncode == 0, again.stderr
    assert (alone / "move.json").read_bytes() == (alone / "again.json").read_bytes()
    submit(game, (alone / "move.json").read_bytes(), "move.json")


def test_it_is_not_your_turn(tmp_path: Path) -> None:
    game, seat = _game_in_progress(tmp_path, "tally", files=4)
    other = next(s for s in ("alice", "bob") if s != seat)
    alone = _isolated(tmp_path, game, other)
    result = arbiter("bot", "state.json", "--key", "key", "-o", "m.json", cwd=alone)
    assert result.returncode == 11 and f"it is {seat}'s turn" in result.stderr


def test_an_unknown_level_is_a_usage_error(tmp_path: Path) -> None:
    game, seat = _game_in_progress(tmp_path, "tally", files=4)
    alone = _isolated(tmp_path, game, seat)
    result = arbiter("bot", "state.json", "--key", "key", "-o", "m.json", "--level", "x", cwd=alone)
    assert result.returncode == 2 and "--level takes random, greedy, search" in result.stderr


def test_out_of_turn_the_bot_orders_your_next_turn(tmp_path: Path) -> None:
    """``--orders``: while another seat decides, the bot writes standing orders for the
    seat's next turn (docs/standing-orders.md), and the referee takes them."""
    run = play(tmp_path, "mottainai", 3, "cli-bot-orders", max_files=7, reveal_at_end=False)
    public = json.loads(GameDir(run.game).public_state.read_text())
    waiting = next(s for s in ("alice", "bob", "carol") if s != public["prompt"]["seat"])
    alone = _isolated(tmp_path, run.game, waiting)
    result = arbiter("bot", "state.json", "--key", "key", "-o", "o.json", "--orders", cwd=alone)
    assert result.returncode == 0, result.stderr
    assert "standing orders:" in result.stdout
    orders = json.loads((alone / "o.json").read_bytes())
    assert orders["format"] == "arbiter.orders/2" and orders["seat"] == waiting
    assert len(orders["steps"]) == 1 and orders["steps"][0]["when"][0] == "*"
    submit(run.game, (alone / "o.json").read_bytes(), "o.json")
    mine = json.loads((run.game / "players" / waiting / "state.json").read_bytes())
    assert mine["orders"]["steps"] == orders["steps"]


def test_an_engine_without_orders_says_so(tmp_path: Path) -> None:
    game, seat = _game_in_progress(tmp_path, "momiji", files=4)
    other = next(s for s in ("alice", "bob") if s != seat)
    alone = _isolated(tmp_path, game, other)
    result = arbiter("bot", "state.json", "--key", "key", "-o", "o.json", "--orders", cwd=alone)
    assert result.returncode == 2 and "does not take standing orders yet" in result.stderr
    assert not (alone / "o.json").exists()
