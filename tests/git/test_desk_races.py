"""Pushes race the referee: it rebuilds on the new head, never forces, handles each file once."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from arbiter.core.replay import verify
from arbiter.desks.git.plumbing import ZERO
from git.gitkit import Player, World, git


def fast_forwards_only(world: World) -> int:
    """Check the bare repository's reflog: every new head descends from the one before."""
    lines = (world.bare / "logs" / "refs" / "heads" / "main").read_text().splitlines()
    for line in lines:
        old, new = line.split()[:2]
        if old != ZERO:
            assert git(world.bare, "merge-base", "--is-ancestor", old, new, check=False) == "", line
            done = git(world.bare, "rev-list", "--count", f"{new}..{old}")
            assert done == "0", f"{old} -> {new} dropped commits"
    return len(lines)


def handled_once(world: World, names: list[str]) -> None:
    """Each file was judged in exactly one pushed referee commit, and has its receipt."""
    bodies = git(world.bare, "log", "--author=arbiter referee", "--format=%b", "main")
    for name in names:
        count = len(re.findall(rf"^inbox/{re.escape(name)}: ", bodies, re.M))
        assert count == 1, f"{name} was handled {count} times"
        assert f"receipts/{name}.txt" in world.remote_files()


def test_a_refused_push_is_rebuilt_on_the_new_head(world: World) -> None:
    alice, bob = world.player("alice"), world.player("bob")
    alice.push_file("m.json.age", alice.move())
    alice.push_file("again.txt", b"first version")
    desk = world.desk()
    desk.prepare()
    real_push = desk.git.push
    pushed_meanwhile: list[str] = []

    def push_after_bob(remote: str, commit: str, branch: str) -> bool:
        if not pushed_meanwhile:  # bob pushes between the desk's fetch and its push
            pushed_meanwhile.append(bob.push_file("late.txt", b"late"))
            alice.pull()
            alice.push_file("again.txt", b"second version")  # a handled file, changed again
        return real_push(remote, commit, branch)

    desk.git.push = push_after_bob  # type: ignore[method-assign]
    result = desk.round()
    assert result.retries == 1 and result.pushed == world.head()
    assert [h.file for h in result.files] == ["inbox/m.json.age", "inbox/again.txt"]
    # The same commits, rebuilt on top of the pushes that came in between.
    git(world.bare, "merge-base", "--is-ancestor", pushed_meanwhile[0], "main")
    assert world.inbox() == ["inbox/again.txt", "inbox/late.txt"]
    assert world.remote_files()["inbox/again.txt"][1] == b"second version"
    world.assert_published()
    later = world.round()
    assert sorted(h.file for h in later.files) == ["inbox/again.txt", "inbox/late.txt"]
    assert world.inbox() == []
    fast_forwards_only(world)


def race(world: World, files_each: int, movers: int = 1) -> int:
    """Three player clones push inbox files while the referee runs rounds with --push."""
    players = [world.player("alice")]
    for name in ("p1", "p2"):
        clone = world.tmp / "clones" / name
        git(world.tmp, "clone", "-q", str(world.bare), str(clone))
        players.append(Player(name, clone, world.keys["bob"], world.game))
    names: list[str] = []
    lock = threading.Lock()
    done = threading.Event()
    failures: list[BaseException] = []

    def play(player: Player) -> None:
        try:
            for i in range(files_each):
                name = f"{player.seat}-{i}.txt"
                if player.seat == "alice" and i < movers:
                    player.pull()
                    name = f"alice-move-{i}.json.age"
                    data = player.move()
                else:
                    data = f"{player.seat} {i}\n".encode()
                player.push_file(name, data)
                with lock:
                    names.append(name)
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    retries = [0]

    def referee() -> None:
        desk = world.desk()
        try:
            while not done.is_set():
                retries[0] += desk.round().retries
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    threads = [threading.Thread(target=play, args=(p,)) for p in players]
    judge = threading.Thread(target=referee)
    judge.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    done.set()
    judge.join(timeout=300)
    assert not failures, failures
    for _ in range(3):
        if not world.inbox():
            break
        world.round()
    assert world.inbox() == []
    assert len(names) == 3 * files_each
    handled_once(world, names)
    assert fast_forwards_only(world) > 1
    world.assert_published()
    players[0].pull()
    verify(players[0].folder)
    return retries[0]


def test_three_clones_race_the_referee(world: World) -> None:
    race(world, files_each=4)


@pytest.mark.slow
@pytest.mark.parametrize("attempt", range(4))
def test_three_clones_race_the_referee_many_times(
    new_world, attempt: int, tmp_path: Path
) -> None:
    retries = race(new_world(), files_each=10, movers=3)
    print(f"refused pushes rebuilt: {retries}")


def test_a_round_whose_push_never_succeeded_is_published_by_the_next(world: World) -> None:
    alice = world.player("alice")
    alice.push_file("m.json.age", alice.move())
    head = world.head()
    desk = world.desk()
    desk.prepare()
    desk.git.push = lambda remote, commit, branch: False  # type: ignore[method-assign]
    import arbiter.desks.git.desk as desk_module

    tries, desk_module.PUSH_TRIES = desk_module.PUSH_TRIES, 2
    try:
        with pytest.raises(Exception, match="was refused 2 times"):
            desk.round()
    finally:
        desk_module.PUSH_TRIES = tries
    assert world.head() == head and world.inbox() == ["inbox/m.json.age"]
    result = world.round()
    assert [h.line for h in result.files] == ["accepted as entry #3 (move by alice)"]
    subjects = [c["subject"] for c in world.log(count=2)]
    assert subjects[0] == "entry #3: move by alice"
    assert subjects[1].startswith("update: the referee's record changed (chain.jsonl, ")
    world.assert_published()
