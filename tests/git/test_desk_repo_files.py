"""Files at a repository's root cannot corrupt the game (issue 24, item 2).

The desk owns the files that change how git writes the game's bytes (``owned.py``) and
reverts anyone else's; a reader whose own clone converts files still opens its state file
(through git's objects) and ``arbiter git verify`` checks the game as the commit holds it.
Real repositories, real fresh clones, the real ``arbiter`` command where the issue names it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from arbiter.core.errors import ArbiterError, UsageError
from arbiter.core.player import load_state
from arbiter.desks.git.desk import clean_game_path
from git.gitkit import World, arbiter, git
from git.repo_attacks import CORPUS, SAMPLE, attack, by_name, push


def fresh_clone(world: World, name: str) -> Path:
    where = world.tmp / name
    git(world.tmp, "clone", "-q", str(world.bare), str(where))
    return where


def test_a_root_gitattributes_that_converts_line_ends_cannot_corrupt_a_fresh_clone(
    world: World,
) -> None:
    """The issue's attack: ``* text eol=crlf`` pushed at the root."""
    alice = world.player("alice")
    (alice.clone / ".gitattributes").write_bytes(b"* text eol=crlf\n")
    git(alice.clone, "add", ".gitattributes")
    git(alice.clone, "commit", "-q", "-m", "line ends")
    alice.push()
    result = world.round()
    assert result.guarded == [".gitattributes: someone else's version replaced by the desk's own"]
    log = world.log(count=1)[0]
    assert log["subject"] == "guard: someone else's .gitattributes reverted to the referee desk's own"
    assert ".gitattributes: someone else's version replaced by the desk's own" in log["body"]
    world.assert_published()
    reader = fresh_clone(world, "reader")
    for seat in world.seats:
        state = reader / world.game / "players" / seat / "state.json.age"
        shown = arbiter("show", state, "--key", world.keys[seat], "--json")
        assert shown.returncode == 0, shown.stderr
        assert f'"seat": "{seat}"' in shown.stdout
    verified = arbiter("verify", reader / world.game)
    assert verified.returncode == 0, verified.stderr


@pytest.mark.parametrize("name", SAMPLE)
def test_a_sample_of_the_attack_corpus_leaves_every_clone_and_archive_exact(
    world: World, name: str
) -> None:
    assert attack(world, by_name(name)) == []
    world.assert_published()


@pytest.mark.slow
@pytest.mark.parametrize("name", [a.name for a in CORPUS])
def test_the_whole_attack_corpus_leaves_every_clone_and_archive_exact(
    world: World, name: str
) -> None:
    assert attack(world, by_name(name)) == []
    world.assert_published()


def test_the_notice_names_each_file_and_rides_in_a_repair(world: World) -> None:
    alice = world.player("alice")
    push(world, by_name("lfsconfig"))
    alice.pull()
    (alice.clone / "games" / ".gitattributes").write_bytes(b"* ident\n")
    (alice.folder / "chain.jsonl").write_bytes(b"made up\n")
    git(alice.clone, "commit", "-q", "-am", "mess")
    alice.push()
    alice.push_file("m.json.age", alice.move())
    world.round()
    entry, repair = world.log(count=2)
    assert entry["subject"] == "entry #3: move by alice"
    assert repair["subject"].startswith("repair: files outside the inbox rebuilt")
    assert "guard: someone else's .lfsconfig, games/.gitattributes reverted" in repair["body"]
    assert ".lfsconfig: removed (the desk keeps none)" in repair["body"]
    assert "games/.gitattributes: someone else's version replaced" in repair["body"]
    world.assert_published()


def test_a_round_with_nothing_to_guard_commits_nothing(world: World) -> None:
    result = world.round()
    assert result.commits == [] and result.guarded == []


def test_a_deleted_desk_file_is_written_again(world: World) -> None:
    push(world, by_name("desk-file-deleted"))
    world.round()
    subject = world.log(count=1)[0]["subject"]
    assert subject == "guard: the referee desk's own .gitattributes, games/.gitattributes written"
    world.assert_published()


def test_a_game_folder_cannot_be_named_like_a_file_the_desk_owns() -> None:
    for path in ("games/.gitattributes", ".GitModules/g1", "x/.lfsconfig/y"):
        with pytest.raises(UsageError):
            clean_game_path(path)
    assert clean_game_path("games/g1") == "games/g1"


# -- a reader's own clone that converts: the reading side ------------------------------


def converting_clone(world: World, name: str, rules: bytes, config: dict[str, str]) -> Path:
    """A clone whose own ``.git/info/attributes`` (which outranks every .gitattributes)
    converts the game's files on checkout."""
    where = world.tmp / name
    git(world.tmp, "clone", "-q", "--no-checkout", str(world.bare), str(where))
    (where / ".git" / "info").mkdir(exist_ok=True)
    (where / ".git" / "info" / "attributes").write_bytes(rules)
    for key, value in config.items():
        git(where, "config", key, value)
    git(where, "checkout", "-q", "main")
    return where


CONVERSIONS = {
    "eol": (b"* text eol=crlf\n", {}),
    # A smudge filter that keeps the age header and breaks the payload.
    "filter": (b"*.age filter=tail\n", {"filter.tail.smudge": "cat; printf Z"}),
}


@pytest.mark.parametrize("how", sorted(CONVERSIONS))
def test_a_clone_that_converts_on_its_own_still_opens_its_state_file_and_git_verify_passes(
    world: World, how: str
) -> None:
    rules, config = CONVERSIONS[how]
    reader = converting_clone(world, f"reader-{how}", rules, config)
    folder = reader / world.game
    state = folder / "players" / "alice" / "state.json.age"
    blob = subprocess.run(["git", "cat-file", "blob", f"HEAD:{world.game}/players/alice/state.json.age"],
                          cwd=reader, capture_output=True, check=True).stdout
    assert state.read_bytes() != blob  # the checkout did convert it
    for seat in world.seats:
        path = folder / "players" / seat / "state.json.age"
        assert load_state(path, world.keys[seat])["seat"] == seat
    if how != "eol":
        return  # the commands below read the same way: checked once
    shown = arbiter("show", state, "--key", world.keys["alice"], "--json")
    assert shown.returncode == 0, shown.stderr
    # The work tree is not the published game: verify says so; git verify reads objects.
    assert arbiter("verify", folder).returncode == 16
    checked = arbiter("git", "verify", reader, "--game", world.game, "--seat", "alice",
                      "--key", world.keys["alice"])
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.splitlines()[-1].startswith("verified game sealed-git at commit ")


def test_a_converted_state_file_outside_any_clone_is_refused_as_before(
    world: World, tmp_path: Path
) -> None:
    """The fallback reads git's objects only for a file git tracks: a loose copy of a
    converted file is refused, and so is a tracked file that git holds converted too."""
    alice = world.player("alice")
    state = alice.folder / "players" / "alice" / "state.json.age"
    converted = state.read_bytes().replace(b"\n", b"\r\n")
    loose = tmp_path / "loose" / "state.json.age"
    loose.parent.mkdir()
    loose.write_bytes(converted)
    with pytest.raises(ArbiterError, match="not valid UTF-8"):
        load_state(loose, world.keys["alice"])
    state.write_bytes(converted)
    git(alice.clone, "add", "-A")
    git(alice.clone, "commit", "-q", "-m", "converted")
    with pytest.raises(ArbiterError, match="not valid UTF-8"):
        load_state(state, world.keys["alice"])


def test_git_verify_names_the_commit_when_the_game_is_wrong(world: World) -> None:
    alice = world.player("alice")
    chain = alice.folder / "chain.jsonl"
    chain.write_bytes(chain.read_bytes().replace(b"alice", b"mallo"))
    git(alice.clone, "commit", "-q", "-am", "I won")
    commit = git(alice.clone, "rev-parse", "HEAD")
    done = arbiter("git", "verify", alice.clone, "--game", world.game)
    assert done.returncode == 16, done.stderr
    assert f"{world.game}@{commit[:12]}" in done.stderr and "/tmp" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_git_verify_refuses_what_it_cannot_read(world: World) -> None:
    reader = fresh_clone(world, "reader")
    no_rev = arbiter("git", "verify", reader, "--game", world.game, "--rev", "nope")
    assert no_rev.returncode == 2 and "names no commit" in no_rev.stderr
    no_game = arbiter("git", "verify", reader, "--game", "games/none")
    assert no_game.returncode == 2 and "holds no files" in no_game.stderr
    no_key = arbiter("git", "verify", reader, "--game", world.game, "--seat", "alice")
    assert no_key.returncode == 2
