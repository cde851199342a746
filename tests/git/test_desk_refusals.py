"""The desk refuses to run where it would be unsafe: one line, exit 2, nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.tables import CREATED, make_keys, snapshot

from arbiter.core.referee import new_game
from git.gitkit import World, arbiter, cli_env, git


def refused(world: World, *args: object, env: dict[str, str] | None = None) -> str:
    """Run the desk with ``args``; check exit 2, one line, and that nothing changed."""
    before = snapshot(world.secret), world.head(), snapshot(world.referee / world.game)
    done = arbiter("git", "run", *args, "--once", "--push", env=env)
    assert done.returncode == 2, done
    assert done.stderr.startswith("arbiter: error: ") and done.stderr.count("\n") == 1
    after = snapshot(world.secret), world.head(), snapshot(world.referee / world.game)
    assert after == before
    return done.stderr


def test_an_unsealed_game_is_refused(world: World, tmp_path: Path) -> None:
    keys = make_keys(tmp_path / "plain-keys", ["alice", "bob"])
    plain = tmp_path / "plain-game"
    new_game(plain, "tally", [(s, f"{k}.pub") for s, k in keys.items()], {}, game_id="plain",
             created=CREATED)
    message = refused(world, world.referee, "--game", world.game, "--secret-dir", plain)
    assert "unsealed games must not be played in a shared repository" in message


def test_a_secret_dir_inside_the_repository_is_refused(world: World) -> None:
    inside = world.referee / "private"
    shutil.copytree(world.secret, inside)
    message = refused(world, world.referee, "--game", world.game, "--secret-dir", inside)
    assert "lies inside the repository" in message
    shutil.rmtree(inside)


def test_a_folder_that_is_not_a_git_work_tree_is_refused(world: World, tmp_path: Path) -> None:
    plain = tmp_path / "not-a-repo"
    plain.mkdir()
    message = refused(world, plain, "--game", world.game, "--secret-dir", world.secret)
    assert "is not a git work tree" in message
    bare = refused(world, world.bare, "--game", world.game, "--secret-dir", world.secret)
    assert "is not a git work tree" in bare


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--game", "../outside", "must be the game folder's relative path"),
        ("--game", "/abs", "must be the game folder's relative path"),
        ("--author", "no email", "must look like 'Name <email>'"),
        ("--remote", "nowhere", "has no remote 'nowhere'"),
    ],
)
def test_bad_options_are_refused(world: World, option: str, value: str, says: str) -> None:
    args = {"--game": world.game, "--author": "Ref <ref@example.test>", "--remote": "origin"}
    args[option] = value
    flat = [item for pair in args.items() for item in pair]
    assert says in refused(world, world.referee, *flat, "--secret-dir", world.secret)


def test_the_secret_dir_may_come_from_the_environment(world: World) -> None:
    env = cli_env()
    env["ARBITER_SECRET_DIR"] = str(world.secret)
    done = arbiter("git", "run", world.referee, "--game", world.game, "--once", env=env)
    assert done.returncode == 0, done.stderr
    missing = refused(world, world.referee, "--game", world.game)
    assert "--secret-dir" in missing


def test_a_plaintext_seat_file_is_never_committed(world: World) -> None:
    alice = world.player("alice")
    alice.push_file("m.json.age", alice.move())
    leak = world.secret / "players" / "alice" / "state.json"
    leak.write_text('{"hand": [1, 2, 3]}\n')
    head, chain = world.head(), world.gd.chain.read_bytes()
    done = world.run()
    assert done.returncode == 2, done
    assert world.gd.chain.read_bytes() == chain  # refused before judging anything
    assert "refusing to commit players/alice/state.json" in done.stderr
    assert world.head() == head
    assert world.inbox() == ["inbox/m.json.age"]
    assert git(world.bare, "log", "--all", "--format=%H", "--", f"{world.game}/players/alice/state.json") == ""


def test_an_unreachable_remote_is_the_desks_own_failure(world: World) -> None:
    git(world.referee, "remote", "set-url", "origin", str(world.tmp / "gone.git"))
    done = world.run()
    assert done.returncode == 17, done
    assert done.stderr.startswith("arbiter: error: git fetch from origin failed: ")
    assert done.stderr.count("\n") == 1
