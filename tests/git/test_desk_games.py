"""Whole games played through a shared repository, then revealed, verified and scanned
for leaks (issue 12, item 8; slow suite).

Each player works only in their own clone: pulls, reads the public state to see whose turn
it is, opens their own sealed state file with their key, takes the first legal decision,
seals the move to the referee, commits and pushes it to the inbox. The referee's desk runs
a round between moves. Every twelfth decision (and each seat's first) is made with the real
commands (`arbiter moves --json`, `arbiter move --seal`), every twelfth round is the real
`arbiter git run --once --push`; the others use the same library calls in this process,
to keep the suite within CI's time.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from arbiter.core.referee import reveal
from arbiter.core.sealing import MAGIC, unpad, unseal
from git.gitkit import GIT_ENV, Player, World, arbiter, git, make_world

CLI_EVERY = 12


def turn(player: Player) -> str | None:
    public = json.loads((player.folder / "public" / "state.json").read_text())
    return public["prompt"]["seat"] if public["status"] == "playing" else None


def cli_move(player: Player, name: str) -> None:
    """Decide with the real commands, as a person at a terminal does."""
    state = player.folder / "players" / player.seat / "state.json.age"
    listed = arbiter("moves", state, "--key", player.key, "--json")
    assert listed.returncode == 0, listed.stderr
    first = json.loads(listed.stdout)[0]["action"]
    target = player.folder / "inbox" / name.removesuffix(".age")
    target.parent.mkdir(parents=True, exist_ok=True)
    made = arbiter("move", state, "--key", player.key, "-a", json.dumps(first), "-o", target,
                   "--seal")
    assert made.returncode == 0, made.stderr
    assert not target.exists() and (player.folder / "inbox" / name).is_file()
    git(player.clone, "add", "--", f"{player.game}/inbox/{name}")
    git(player.clone, "commit", "-q", "-m", f"{player.seat}: {name}")
    player.push()


def play_through_git(world: World) -> int:
    """Play the game to its end; return the number of decisions."""
    players = {seat: world.player(seat, pull=False) for seat in world.seats}
    decisions, seen = 0, set()
    while True:
        watcher = players[world.seats[0]]
        watcher.pull()
        seat = turn(watcher)
        if seat is None:
            return decisions
        player = players[seat]
        if player is not watcher:
            player.pull()
        name = f"{decisions:04d}-{seat}.json.age"
        if seat not in seen or decisions % CLI_EVERY == 0:
            cli_move(player, name)
        else:
            player.push_file(name, player.move())
        seen.add(seat)
        decisions += 1
        if decisions % CLI_EVERY == 0:
            done = world.run()
            assert done.returncode == 0, done.stderr
            assert f"inbox/{name}: accepted" in done.stdout
        else:
            result = world.round()
            assert [h.accepted for h in result.files] == [True], result
        assert decisions < 1000


def all_blobs(repo: Path) -> dict[str, tuple[set[str], bytes]]:
    """Every blob in the repository's history: id -> (paths it was seen at, bytes)."""
    listed = git(repo, "rev-list", "--objects", "--all")
    paths: dict[str, set[str]] = {}
    for line in listed.splitlines():
        sha, _, path = line.partition(" ")
        paths.setdefault(sha, set()).add(path)
    batch = subprocess.run(
        ["git", "cat-file", "--batch"], cwd=repo, input="".join(f"{s}\n" for s in paths).encode(),
        capture_output=True, check=True, env={**os.environ, **GIT_ENV},
    ).stdout
    blobs, at = {}, 0
    for sha in paths:
        end = batch.index(b"\n", at)
        _, kind, size = batch[at:end].split()
        data = batch[end + 1 : end + 1 + int(size)]
        at = end + 1 + int(size) + 1
        if kind == b"blob":
            blobs[sha] = (paths[sha], data)
    return blobs


def private_lines(world: World) -> dict[str, set[str]]:
    """Each seat's log lines that the public log does not have (from the referee's copy)."""
    public = set((world.secret / "public" / "log.md").read_text().splitlines())
    found = {}
    for seat in world.seats:
        sealed = (world.secret / "players" / seat / "log.md.age").read_bytes()
        text = unpad(unseal(sealed, world.keys[seat], "log")).decode()
        found[seat] = {
            line.strip() for line in text.splitlines()
            if line.strip() and line not in public and len(line.strip()) >= 12
        }
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    ("engine", "seats"),
    [("motcoin", ("alice", "bob", "carol")), ("mottainai", ("alice", "bob"))],
)
def test_a_whole_game_through_a_shared_repository(
    tmp_path: Path, engine: str, seats: tuple[str, ...]
) -> None:
    world = make_world(tmp_path, engine=engine, seats=seats, game_id=f"{engine}-by-git")
    decisions = play_through_git(world)
    assert decisions > 20
    subjects = [c["subject"] for c in world.log(count=100000)]
    assert sum(s.startswith("entry #") for s in subjects) == decisions
    reveal(world.secret)
    done = world.run()
    assert done.returncode == 0, done.stderr
    assert world.log(count=1)[0]["subject"].startswith("reveal: ")
    world.assert_published()
    alice = world.player("alice")
    verified = arbiter("verify", alice.folder)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    # No seat's private information in plain text anywhere in the history.
    secrets = private_lines(world)
    assert all(secrets.values()), "every seat has private log lines to look for"
    blobs = all_blobs(world.bare)
    for paths, data in blobs.values():
        if any(p.startswith(f"{world.game}/players/") for p in paths):
            assert data.startswith(MAGIC), paths
        if all(p.endswith(".age") for p in paths):
            continue
        text = data.decode("utf-8", "replace")
        for seat, lines in secrets.items():
            leaked = [line for line in lines if line in text]
            assert not leaked, f"{seat}'s private line {leaked[0]!r} is in plain text in {paths}"
