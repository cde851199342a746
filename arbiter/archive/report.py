"""The archive report: every game's result in folder order, and the totals.

The report is plain data and depends only on the folders' contents: the same archive
gives the same bytes whether one process, a pool or a Dask cluster verified it (timings
belong to the human output only).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arbiter.archive.folders import sort_key
from arbiter.archive.job import Result

FORMAT = "arbiter.archive-report/1"
NAMED = 3
"""How many failing games the one-line error names before "and N more"."""
MESSAGE_LIMIT = 160


def build(results: Iterable[Result]) -> dict[str, Any]:
    """Return the report of ``results`` (in any order)."""
    rows = sorted(results, key=lambda row: sort_key(row["folder"]))
    failed = sum(not row["ok"] for row in rows)
    return {
        "format": FORMAT,
        "ok": failed == 0,
        "games": len(rows),
        "passed": len(rows) - failed,
        "failed": failed,
        "replayed": sum(row["ok"] and row["revealed"] for row in rows),
        "entries": sum(row["entries"] for row in rows),
        "results": rows,
    }


def failures(report: dict[str, Any]) -> list[Result]:
    return [row for row in report["results"] if not row["ok"]]


def failure_line(report: dict[str, Any]) -> str:
    """One line naming the failing games and each one's first problem (the first few)."""
    bad = failures(report)
    named = "; ".join(f"{row['folder']}: {_short(row['error'])}" for row in bad[:NAMED])
    more = f"; and {len(bad) - NAMED} more" if len(bad) > NAMED else ""
    games = "game" if report["games"] == 1 else "games"
    return f"{len(bad)} of {report['games']} {games} failed verification — {named}{more}"


def _short(message: str | None) -> str:
    text = message or "failed"
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"
