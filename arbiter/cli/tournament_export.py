"""``arbiter tournament export``: the tournament as one file, arbiter TRF or JSON (docs/trf.md).

Kept apart from ``arbiter/cli/tournament.py`` so the export can grow on its own.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

FORMATS = ("trf", "json")


def register(app: typer.Typer) -> None:
    app.command("export")(export)


def export(
    root: Path = typer.Argument(
        ..., help="The tournament folder (the published one is enough).", metavar="T"
    ),
    kind: str = typer.Option(
        "trf", "--format", "-f", help="trf (arbiter TRF, lines) or json.", metavar="FORMAT"
    ),
    output: Path | None = typer.Option(
        None,
        "--output",
        "-o",
        help="Write to this file (default: standard output).",
        metavar="FILE",
    ),
) -> None:
    """Export the tournament — terms, players, every round's tables and results, byes and
    the standings with each tie-break — as arbiter TRF or JSON; the standings can be
    recomputed from the file alone. The same folder always gives the same bytes."""
    from arbiter.cli.output import Output
    from arbiter.core.errors import UsageError
    from arbiter.core.gamedir import atomic_write
    from arbiter.tournament import export_data, trf

    if kind not in FORMATS:
        raise UsageError(f"--format must be trf or json, not {kind[:20]!r}")
    data = export_data.collect(root)
    made = trf.render(data).encode() if kind == "trf" else export_data.to_json(data)
    if output is None:
        sys.stdout.buffer.write(made)
        sys.stdout.buffer.flush()
        return
    atomic_write(output, made)
    Output().line(f"wrote {output}: {data.tournament} as {kind} ({len(made):,} bytes)")
