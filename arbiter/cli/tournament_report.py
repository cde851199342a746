"""``arbiter tournament report``: the standings files (and, later, the tournament's site).

Kept apart from ``arbiter/cli/tournament.py`` so the report can grow on its own.
"""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output

FOLDER = typer.Argument(
    ..., help="The tournament folder (private: it holds each game's secret).", metavar="T"
)
JSON = typer.Option(False, "--json", help="Print JSON.")


def register(app: typer.Typer) -> None:
    app.command("report")(report)


def report(
    root: Path = FOLDER,
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Where to write the report (default: T).", metavar="DIR"
    ),
    as_json: bool = JSON,
) -> None:
    """Write standings.md and standings.html: the standings and every game with its log."""
    from arbiter.tournament import folder
    from arbiter.tournament.report import write
    from arbiter.tournament.standings import read_results, standings

    out = Output(as_json)
    tournament = folder.load(root)
    results = read_results(root, tournament)
    from arbiter.tournament.rounds import lot_seed

    ranked = standings(tournament, results, lot_seed=lot_seed(root, tournament))
    written = write(root, tournament, ranked, results, output or root)
    if as_json:
        out.json(
            {"markdown": str(written.markdown), "html": str(written.html), "json": str(written.json)}
        )
        return
    out.line(f"wrote {written.markdown}")
    out.line(f"wrote {written.html}")
    out.line(f"wrote {written.json}")
