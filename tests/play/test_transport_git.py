"""The git transport against real repositories: a bare remote, the desk's clone, players'
clones (tests/git/gitkit.py), and the real git desk judging what was pushed."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from git.gitkit import GAME, GIT_ENV, World, git, make_world

from arbiter.core.errors import NotReady, UsageError
from arbiter.play import profile
from arbiter.play.profile import GameEntry
from arbiter.play.transports import open_transport
from arbiter.play.transports.git import GitTransport


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """Git here (the desk's and the transport's) runs without the user's configuration;
    the product's transport uses the user's own, as git always does."""
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def world(tmp_path: Path) -> World:
    return make_world(tmp_path / "w")


def transport(world: World, seat: str) -> GitTransport:
    player = world.player(seat, pull=False)
    return GitTransport(player.clone, GAME, seat, player.key)


def sealed_move(world: World, seat: str) -> tuple[str, bytes]:
    """The seat's first legal decision, sealed to the referee, from its own clone."""
    player = world.player(seat, pull=False)
    state = player.state()
    return f"{seat}-{state['seq'] + 1}-abcdef12.json.age", player.move()


def turn(world: World) -> str:
    return str(json.loads((world.secret / "public" / "state.json").read_bytes())["prompt"]["seat"])


def test_fetch_opens_the_sealed_state(world: World) -> None:
    alice = transport(world, "alice")
    got = alice.fetch()
    state = json.loads(got.state)
    assert state == world.player("alice").state()
    assert (state["seat"], state["seq"]) == ("alice", 2)
    assert got.log is not None and "alice" in got.log
    assert got.where == f"{GAME}/players/alice/state.json.age"
    with pytest.raises(UsageError) as exc:
        GitTransport(alice.clone, GAME, "alice", None).fetch()
    assert "is sealed: pass your key" in exc.value.message


def test_deliver_lands_in_the_inbox_and_the_desk_accepts_it(world: World) -> None:
    seat = turn(world)
    player = transport(world, seat)
    player.fetch()
    name, data = sealed_move(world, seat)
    said = player.deliver(name, data)
    assert said == f"pushed {GAME}/inbox/{name} to origin/main"
    assert world.inbox() == [f"inbox/{name}"]
    assert world.log(count=1)[0]["subject"] == f"{seat}: move"
    assert git(player.clone, "status", "--porcelain") == ""
    world.round()
    assert json.loads((world.secret / "public" / "state.json").read_bytes())["seq"] == 3
    assert world.inbox() == []  # the desk took it
    # the next fetch pulls the desk's commit: the new state
    assert json.loads(transport(world, seat).fetch().state)["seq"] == 3


def test_a_push_race_is_retried_never_forced(world: World) -> None:
    seat = turn(world)
    player = transport(world, seat)
    player.fetch()
    name, data = sealed_move(world, seat)
    # Another clone pushes first: the player's clone is now behind the remote.
    other = world.player("bob" if seat == "alice" else "alice")
    theirs = other.push_file("note.txt", b"hello\n", message="someone else")
    said = player.deliver(name, data)
    assert said.startswith("pushed ")
    log = world.log(count=2)
    assert [c["subject"] for c in log] == [f"{seat}: move", "someone else"]
    assert log[1]["sha"] == theirs  # their commit is kept, under ours
    assert sorted(world.inbox()) == sorted([f"inbox/{name}", "inbox/note.txt"])


def test_an_impossible_push_leaves_no_commit(world: World) -> None:
    seat = turn(world)
    player = transport(world, seat)
    player.fetch()
    hook = world.bare / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'closed for the night' >&2\nexit 1\n")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    before = git(player.clone, "rev-parse", "HEAD")
    remote = world.head()
    name, data = sealed_move(world, seat)
    with pytest.raises(UsageError) as exc:
        player.deliver(name, data)
    assert "refused" in exc.value.message and "\n" not in exc.value.message
    assert git(player.clone, "rev-parse", "HEAD") == before
    assert git(player.clone, "status", "--porcelain") == ""  # nothing staged, no file left
    assert world.head() == remote
    # the move can be sent again once the remote takes it
    hook.unlink()
    assert player.deliver(name, data).startswith("pushed ")
    assert world.inbox() == [f"inbox/{name}"]


def test_a_remote_that_is_gone(world: World, tmp_path: Path) -> None:
    seat = turn(world)
    player = transport(world, seat)
    git(player.clone, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    with pytest.raises(UsageError) as exc:
        player.fetch()
    assert "check the remote origin" in exc.value.message
    name, data = sealed_move(world, seat)
    before = git(player.clone, "rev-parse", "HEAD")
    with pytest.raises(UsageError):
        player.deliver(name, data)
    assert git(player.clone, "rev-parse", "HEAD") == before
    assert git(player.clone, "status", "--porcelain") == ""


def test_unpushed_commits_are_rebased_on_pull(world: World) -> None:
    seat = turn(world)
    player = transport(world, seat)
    (player.clone / "mine.txt").write_text("my notes\n")
    git(player.clone, "add", "mine.txt")
    git(player.clone, "commit", "-q", "-m", "my notes")
    other = world.player("bob" if seat == "alice" else "alice")
    other.push_file("note.txt", b"hello\n", message="someone else")
    assert json.loads(player.fetch().state)["seq"] == 2  # pulled with --rebase
    assert git(player.clone, "log", "-2", "--format=%s").split("\n") == ["my notes", "someone else"]


def test_refusals_before_any_commit(world: World, tmp_path: Path) -> None:
    seat = turn(world)
    player = transport(world, seat)
    with pytest.raises(UsageError) as exc:
        player.deliver("m.json", b"{}")
    assert "is not sealed" in exc.value.message
    with pytest.raises(UsageError):
        player.deliver("../m.json.age", b"age")
    git(player.clone, "checkout", "-q", "--detach")
    with pytest.raises(UsageError) as exc:
        player.fetch()
    assert "is not on a branch" in exc.value.message
    with pytest.raises(UsageError) as exc:
        GitTransport(tmp_path / "nowhere", GAME, seat, None).fetch()
    assert "does not exist" in exc.value.message


def test_before_the_joins_and_a_seat_without_files(tmp_path: Path) -> None:
    world = make_world(tmp_path / "w", joined=False)
    state = json.loads(transport(world, "alice").fetch().state)
    assert (state["seq"], state["legal"]) == (0, None)  # waiting for the joins
    player = world.player("alice", pull=False)
    with pytest.raises(NotReady) as exc:
        GitTransport(player.clone, GAME, "zoe", player.key).fetch()
    assert "no state file for seat zoe yet" in exc.value.message


def test_open_transport_from_the_profile(world: World) -> None:
    player = world.player("alice")
    entry = profile.add(GameEntry("sealed-git", "alice", player.key, "git", player.folder / "game.json",
                                  {"clone": str(player.clone), "path": GAME}))
    opened = open_transport(entry)
    assert isinstance(opened, GitTransport)
    assert json.loads(opened.fetch().state)["seat"] == "alice"
    with pytest.raises(UsageError) as exc:
        profile.add(GameEntry("sealed-git", "alice", player.key, "git", player.folder / "game.json",
                              {"clone": str(player.folder), "path": GAME}), replace=True)
    assert "is not the top of a git clone" in exc.value.message
