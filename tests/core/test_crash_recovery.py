"""A crash anywhere heals: real ``arbiter`` processes killed at every write point.

``chain.jsonl`` is the commit point of ``submit`` (``reveal/reveal.json`` of ``reveal``);
every write command first heals the folder (stray temporary files removed, every derived
file brought back to the chain head). These tests SIGKILL real processes — at each write
point through the ``ARBITER_FAILPOINT`` hook of ``arbiter.core.gamedir``, and at random
moments — and check that the next command finishes the job: the same file is accepted
or called a duplicate, the next move is accepted, and ``arbiter verify`` passes.
"""

from __future__ import annotations

import random  # noqa: TID251 - seeded kill moments, not game randomness
import shutil
import signal
import statistics
import subprocess
import time  # noqa: TID251 - a test measures how long a real submit runs
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers.crash import (
    KILLED,
    Killed,
    arbiter,
    assert_at_head,
    assert_verifies,
    behind,
    chain,
    command,
    copy,
    env,
    kill_at_write_points,
    parallel,
    show,
    signed_lines,
    state_files,
    temporaries,
)
from helpers.tables import Table, snapshot, started

from arbiter.core.canonical import pretty
from arbiter.core.player import load_state, make_move

SMALL = {"cards": "4", "hand": "1"}
# A stray temporary file as atomic_write names it: ".<name>.<8 characters>.tmp".
STRAY = "abcd1234"


# -- the position every submit test starts from ---------------------------------------


@dataclass
class Position:
    """A game in progress, the next legal move, and what follows it."""

    table: Table
    pristine: Path  # the game folder before the move
    move: Path  # the next legal move file
    seq: int  # the entry it becomes
    reference: Path  # the folder after the move was accepted without a crash
    instead: Path  # the mover's other legal move (for when a crash lost the move)
    next_seat: str  # who decides after the move
    next_action: dict[str, Any]
    next_move: Path  # their move, built in the reference folder


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> Position:
    base = tmp_path_factory.mktemp("position")
    table = started(base, options=SMALL)
    for _ in range(2):
        table.step()
    seat = table.turn()
    legal = table.state(seat)["legal"]
    assert len(legal) >= 2
    files = base / "files"
    files.mkdir()
    move, instead, next_move = files / "move.json", files / "instead.json", files / "next.json"
    move.write_bytes(pretty(table.move_file(seat, [legal[0]])))
    instead.write_bytes(pretty(table.move_file(seat, [legal[1]])))
    reference = copy(table.root, base / "reference")
    ref = Table(reference, table.keys, table.seats, base / "out")
    seq = ref.submit_bytes(move.read_bytes(), "move.json").seq
    assert ref.state()["status"] == "playing"
    next_seat = ref.turn()
    next_action = ref.state(next_seat)["legal"][0]
    next_move.write_bytes(pretty(ref.move_file(next_seat, [next_action])))
    return Position(
        table, table.root, move, seq, reference, instead, next_seat, next_action, next_move
    )


# -- killed at each write point -------------------------------------------------------


@dataclass
class Crash:
    """A folder as a process killed at write point ``point`` left it (before any heal)."""

    point: int
    folder: Path
    entries: int  # chain entries, genesis included
    signed: int  # lines of referee/signed.jsonl
    behind: list[Path]  # state files not at the chain head
    temporaries: list[Path]
    copies: dict[str, Path] = field(default_factory=dict)


def kill_at_each_write_point(
    pristine: Path, work: Path, args: Callable[[Path], list[Any]], copies: Iterable[str] = ()
) -> tuple[list[Crash], Path]:
    """Run ``arbiter ARGS`` on copies of ``pristine`` killed at write point 1, 2, 3, …
    until a run exits normally; return the crashes and the folder of that last run.

    Each crashed folder is inspected, and copied under the names in ``copies``, before
    anything else touches it.
    """
    seen: dict[int, Crash] = {}

    def look(killed: Killed) -> None:
        folder = killed.folder
        seen[killed.point] = Crash(
            killed.point,
            folder,
            len(chain(folder)),
            signed_lines(folder),
            behind(folder),
            temporaries(folder),
        )

    kills, last = kill_at_write_points(pristine, work, args, look=look, copies=copies)
    crashes = []
    for killed in kills:
        crash = seen[killed.point]
        crash.copies = killed.copies
        crashes.append(crash)
    return crashes, last


def test_submit_killed_at_each_write_point_heals(position: Position, tmp_path: Path) -> None:
    seq = position.seq
    crashes, last = kill_at_each_write_point(
        position.pristine,
        tmp_path,
        lambda folder: ["submit", folder, position.move],
        copies=("next", "repair"),
    )
    # The run that was not killed did the whole job.
    assert snapshot(last) == snapshot(position.reference)

    # The crashes covered the whole write sequence, the dangerous windows included
    # (observed before anything healed the folders).
    assert len(crashes) >= 6, [c.point for c in crashes]
    assert any(c.temporaries for c in crashes), "no crash left a temporary file"
    assert any(c.signed > c.entries - 1 for c in crashes), "no crash between signed and chain"
    assert any(c.entries == seq for c in crashes), "no crash before the chain write"
    assert any(c.entries == seq + 1 for c in crashes), "no crash after the chain write"
    assert any(c.behind for c in crashes), "no crash left state files behind the chain"
    for crash in crashes:
        assert crash.entries in (seq, seq + 1), crash
        if crash.behind:
            assert crash.entries == seq + 1  # only the chain runs ahead of the state files

    def resubmit(crash: Crash) -> None:
        """(a) The same file again: accepted if the chain lacks it, else a duplicate."""
        result = arbiter("submit", crash.folder, position.move)
        if crash.entries == seq + 1:
            assert result.returncode == 9, f"point {crash.point}: {show(result)}"
            assert "already accepted" in result.stderr, show(result)
        else:
            assert result.returncode == 0, f"point {crash.point}: {show(result)}"
            assert f"as entry #{seq} " in result.stdout, show(result)
        assert_at_head(crash.folder, seq)
        assert snapshot(crash.folder) == snapshot(position.reference), crash.point
        assert_verifies(crash.folder)

    def carry_on(crash: Crash) -> None:
        """(b) The game is not stuck: the next decision goes through, with no repair
        first (submit heals before it judges)."""
        folder = crash.copies["next"]
        if crash.entries == seq + 1:
            # The move is in: the next seat's move, built against the new head.
            result = arbiter("submit", folder, position.next_move)
            assert result.returncode == 0, f"point {crash.point}: {show(result)}"
            assert f"as entry #{seq + 1} " in result.stdout, show(result)
            assert_at_head(folder, seq + 1)
        else:
            # The move was lost: its seat may decide again, differently.
            result = arbiter("submit", folder, position.instead)
            assert result.returncode == 0, f"point {crash.point}: {show(result)}"
            assert f"as entry #{seq} " in result.stdout, show(result)
            assert_at_head(folder, seq)

    def repair_then_carry_on(crash: Crash) -> None:
        """(b) `arbiter repair` alone finishes a committed move and rolls back one that
        was not, byte for byte; the player on turn then builds from their state file
        the move that `carry_on` saw accepted."""
        folder = crash.copies["repair"]
        repaired = arbiter("repair", folder)
        assert repaired.returncode == 0, f"point {crash.point}: {show(repaired)}"
        for path in crash.behind:
            relative = path.relative_to(crash.folder)
            assert f"repaired {folder / relative}" in repaired.stdout, show(repaired)
        if crash.entries == seq + 1:
            assert snapshot(folder) == snapshot(position.reference), crash.point
            seat, action, expected = position.next_seat, position.next_action, position.next_move
        else:
            assert snapshot(folder) == snapshot(position.pristine), crash.point
            seat = position.table.turn()
            action = position.table.state(seat)["legal"][1]
            expected = position.instead
        state = load_state(folder / "players" / seat / "state.json")
        assert action in state["legal"]
        built = pretty(make_move(state, position.table.keys[seat], [action]))
        # The very file `carry_on` saw accepted in a folder that heals to these bytes.
        assert built == expected.read_bytes()

    parallel(resubmit, crashes)
    parallel(carry_on, crashes)
    parallel(repair_then_carry_on, crashes)


# -- killed at random moments ---------------------------------------------------------

RANDOM_RUNS = 15


# About 15 s of real processes; the issue asks for kills at random moments as well as at
# each write point, so it runs by default.
def test_submit_killed_at_random_moments_heals(position: Position, tmp_path: Path) -> None:
    seq = position.seq
    # How long a whole submit takes here, and when its writes begin (the mtime of
    # referee/signed.jsonl, its first write): the kills land all over the run, and half
    # of them in the writes' window, which is only the last part of it.
    timings, writes = [], []
    for attempt in range(3):
        folder = copy(position.pristine, tmp_path / f"timed{attempt}")
        started_at = time.time_ns()
        result = arbiter("submit", folder, position.move)
        timings.append((time.time_ns() - started_at) / 1e9)
        writes.append((folder / "referee" / "signed.jsonl").stat().st_mtime_ns - started_at)
        assert result.returncode == 0, show(result)
    run_time = statistics.median(timings)
    write_start = min(max(statistics.median(writes) / 1e9, 0.0), run_time)

    rng = random.Random(20260101)

    def spread(low: float, high: float, count: int) -> list[float]:
        return [low + (high - low) * (slot + rng.random()) / count for slot in range(count)]

    whole = RANDOM_RUNS // 2
    delays = spread(0.0, run_time, whole)
    delays += spread(0.9 * write_start, 1.05 * run_time, RANDOM_RUNS - whole)
    runs = []
    for number, delay in enumerate(delays):
        folder = copy(position.pristine, tmp_path / f"r{number:02d}")
        process = subprocess.Popen(
            [*command(), "submit", str(folder), str(position.move)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env(),
        )
        try:
            process.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
        code = process.wait(timeout=120)
        assert code in (0, KILLED), f"run {number} (killed after {delay:.3f}s): exit {code}"
        runs.append((folder, code, len(chain(folder))))
    assert any(code == KILLED for _, code, _ in runs)

    def check(run: tuple[Path, int, int]) -> None:
        folder, code, entries = run
        assert entries in (seq, seq + 1)
        if code == 0:
            assert entries == seq + 1
        result = arbiter("submit", folder, position.move)
        assert result.returncode == (9 if entries == seq + 1 else 0), show(result)
        assert_at_head(folder, seq)
        assert snapshot(folder) == snapshot(position.reference)
        assert_verifies(folder)

    parallel(check, runs)


# -- a crash while healing ------------------------------------------------------------


def test_repair_killed_at_each_write_point_heals(position: Position, tmp_path: Path) -> None:
    """A crash during the heal itself is healed by the next command."""
    # The worst committed crash: the chain (and the signed file) hold the move, nothing
    # derived from it was written.
    base = copy(position.pristine, tmp_path / "committed")
    for name in ("chain.jsonl", "referee/signed.jsonl"):
        shutil.copy2(position.reference / name, base / name)
    assert len(behind(base)) == len(state_files(base))

    crashes, last = kill_at_each_write_point(base, tmp_path, lambda folder: ["repair", folder])
    assert len(crashes) >= 6, [c.point for c in crashes]
    assert snapshot(last) == snapshot(position.reference)

    def again(crash: Crash) -> None:
        result = arbiter("repair", crash.folder)
        assert result.returncode == 0, f"point {crash.point}: {show(result)}"
        assert snapshot(crash.folder) == snapshot(position.reference), crash.point

    parallel(again, crashes)


# -- reveal killed at each write point ------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Table:
    table = started(tmp_path_factory.mktemp("finished"), options=SMALL)
    table.play_to_end()
    return table


def test_reveal_killed_at_each_write_point_heals(finished: Table, tmp_path: Path) -> None:
    seq = chain(finished.root)[-1]["seq"]
    crashes, complete = kill_at_each_write_point(
        finished.root, tmp_path, lambda folder: ["reveal", folder]
    )
    assert len(crashes) >= 6, [c.point for c in crashes]
    revealed = snapshot(complete)

    def recorded(crash: Crash) -> bool:
        return (crash.folder / "reveal" / "reveal.json").is_file()

    def unfinished(crash: Crash) -> bool:
        """A published file (reveal/signed.jsonl, a log) is not yet as a reveal leaves it."""
        now = snapshot(crash.folder)
        published = [name for name in revealed if not name.startswith("referee")]
        return any(now.get(name) != revealed[name] for name in published)

    # Observed before any command heals them: the commit point was crossed with the
    # rest unwritten, and some crashes came before it.
    states = [(recorded(c), unfinished(c)) for c in crashes]
    assert (True, True) in states, "no crash between reveal.json and the logs"
    assert (False, True) in states, "no crash before reveal.json"

    def again(crash: Crash) -> None:
        was_recorded = recorded(crash)
        result = arbiter("reveal", crash.folder)
        if was_recorded:
            assert result.returncode == 17, f"point {crash.point}: {show(result)}"
            assert "already revealed" in result.stderr, show(result)
        else:
            assert result.returncode == 0, f"point {crash.point}: {show(result)}"
        # Either way the folder is now the one an uninterrupted reveal leaves.
        assert not temporaries(crash.folder)
        assert_at_head(crash.folder, seq)
        assert snapshot(crash.folder) == revealed, crash.point
        assert_verifies(crash.folder)
        repaired = arbiter("repair", crash.folder)
        assert repaired.returncode == 0, show(repaired)
        assert "nothing to repair" in repaired.stdout, show(repaired)

    parallel(again, crashes)


# -- stray temporary files ------------------------------------------------------------


@pytest.mark.parametrize("which", ["duplicate", "stale"])
def test_rejected_submit_removes_stray_temporaries(
    position: Position, tmp_path: Path, which: str
) -> None:
    folder = copy(position.reference, tmp_path / "game")
    before = snapshot(folder)
    strays = [
        folder / f".chain.jsonl.{STRAY}.tmp",
        folder / "public" / f".state.json.{STRAY}.tmp",
        folder / "players" / "alice" / f".state.json.{STRAY}.tmp",
        folder / "players" / "alice" / f".log.md.{STRAY}.tmp",
        folder / "referee" / f".signed.jsonl.{STRAY}.tmp",
        folder / "referee" / "receipts" / f".{position.seq + 1}.json.{STRAY}.tmp",
    ]
    for stray in strays:
        stray.write_bytes(b"half a file")
    # A file that only ends in .tmp is not arbiter's: it stays.
    keep = folder / "notes.tmp"
    keep.write_bytes(b"mine")

    move, code = (position.move, 9) if which == "duplicate" else (position.instead, 8)
    result = arbiter("submit", folder, move)
    assert result.returncode == code, show(result)

    assert not any(stray.exists() for stray in strays)
    assert keep.read_bytes() == b"mine"
    keep.unlink()
    assert snapshot(folder) == before


# -- repair on a sound folder ---------------------------------------------------------


def test_repair_on_a_sound_folder_changes_nothing(position: Position, tmp_path: Path) -> None:
    folder = copy(position.reference, tmp_path / "game")

    def stats() -> dict[str, tuple[int, int]]:
        return {
            str(path): (path.stat().st_ino, path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*"))
        }

    before, stat_before = snapshot(folder), stats()
    result = arbiter("repair", folder)
    assert result.returncode == 0, show(result)
    assert "nothing to repair" in result.stdout, show(result)
    assert result.stdout.count("\n") == 1, show(result)
    assert snapshot(folder) == before
    assert stats() == stat_before  # not even rewritten with the same bytes
