"""The game's first writes killed at their write points: ``arbiter new``, the last join.

``new`` has no chain yet to heal from: a game folder is created whole or not at all, so
running the same ``arbiter new`` again after a kill creates the game, and nothing half
made (least of all a copy of a secret) is left beside it. The last join starts the game
(the engine's setup): a kill there heals like any submit.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
import subprocess
from pathlib import Path

import pytest
from helpers.crash import (
    Killed,
    arbiter,
    assert_at_head,
    assert_nothing_to_repair,
    assert_verifies,
    chain,
    command,
    env,
    kill_at_write_points,
    parallel,
    show,
    sweeps,
    temporaries,
)
from helpers.tables import CREATED, create, make_keys, snapshot

from arbiter.core.canonical import pretty
from arbiter.core.errors import UsageError
from arbiter.core.referee import new_game

NOW = {"ARBITER_NOW": "2026-01-01T00:00:00Z"}


def made(game: Path) -> tuple[list[str], dict[str, object], bytes]:
    """What a `new` made, less what follows from its fresh secret and referee key: the
    file names, game.json without commitment and key, and the seats' addresses."""
    names = sorted(snapshot(game))
    manifest = json.loads((game / "game.json").read_bytes())
    for field in ("commitment", "referee"):
        manifest.pop(field)
    return names, manifest, (game / "referee" / "addresses.json").read_bytes()


# The default run kills at the first write point and at the last (the game whole, its
# addresses included, not yet in place).
@pytest.mark.parametrize("points", sweeps(1, -1))
def test_new_killed_at_its_write_points_is_created_by_the_same_command(
    tmp_path: Path, points: tuple[int, ...] | None
) -> None:
    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    pristine = tmp_path / "empty"
    pristine.mkdir()
    # --email stores a seat's address under referee/ after the game is made: it must be
    # part of the same all-or-nothing creation.
    args = [
        "--game", "tally", "--seat", f"alice={keys['alice']}.pub",
        "--seat", f"bob={keys['bob']}.pub", "--option", "cards=4", "--option", "hand=1",
        "--id", "crash-new", "--email", "alice=alice@example.org",
    ]  # fmt: skip

    def beside(folder: Path) -> list[str]:
        return sorted(p.name for p in folder.iterdir())

    left: dict[int, list[str]] = {}

    def look(killed: Killed) -> None:
        left[killed.point] = beside(killed.folder)

    kills, reference = kill_at_write_points(
        pristine, tmp_path / "runs", lambda f: ["new", f / "game", *args], points,
        extra=NOW, look=look,
    )  # fmt: skip
    expected = made(reference / "game")

    def again(killed: Killed) -> None:
        folder, point = killed.folder, killed.point
        game = folder / "game"
        result = arbiter("new", game, *args, extra=NOW)
        assert result.returncode == 0, f"point {point} (left {left[point]}): {show(result)}"
        # The rename is the last step: a kill left nothing at the game's path.
        assert "game" not in left[point], f"point {point}: a game not finished was in place"
        assert beside(folder) == ["game"], f"point {point}: left beside the game"
        assert made(game) == expected, point
        assert not temporaries(folder)
        assert_verifies(game)
        assert_nothing_to_repair(game)

    parallel(again, kills)


@pytest.fixture(scope="module")
def one_joined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A game with alice's join accepted, and bob's join file, which starts it."""
    base = tmp_path_factory.mktemp("setup")
    table = create(base, 2, options={"cards": "4", "hand": "1"})
    table.submit_obj(table.join_file("alice"))
    join = base / "join-bob.json"
    join.write_bytes(pretty(table.join_file("bob")))
    return table.root, join


# Setup is a submit (covered by default in test_crash_recovery.py); the whole sweep is slow.
@pytest.mark.slow
def test_the_last_join_killed_at_each_write_point_heals(
    one_joined: tuple[Path, Path], tmp_path: Path
) -> None:
    pristine, join = one_joined
    committed: dict[int, bool] = {}

    def look(killed: Killed) -> None:
        committed[killed.point] = len(chain(killed.folder)) == 3

    kills, reference = kill_at_write_points(
        pristine, tmp_path, lambda folder: ["submit", folder, join], look=look
    )
    assert json.loads((reference / "public" / "state.json").read_bytes())["status"] == "playing"
    assert any(committed.values()) and not all(committed.values())
    expected = snapshot(reference)

    def again(killed: Killed) -> None:
        result = arbiter("submit", killed.folder, join)
        code = 9 if committed[killed.point] else 0  # a duplicate, or accepted now
        assert result.returncode == code, f"point {killed.point}: {show(result)}"
        assert_at_head(killed.folder, 2)
        assert snapshot(killed.folder) == expected, killed.point
        assert_verifies(killed.folder)

    parallel(again, kills)


# -- building a folder beside its path ------------------------------------------------


def _new(root: Path, keys: dict[str, Path], **kwargs: object) -> dict[str, object]:
    seats = [(seat, f"{key}.pub") for seat, key in keys.items()]
    return new_game(root, "tally", seats, {}, created=CREATED, **kwargs)  # type: ignore[arg-type]


def test_a_failed_new_leaves_nothing_and_an_abandoned_one_is_cleared(tmp_path: Path) -> None:
    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    games = tmp_path / "games"

    def fail(folder: Path) -> None:
        assert (folder / "game.json").is_file()  # the game is whole, just not in place
        raise UsageError("stop")

    with pytest.raises(UsageError, match="stop"):
        _new(games / "g", keys, finish=fail)
    assert sorted(games.iterdir()) == []

    # What a killed run leaves, and what a run at work holds (its lock is taken).
    abandoned = games / ".g.new-abcd1234"
    at_work = games / ".g.new-efgh5678"
    for folder in (abandoned, at_work):
        (folder / "referee").mkdir(parents=True)
        (folder / "referee" / "secret").write_text("00" * 32)
    other = games / ".h.new-abcd1234"  # another game's
    other.mkdir()
    fd = os.open(at_work, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _new(games / "g", keys)
    finally:
        os.close(fd)
    assert sorted(p.name for p in games.iterdir()) == [".g.new-efgh5678", ".h.new-abcd1234", "g"]
    assert stat.S_IMODE((games / "g").stat().st_mode) == 0o755


def test_new_replaces_an_empty_folder_but_not_the_current_one(tmp_path: Path) -> None:
    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    empty = tmp_path / "empty"
    empty.mkdir()
    _new(empty, keys)
    assert (empty / "game.json").is_file()
    here = tmp_path / "here"
    here.mkdir()
    result = subprocess.run(
        [*command(), "new", ".", "--game", "tally",
         "--seat", f"alice={keys['alice']}.pub", "--seat", f"bob={keys['bob']}.pub"],
        cwd=here, capture_output=True, text=True, env=env(), timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == UsageError.exit_code, show(result)
    assert "is the current folder: run this from its parent folder" in result.stderr
    assert list(here.iterdir()) == []
