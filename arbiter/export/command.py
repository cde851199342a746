"""``arbiter export``: write a revealed game's record (docs/records.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def export(
    game: Path = typer.Argument(..., help="The game folder (revealed).", metavar="GAME"),
    output: Path | None = typer.Option(
        None,
        "--output",
        "-o",
        help="Write the record to this file (default: standard output).",
        metavar="FILE",
    ),
    event: str | None = typer.Option(
        None,
        "--event",
        help="The event, for a game outside a tournament (a tournament's game takes its "
        "tournament's id).",
        metavar="TEXT",
    ),
    round_: int | None = typer.Option(
        None, "--round", min=1, help="The round, outside a tournament.", metavar="N"
    ),
    table: int | None = typer.Option(
        None, "--table", min=1, help="The table, outside a tournament.", metavar="N"
    ),
) -> None:
    """Write one self-contained JSON record of a revealed game: the header (event, round,
    table, date, seats, engine, terms, seed, result and why) and every chain entry in
    order with what it decided.

    The game must verify. The same game always gives the same bytes; `arbiter verify GAME
    --record FILE` checks a record against the game.
    """
    from arbiter.cli.output import Output
    from arbiter.core.gamedir import atomic_write
    from arbiter.export.record import export as make

    data = make(game, event, round_, table)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    atomic_write(output, data)
    Output().line(f"wrote {output}: the record of {game} ({len(data):,} bytes)")


def register(app: typer.Typer) -> None:
    app.command("export")(export)
