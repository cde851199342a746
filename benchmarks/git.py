"""Measure the git desk: per-entry cost against a bare `git pull && git commit && git push`.

    python benchmarks/git.py [--entries 40] [--cli 6]

One bare repository on disk, a sealed 2-player Mottainai game published into it, the
referee's clone, a player's clone and a "hand" clone. The player's sealed moves are
signed ahead on a scratch copy of the game (same secret, same deal, same heads). Then,
in turns, in the same repository:

- desk: the player pushes a move into the inbox; one round of a running desk
  (`GitDesk.round()`: fetch, judge, one commit, push, check out) is timed;
- bare git: the player pushes a file outside the game folder; in the hand clone
  `git pull`, a one-line edit, `git commit -am` and `git push` are timed (three
  commands, as a person types them).

The ratio of the medians is DESIGN.md's figure (budget ≤ 1.5×). The desk's time is split
into judging (`submit`, which replays the game) and the rest (git and the desk's own
work). `--cli N` also times N rounds of the real `arbiter git run --once --push`, whose
extra cost is the interpreter's start-up (a CI job or cron pays it, a running desk does
not). Nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from git.gitkit import GIT_ENV, ISOLATED, Player, git, make_world

import arbiter.desks.git.judge as judge_module
from arbiter.core.player import load_state, make_move, seal_move
from arbiter.core.referee import submit

SEATS = ("alice", "bob")
ENV = {**os.environ, **GIT_ENV}


def sign_ahead(secret: Path, keys: dict[str, Path], scratch: Path, count: int) -> list[tuple[str, bytes]]:
    """The first ``count`` moves (seat, sealed bytes), first legal decision each time."""
    shutil.copytree(secret, scratch, symlinks=True)
    moves = []
    for _ in range(count):
        public = json.loads((scratch / "public" / "state.json").read_bytes())
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seat"]
        state = load_state(scratch / "players" / seat / "state.json.age", keys[seat])
        sealed = seal_move(make_move(state, keys[seat], [state["legal"][0]]), scratch / "game.json")
        submit(scratch, sealed, "move")
        moves.append((seat, sealed))
    return moves


def sh(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=ENV, check=True, capture_output=True)


def bare_git_round(hand: Path, n: int) -> float:
    """`git pull && (edit) && git commit -am && git push`, timed."""
    start = time.perf_counter()
    sh(hand, "pull", "-q", "--no-rebase", "origin", "main")
    (hand / "notes.txt").write_text(f"entry {n}\n")
    sh(hand, "commit", "-q", "-am", f"entry {n}")
    sh(hand, "push", "-q", "origin", "HEAD:main")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=40)
    parser.add_argument("--cli", type=int, default=6)
    args = parser.parse_args()
    os.environ.update(ISOLATED)  # the desk runs in this process: no user git configuration
    work = Path(tempfile.mkdtemp(prefix="arbiter-bench-git-"))
    try:
        world = make_world(work, engine="mottainai", seats=SEATS, game_id="bench-git")
        moves = sign_ahead(world.secret, world.keys, work / "scratch", args.entries + args.cli)
        player: Player = world.player("alice")
        hand = work / "hand"
        git(work, "clone", "-q", str(world.bare), str(hand))
        (hand / "notes.txt").write_text("notes\n")
        sh(hand, "add", "notes.txt")
        sh(hand, "commit", "-q", "-m", "notes")
        sh(hand, "push", "-q", "origin", "HEAD:main")
        desk = world.desk()
        desk.round()
        judging = [0.0]
        name = "submit_deferred" if hasattr(judge_module, "submit_deferred") else "submit"
        original = getattr(judge_module, name)

        def timed_submit(*a, **k):
            start = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                judging[0] += time.perf_counter() - start

        setattr(judge_module, name, timed_submit)
        desk_times, bare_times, judge_times = [], [], []
        for n, (seat, sealed) in enumerate(moves[: args.entries]):
            player.seat = seat
            player.push_file(f"{n:03d}-{seat}.json.age", sealed)
            judging[0] = 0.0
            start = time.perf_counter()
            result = desk.round()
            desk_times.append(time.perf_counter() - start)
            judge_times.append(judging[0])
            assert [h.accepted for h in result.files] == [True], result.files
            chat = player.clone / "chat" / f"{n:03d}.txt"
            chat.parent.mkdir(exist_ok=True)
            chat.write_text("hello\n")
            sh(player.clone, "add", "chat")
            sh(player.clone, "commit", "-q", "-m", "chat")
            player.push()
            bare_times.append(bare_git_round(hand, n))
        setattr(judge_module, name, original)
        cli_times = []
        for n, (seat, sealed) in enumerate(moves[args.entries :], start=args.entries):
            player.seat = seat
            player.push_file(f"{n:03d}-{seat}.json.age", sealed)
            start = time.perf_counter()
            done = world.run()
            cli_times.append(time.perf_counter() - start)
            assert done.returncode == 0 and "accepted" in done.stdout, done
        world.assert_published()

        med = statistics.median
        desk_m, bare_m = med(desk_times), med(bare_times)
        print(
            f"git desk: {len(desk_times)} entries of a sealed 2-player Mottainai game, "
            f"each pull+judge+commit+push {desk_m * 1000:.0f} ms (median; mean "
            f"{statistics.mean(desk_times) * 1000:.0f} ms) vs bare git pull+commit+push "
            f"{bare_m * 1000:.0f} ms (mean {statistics.mean(bare_times) * 1000:.0f} ms): "
            f"{desk_m / bare_m:.2f}x; budget ≤ 1.5x"
        )
        print(
            f"  desk time: judging (submit) {med(judge_times) * 1000:.0f} ms, git and the "
            f"desk's own work {(desk_m - med(judge_times)) * 1000:.0f} ms"
        )
        if cli_times:
            print(
                f"  `arbiter git run --once --push` as a fresh process (CI, cron): "
                f"{med(cli_times) * 1000:.0f} ms per entry = {med(cli_times) / bare_m:.2f}x "
                "(adds the interpreter's start-up)"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
