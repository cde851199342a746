"""The git desk killed at its write points heals by itself (issue 24, item 4).

Each scenario is a fresh world (a sealed tally game published in a bare repository) where
a player has pushed a move, a file that is not one, and a root ``.gitattributes`` the desk
must revert; so one round judges, commits a guard, an entry and a rejection, and pushes.
(The ``timeout`` kind: a game with a deadline whose waiting seat is late, so the round
records a timeout entry and commits it.) The reference is the same round run in this
process, tracing its write points (and, in the slow test, a real ``arbiter git run --once
--push`` must end as it did). For each write point N, a fresh scenario runs the real
command with ``ARBITER_FAILPOINT=N`` (SIGKILL there, before that durable write), then once
more without, and must end as the reference did:

- every entry has exactly one commit titled as the reference's ("entry #3: move by alice"),
  each inbox file was answered in exactly one pushed commit, with the reference's line,
  and the revert of ``.gitattributes`` is announced exactly once;
- the published game is the reference's (sealed files compared decrypted: age is
  randomized), the inbox is empty, the files the desk owns are its own, and no temporary
  file is left in the referee's folder;
- the desk's record names the remote's head, with nothing pending, and the referee's clone
  is at that head;
- ``arbiter verify`` passes on a fresh clone.

A kill before the push may add one ``update:`` commit (the referee's folder ran ahead of
the repository); nothing else differs. The quick test kills at three points of the move
round (a receipt half written, before and after the push) and one of the timeout round
(after the chain's commit), against the round traced in this process (the same code path); the
exhaustive one (slow) at every point of both, against a real run as well.
"""

from __future__ import annotations

import linecache
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.tables import REFEREE_SEED, SECRET, make_keys

from arbiter.core import gamedir
from arbiter.core.referee import new_game
from arbiter.core.replay import verify
from arbiter.core.sealing import unpad, unseal
from arbiter.desks.git import desk as desk_module
from git.gitkit import World, arbiter, cli_env, git, make_world

KILLED = -signal.SIGKILL
WORKERS = max(2, min(4, os.cpu_count() or 1))
NOW = "2026-06-02T00:00:01Z"
KINDS = ("move", "timeout")
REVERTED = "guard: someone else's .gitattributes reverted"


# -- one scenario ---------------------------------------------------------------------


def move_scenario(tmp: Path) -> World:
    world = make_world(tmp)
    alice = world.player("alice")
    (alice.clone / ".gitattributes").write_bytes(b"* text eol=crlf\n")
    git(alice.clone, "add", ".gitattributes")
    git(alice.clone, "commit", "-q", "-m", "line ends")
    alice.push()
    alice.push_file("bad.txt", b"not a move\n")
    alice.push_file("m.json.age", alice.move())
    return world


def timeout_scenario(tmp: Path) -> World:
    """A game with a one-day deadline, published the day before ``NOW``: the first seat
    is late when the round runs."""
    seats = ["alice", "bob"]
    keys = make_keys(tmp / "keys", seats)
    secret = tmp / "secret" / "g1"
    new_game(secret, "tally", [(s, f"{keys[s]}.pub") for s in seats], {}, join=False,
             game_id="clock-git", created="2026-06-01T00:00:00Z", secret=SECRET,
             referee_seed=REFEREE_SEED, sealed=True, deadline=86400, on_timeout="pass")
    bare = tmp / "remote.git"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(bare))
    referee = tmp / "referee-clone"
    git(tmp, "clone", "-q", str(bare), str(referee))
    world = World(tmp, bare, referee, secret, keys, seats)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARBITER_NOW", "2026-06-01T00:00:00Z")
        world.round()  # published; nobody is late yet
    return world


SCENARIOS: dict[str, Callable[[Path], World]] = {"move": move_scenario, "timeout": timeout_scenario}


def run_desk(world: World, failpoint: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {**cli_env(), "ARBITER_NOW": NOW}
    if failpoint is not None:
        env["ARBITER_FAILPOINT"] = str(failpoint)
    return arbiter("git", "run", world.referee, "--game", world.game, "--secret-dir",
                   world.secret, "--once", "--push", env=env)


def show(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr}"


# -- what a scenario ended with -------------------------------------------------------


@dataclass
class Ending:
    entries: list[str]  # "entry #N: ..." subjects, oldest first
    answers: dict[str, list[str]]  # inbox file -> the lines of the commits that answered it
    others: list[str]  # subjects of the referee's other commits since the scenario began
    reverted: int  # commits announcing the revert of someone else's .gitattributes
    files: dict[str, Any]  # the published game, sealed files decrypted


def referee_commits(world: World, since: str) -> list[tuple[str, str]]:
    """(subject, body) of the referee's commits after ``since`` on main, oldest first."""
    out = git(world.bare, "log", "--reverse", "--author=arbiter referee",
              "--format=%x01%s%x02%b", f"{since}..main")
    return [tuple(chunk.split("\x02", 1)) for chunk in out.split("\x01")[1:]]  # type: ignore[misc]


def published(world: World) -> dict[str, Any]:
    files: dict[str, Any] = {}
    for path, (_, data) in world.remote_files().items():
        if path == "public/sealed.json":
            continue  # its digests name random ciphertexts: verify checks it
        if path.endswith(".age"):
            seat = path.split("/")[1] if path.startswith("players/") else None
            keys = [world.keys[seat]] if seat else list(world.keys.values())
            files[path] = next(unpad(unseal(data, key, path)) for key in keys)
        else:
            files[path] = data
    return files


def ending(world: World, since: str) -> Ending:
    commits = referee_commits(world, since)
    answers: dict[str, list[str]] = {}
    for _, body in commits:
        for line in body.splitlines():
            match = re.match(r"(inbox/[^:]+): (.*)", line)
            if match:
                answers.setdefault(match.group(1), []).append(match.group(2))
    entries = [s for s, _ in commits if s.startswith("entry #")]
    others = [s for s, _ in commits if not s.startswith("entry #")]
    reverted = sum(REVERTED in s or REVERTED in b for s, b in commits)
    return Ending(entries, answers, others, reverted, published(world))


def check_healed(world: World, since: str, reference: Ending, what: str) -> None:
    got = ending(world, since)
    assert got.entries == reference.entries, f"{what}: {got.entries}"
    assert got.answers == reference.answers, f"{what}: {got.answers}"
    assert got.reverted == reference.reverted, f"{what}: {got.others}"
    extra = [s for s in got.others if s not in reference.others]
    assert all(s.startswith("update: ") for s in extra) and len(extra) <= 1, f"{what}: {extra}"
    assert got.files == reference.files, what
    world.assert_published()
    assert world.inbox() == [], what
    strays = [p for p in world.secret.rglob("*.tmp")]
    assert strays == [], f"{what}: temporary files left: {strays}"
    record = (world.secret / "referee" / "git" / "state.json").read_text()
    head = world.head()
    assert f'"commit": "{head}"' in record and "pending" not in record, f"{what}: {record}"
    assert git(world.referee, "rev-parse", "HEAD") == head, what
    reader = world.tmp / "reader"
    git(world.tmp, "clone", "-q", str(world.bare), str(reader))
    verify(reader / world.game)


# -- the trace of write points --------------------------------------------------------


@dataclass(frozen=True)
class Point:
    n: int
    where: str

    def __str__(self) -> str:
        return f"#{self.n} {self.where}"


def trace(world: World) -> list[Point]:
    """Run one round here, recording each write point: the file written, or the desk's
    own comment on the line of its ``write_point()``."""
    points: list[Point] = []

    def record() -> None:
        frame = sys._getframe(1)
        if frame.f_code.co_name == "atomic_write":
            path = Path(frame.f_locals["path"]).relative_to(world.tmp).as_posix()
            stage = "written" if Path(frame.f_locals["tmp"]).exists() else "replaced"
            where = f"{path} {stage}"
        else:
            where = linecache.getline(frame.f_code.co_filename, frame.f_lineno).split("#")[-1]
        points.append(Point(len(points) + 1, where.strip()))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gamedir, "write_point", record)
        patch.setattr(desk_module, "write_point", record)
        patch.setenv("ARBITER_NOW", NOW)
        world.desk().round()
    return points


def quick_points(kind: str, points: list[Point]) -> list[int]:
    def first(text: str) -> int:
        return next(p.n for p in points if text in p.where)

    chain = first("g1/chain.jsonl replaced")
    if kind == "timeout":
        return [chain]
    # The timeout round covers the chain's commit; here a temporary file left in the
    # desk's folder, and both sides of the push.
    receipt = first("receipts/bad.txt.txt written")
    return [receipt, first("committed; not pushed"), first("pushed; not recorded")]


# -- the runs -------------------------------------------------------------------------


@dataclass
class Outcome:
    point: int
    killed: bool
    world: World
    since: str


def crash_and_recover(tmp: Path, kind: str, point: int) -> Outcome:
    world = SCENARIOS[kind](tmp / f"{kind}-{point:02d}")
    since = world.head()
    first = run_desk(world, point)
    if first.returncode == 0:
        return Outcome(point, False, world, since)
    assert first.returncode == KILLED, f"{kind} #{point}: {show(first)}"
    again = run_desk(world)
    assert again.returncode == 0, f"{kind} #{point} (after the kill): {show(again)}"
    return Outcome(point, True, world, since)


def parallel(function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(function, items))


def expected(end: Ending, kind: str) -> None:
    """What one uninterrupted round must do."""
    if kind == "move":
        assert end.entries == ["entry #3: move by alice"], end
        assert end.reverted == 1 and sorted(end.answers) == ["inbox/bad.txt", "inbox/m.json.age"]
        assert end.others == ["guard: someone else's .gitattributes reverted to the referee desk's own"]
    else:
        assert end.entries == ["entry #1: timeout of alice (pass)"] and end.others == [], end


def reference_and_trace(tmp: Path, kind: str, real: bool) -> tuple[Ending, list[Point]]:
    """The traced round's ending and write points; with ``real``, the ending of a real
    ``arbiter git run`` too, which the traced round must match."""
    traced = SCENARIOS[kind](tmp / f"{kind}-trace")
    traced_since = traced.head()
    points = trace(traced)
    end = ending(traced, traced_since)
    expected(end, kind)
    if real:
        reference = SCENARIOS[kind](tmp / f"{kind}-reference")
        since = reference.head()
        done = run_desk(reference)
        assert done.returncode == 0, show(done)
        check_healed(reference, since, end, "the real run")
    return end, points


def kill_and_check(tmp: Path, kind: str, runs: list[int], reference: Ending,
                   points: list[Point]) -> list[Outcome]:
    outcomes = parallel(lambda point: crash_and_recover(tmp, kind, point), runs)
    for outcome in outcomes:
        where = points[outcome.point - 1] if outcome.point <= len(points) else "past the end"
        check_healed(outcome.world, outcome.since, reference, f"{kind} killed at {where}")
    return outcomes


@pytest.mark.parametrize("kind", KINDS)
def test_the_desk_killed_at_its_key_write_points_heals(tmp_path: Path, kind: str) -> None:
    reference, points = reference_and_trace(tmp_path, kind, real=False)
    runs = quick_points(kind, points)
    outcomes = kill_and_check(tmp_path, kind, runs, reference, points)
    assert all(o.killed for o in outcomes), [str(points[o.point - 1]) for o in outcomes]


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_desk_killed_at_every_write_point_heals(tmp_path: Path, kind: str) -> None:
    reference, points = reference_and_trace(tmp_path, kind, real=True)
    runs = list(range(1, len(points) + 2))  # one past the last: a run that finishes
    outcomes = kill_and_check(tmp_path, kind, runs, reference, points)
    # The subprocess passes the same points as the trace: each kill lands, the extra one not.
    assert [o.killed for o in outcomes] == [True] * len(points) + [False]
    print("\n".join(str(p) for p in points))
