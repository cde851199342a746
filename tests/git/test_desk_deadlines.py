"""The git desk keeps the clock of a sealed game with deadlines: once the waiting seat's
grace has run out, the round records the timeout and publishes it as its own commit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers.tables import REFEREE_SEED, SECRET, make_keys

from arbiter.core.referee import new_game
from git.gitkit import World, cli_env, git


def test_a_timeout_is_committed_by_the_desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seats = ["alice", "bob"]
    keys = make_keys(tmp_path / "keys", seats)
    secret = tmp_path / "secret" / "g1"
    new_game(secret, "tally", [(s, f"{keys[s]}.pub") for s in seats], {}, join=False,
             game_id="clock-git", created="2026-06-01T00:00:00Z", secret=SECRET,
             referee_seed=REFEREE_SEED, sealed=True, deadline=86400, on_timeout="pass")
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    referee = tmp_path / "referee-clone"
    git(tmp_path, "clone", "-q", str(bare), str(referee))
    world = World(tmp_path, bare, referee, secret, keys, seats)
    monkeypatch.setenv("ARBITER_NOW", "2026-06-01T02:00:00Z")
    assert world.round().timeout is None  # publishes the game; nobody is late yet
    monkeypatch.setenv("ARBITER_NOW", "2026-06-02T00:00:01Z")
    done = world.round()
    assert done.timeout == 1 and done.pushed
    subject = world.log()[0]["subject"]
    assert subject.startswith("entry #1: timeout of ") and subject.endswith(" (pass)")
    world.assert_published()
    assert world.round().timeout is None  # the next seat's clock starts now
    clone = tmp_path / "reader"
    git(tmp_path, "clone", "-q", str(bare), str(clone))
    checked = subprocess.run([sys.executable, "-m", "arbiter", "verify", str(clone / world.game)],
                             capture_output=True, text=True, env=cli_env(), check=False)
    assert checked.returncode == 0, checked.stderr
    assert "1 timeout(s)" in checked.stdout
