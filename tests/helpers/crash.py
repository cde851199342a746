"""Kill real ``arbiter`` processes at their write points, and read what they left.

``ARBITER_FAILPOINT=N`` (``arbiter.core.gamedir.write_point``) makes a process SIGKILL
itself at its N-th write point: just before and just after each atomic rename. The crash
tests run a command on fresh copies of one folder, killed at point 1, 2, 3, … (or at a
few chosen points in the default run), then check that the next command finishes the
job. Shared by ``tests/core/test_crash_*.py`` and ``tests/tournament/test_tournament_crash.py``.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

REPO = Path(__file__).resolve().parents[2]
KILLED = -signal.SIGKILL
WORKERS = max(1, min(4, os.cpu_count() or 1))
# What a run given ARBITER_FAILPOINT=count prints at exit.
COUNTED = re.compile(r"arbiter: failpoint: (\d+) write points")

T = TypeVar("T")
R = TypeVar("R")


# -- running arbiter ------------------------------------------------------------------


def env(failpoint: int | str | None = None, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a subprocess: the tally engine importable, maybe a failpoint."""
    out = {k: v for k, v in os.environ.items() if k not in ("ARBITER_FAILPOINT", "ARBITER_NOW")}
    out["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO / "tests"), str(REPO), os.environ.get("PYTHONPATH")])
    )
    out["ARBITER_ENGINES"] = "tally=testgame:TallyEngine"
    out["COLUMNS"] = "200"
    out.update(extra or {})
    if failpoint is not None:
        out["ARBITER_FAILPOINT"] = str(failpoint)
    return out


@functools.cache
def command() -> tuple[str, ...]:
    """``python -m arbiter`` if it runs, else the venv's ``arbiter`` script."""
    module = (sys.executable, "-m", "arbiter")
    probe = subprocess.run(
        [*module, "--help"], capture_output=True, env=env(), timeout=120, check=False
    )
    if probe.returncode == 0:
        return module
    script = shutil.which("arbiter", path=str(Path(sys.executable).parent)) or shutil.which(
        "arbiter"
    )
    assert script, "neither `python -m arbiter` nor an `arbiter` script runs"
    return (script,)


def arbiter(
    *args: Any, failpoint: int | str | None = None, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``arbiter ARGS...`` in a fresh process (killed at write point ``failpoint``, or
    counting them with ``"count"``; ``extra``: more environment, e.g. ``ARBITER_NOW``)."""
    return subprocess.run(
        [*command(), *map(str, args)],
        capture_output=True,
        text=True,
        env=env(failpoint, extra),
        timeout=120,
        check=False,
    )


def show(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr}"


def parallel(function: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """Map ``function`` over ``items`` in threads (each call waits on subprocesses)."""
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(function, items))


def sweeps(*few: int) -> list[Any]:
    """Parameters for a crash test: the write points ``few`` in the default run (negative:
    counted from the last, -1 being the last), every write point (``None``) in the slow run."""
    return [
        pytest.param(few, id="few-points"),
        pytest.param(None, id="every-point", marks=pytest.mark.slow),
    ]


# -- killing --------------------------------------------------------------------------


def copy(source: Path, dest: Path) -> Path:
    shutil.copytree(source, dest, symlinks=True)
    return dest


@dataclass
class Killed:
    """A copy of the folder as a process killed at write point ``point`` left it."""

    point: int
    folder: Path
    copies: dict[str, Path] = field(default_factory=dict)


def kill_at_write_points(
    pristine: Path,
    work: Path,
    args: Callable[[Path], list[Any]],
    points: Sequence[int] | None = None,
    *,
    extra: dict[str, str] | None = None,
    look: Callable[[Killed], None] = lambda killed: None,
    copies: Iterable[str] = (),
) -> tuple[list[Killed], Path]:
    """Run ``arbiter ARGS`` on copies of ``pristine``, each killed at one write point.

    ``points``: exactly these (negative ones counted from the last), after a run that
    counts them; ``None``: 1, 2, 3, … until a run exits normally. Return the kills and the
    folder of a run that was not killed (the reference). ``look`` inspects each killed
    folder, and it is copied under the names in ``copies``, before anything else touches it.
    """
    names = list(copies)
    kills: list[Killed] = []

    def run(point: int | str) -> subprocess.CompletedProcess[str]:
        return arbiter(*args(work / f"n{point:02}"), failpoint=point, extra=extra)

    def killed(point: int, result: subprocess.CompletedProcess[str]) -> None:
        assert result.returncode == KILLED, f"write point {point}: {show(result)}"
        folder = work / f"n{point:02d}"
        done = Killed(point, folder)
        look(done)
        for name in names:
            done.copies[name] = copy(folder, work / f"n{point:02d}-{name}")
        kills.append(done)

    if points is not None:
        reference = copy(pristine, work / "ncount")
        counted = run("count")
        assert counted.returncode == 0, show(counted)
        found = COUNTED.search(counted.stderr)
        total = int(found.group(1)) if found else 0
        chosen = sorted({total + 1 + p if p < 0 else p for p in points})
        assert all(1 <= p <= total for p in chosen), f"{points} among {total} write points"
        for point in chosen:
            copy(pristine, work / f"n{point:02d}")
        for point, result in zip(chosen, parallel(run, chosen), strict=True):
            killed(point, result)
        return kills, reference

    start = 1
    while True:
        assert start < 400, "a run never got past its last write point"
        batch = list(range(start, start + WORKERS))
        for point in batch:
            copy(pristine, work / f"n{point:02d}")
        for point, result in zip(batch, parallel(run, batch), strict=True):
            if result.returncode == 0:
                # Past the last write point: this run did the whole job (the points after
                # it in the batch did too).
                return kills, work / f"n{point:02d}"
            killed(point, result)
        start += WORKERS


# -- reading a game folder ------------------------------------------------------------


def chain(root: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (root / "chain.jsonl").read_text().splitlines()]


def state_files(root: Path) -> list[Path]:
    return [root / "public" / "state.json", *sorted((root / "players").glob("*/state.json"))]


def temporaries(root: Path) -> list[Path]:
    """Every ``*.tmp`` file anywhere under ``root`` (hidden ones included)."""
    return [
        Path(folder, name)
        for folder, _, names in os.walk(root)
        for name in names
        if name.endswith(".tmp")
    ]


def signed_lines(root: Path) -> int:
    return len((root / "referee" / "signed.jsonl").read_bytes().splitlines())


def behind(root: Path) -> list[Path]:
    """The state files that do not show the chain's last entry."""
    last = chain(root)[-1]
    late = []
    for path in state_files(root):
        state = json.loads(path.read_bytes())
        if (state["seq"], state["head"]) != (last["seq"], last["hash"]):
            late.append(path)
    return late


def receipted(root: Path) -> list[int]:
    """The entries that get a receipt: every one but genesis and the referee's timeouts."""
    return [e["seq"] for e in chain(root) if e["seq"] and e["kind"] != "timeout"]


def assert_at_head(root: Path, seq: int) -> None:
    """The chain ends at entry ``seq`` and every derived file agrees with it."""
    last = chain(root)[-1]
    assert last["seq"] == seq, f"{root}: the chain ends at #{last['seq']}, not #{seq}"
    for path in state_files(root):
        state = json.loads(path.read_bytes())
        assert (state["seq"], state["head"]) == (last["seq"], last["hash"]), (
            f"{path} shows entry #{state['seq']}, the chain ends at #{last['seq']}"
        )
    assert not temporaries(root), temporaries(root)
    assert signed_lines(root) == seq, "referee/signed.jsonl does not match the chain"
    for entry in receipted(root):
        assert (root / "referee" / "receipts" / f"{entry}.json").is_file(), f"no receipt {entry}"


def assert_verifies(root: Path) -> None:
    result = arbiter("verify", root)
    assert result.returncode == 0, show(result)


def assert_nothing_to_repair(root: Path) -> None:
    result = arbiter("repair", root)
    assert result.returncode == 0, show(result)
    assert "nothing to repair" in result.stdout, show(result)
