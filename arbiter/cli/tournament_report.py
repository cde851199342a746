"""``arbiter tournament report``: the standings files and, with ``--site``, the
tournament's public site (``arbiter.spectate.site``).

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
    site: Path | None = typer.Option(
        None,
        "--site",
        help="Also write the public site there: index.html (standings, rounds, every "
        "table's status and deadline), games/<game>.html (each game's replay page) and "
        "site.json. A new or empty folder, or one this command wrote for this tournament "
        "(run it again after every submit); never under T/games.",
        metavar="DIR",
    ),
    public_delay: str | None = typer.Option(
        None,
        "--public-delay",
        help="With --site: show a running game's replay only this far behind the "
        "referee's clock (72h, 1d12h...), so spectators cannot relay it in time; a game "
        "without deadlines (no entry times) is hidden until it ends. Finished games are "
        "shown whole.",
        metavar="DURATION",
    ),
    as_json: bool = JSON,
) -> None:
    """Write standings.md, standings.html and standings.json: the standings and every
    game with its log; with --site, the tournament's public site too."""
    from arbiter.core.errors import UsageError
    from arbiter.spectate import site_folder
    from arbiter.tournament import folder
    from arbiter.tournament.report import write
    from arbiter.tournament.rounds import lot_seed
    from arbiter.tournament.standings import read_results, standings

    out = Output(as_json)
    delay = None
    if public_delay is not None:
        if site is None:
            raise UsageError("--public-delay is for the site: give --site DIR too")
        from arbiter.core.deadlines import parse_duration

        delay = parse_duration(public_delay, "--public-delay")
    tournament = folder.load(root)
    previous = None
    if site is not None:
        previous = site_folder.check(root, site, tournament.id)  # before anything is written
    results = read_results(root, tournament)
    ranked = standings(tournament, results, lot_seed=lot_seed(root, tournament))
    written = write(root, tournament, ranked, results, output or root)
    report_json: dict[str, object] = {
        "markdown": str(written.markdown),
        "html": str(written.html),
        "json": str(written.json),
    }
    lines = [f"wrote {written.markdown}", f"wrote {written.html}", f"wrote {written.json}"]
    if site is not None:
        from arbiter.core.clock import now_utc
        from arbiter.spectate import site as sites

        now = now_utc()  # read once: the whole site is cut at one moment
        built = sites.build(
            root, tournament, ranked, results, now=now, delay=delay, previous=previous, out=site
        )
        site_folder.write(root, site, tournament.id, built.files)
        pages = [t for t in built.tables if t.page is not None]
        hidden = [t.result.table.game for t in built.tables if t.page is None]
        report_json["site"] = {
            "index": str(site / sites.INDEX),
            "data": str(site / sites.DATA),
            "pages": [str(site / str(t.page)) for t in pages],
            "without_page": hidden,
            "now": now,
            "public_delay": delay,
        }
        lines.append(
            f"wrote the site {site}: {sites.INDEX}, {sites.DATA} and {len(pages)} game "
            f"page{'s' if len(pages) != 1 else ''}"
            + (f"; no page yet for {', '.join(hidden)}" if hidden else "")
        )
    if as_json:
        out.json(report_json)
        return
    for line in lines:
        out.line(line)
