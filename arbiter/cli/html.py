"""``arbiter html``: write a game's self-contained HTML replay page."""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output


def html(
    folder: Path = typer.Argument(..., help="Game folder.", metavar="FOLDER"),
    output: Path = typer.Option(
        ..., "--output", "-o", help="The HTML file to write.", metavar="FILE.html"
    ),
    seat: str | None = typer.Option(
        None,
        "--seat",
        metavar="SEAT",
        help="Only this seat's view (after the reveal). Default: the spectator before the "
        "reveal, every seat and the spectator after it.",
    ),
) -> None:
    """Write one HTML file that replays the game entry by entry (no network needed).

    The page embeds only what its viewers may know: before the reveal the spectator's
    view (the referee's copy is needed to replay it), after it every seat's, or only
    --seat's.
    """
    from arbiter.core.gamedir import GameDir, atomic_write
    from arbiter.viewer.page import build

    GameDir(folder).require()
    page = build(folder, seat)
    atomic_write(output, page.data)
    who = ", ".join("spectator" if v is None else v for v in page.viewers)
    Output().line(
        f"wrote {output}: {page.entries} entries as seen by {who} ({len(page.data):,} bytes)"
    )


def register(app: typer.Typer) -> None:
    app.command("html")(html)
