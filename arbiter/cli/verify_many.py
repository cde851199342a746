"""``arbiter verify DIR...`` over many games: a local pool or a Dask cluster, one report.

``arbiter tournament verify T`` calls ``run`` too. The JSON report is the same bytes
whichever backend ran (no timings, no host names); the human output adds the time taken.
"""

from __future__ import annotations

import sys
import time  # noqa: TID251 — the CLI's edge times the run for people; no result depends on it
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arbiter.archive.job import Result
from arbiter.cli.output import Output


def run(
    folders: list[Path],
    jobs: int | None,
    scheduler: str | None,
    as_json: bool,
    *,
    progress: bool | None = None,
) -> None:
    """Verify every game folder at or below ``folders``; print the report.

    ``jobs``: local worker processes (default: one per core; ``1`` verifies in this
    process). ``scheduler``: a Dask scheduler address instead (``tcp://HOST:PORT``).
    ``progress``: force the progress bar on stderr on or off (default: only when stderr
    is a terminal). Raises ``VerificationFailed`` (exit 16) naming the failing games when
    any fails, after printing the report.
    """
    from arbiter.archive import folders as finding
    from arbiter.archive import report as reporting
    from arbiter.archive.pool import default_jobs, run_local
    from arbiter.core.errors import UsageError, VerificationFailed

    if jobs is not None and jobs < 1:
        raise UsageError(f"-j {jobs}: give at least one worker process")
    if jobs is not None and scheduler is not None:
        raise UsageError(
            "-j sets local processes and --scheduler sends the games to a Dask cluster: "
            "give one of them"
        )
    games = finding.find(folders)
    workers = jobs if jobs is not None else default_jobs()
    show = sys.stderr.isatty() if progress is None else progress
    started = time.perf_counter()
    with _Progress(len(games), show, started) as bar:
        if scheduler is not None:
            from arbiter.archive.dask_backend import run_dask

            results = run_dask(games, scheduler, bar.advance)
        else:
            results = run_local(games, workers, bar.advance)
    elapsed = time.perf_counter() - started
    report = reporting.build(results)
    out = Output(as_json)
    if as_json:
        out.json(report)
    else:
        where = f"the Dask cluster at {scheduler}" if scheduler else _processes(workers, games)
        _render(out, report, elapsed, where)
    if not report["ok"]:
        raise VerificationFailed(reporting.failure_line(report))


def _processes(workers: int, games: Sequence[Any]) -> str:
    used = 1 if workers <= 1 or len(games) <= 1 else workers
    return "1 process" if used == 1 else f"{used} processes"


def _render(out: Output, report: dict[str, Any], elapsed: float, where: str) -> None:
    """A table of the failed games (each with its first problem), then the passed ones."""
    from arbiter.archive.report import failures

    rows = [
        [row["folder"], row["game"] or "?", f"FAILED ({row['code']})", row["error"] or ""]
        for row in failures(report)
    ]
    passed = report["passed"]
    if passed:
        public_only = passed - report["replayed"]
        detail = f"{report['replayed']} replayed after reveal byte for byte"
        if public_only:
            detail += f", {public_only} not revealed yet: public files consistent"
        rows.append([f"{passed} game folders", "", "ok", detail + f"; {report['entries']} entries"])
    out.table("arbiter verify", ["folder", "game", "result", "first problem / checks"], rows)
    rate = report["games"] / elapsed if elapsed > 0 else 0.0
    out.line(
        f"verified {report['games']} games in {elapsed:.1f} s ({rate:.0f} games/s, {where}): "
        f"{passed} passed, {report['failed']} failed"
    )


class _Progress:
    """A rich progress bar on stderr (games done / total, games/s, failures so far).

    It refreshes when results arrive, never from a thread of its own: the local pool may
    fork its workers after it started, and a fork must not copy a running thread.
    """

    def __init__(self, total: int, enabled: bool, started: float):
        self.total, self.enabled, self.started = total, enabled, started
        self.done = self.failed = 0
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        if not self.enabled:
            return self
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._bar = Progress(
            TextColumn("verifying"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games · {task.fields[rate]} games/s · {task.fields[failed]} failed"),
            TimeElapsedColumn(),
            console=Console(stderr=True, highlight=False, markup=False, emoji=False),
            auto_refresh=False,
            transient=False,
        )
        self._task = self._bar.add_task("verify", total=self.total, rate="–", failed=0)
        self._bar.start()
        self._bar.refresh()
        return self

    def advance(self, results: list[Result]) -> None:
        self.done += len(results)
        self.failed += sum(not row["ok"] for row in results)
        if self._bar is None:
            return
        elapsed = time.perf_counter() - self.started
        rate = f"{self.done / elapsed:.0f}" if elapsed > 0 else "–"
        self._bar.update(self._task, completed=self.done, rate=rate, failed=self.failed)
        self._bar.refresh()

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
