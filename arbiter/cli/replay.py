"""``arbiter replay``: the game right after any chain entry, from any seat that may see it."""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output
from arbiter.cli.player import PLAIN_HELP


def replay(
    game: Path = typer.Argument(..., help="The game folder.", metavar="GAME"),
    at: str = typer.Option(
        "-1",
        "--at",
        help="The entry: N, -N from the end (-1, the default, is the last), or turn:K "
        "(the first entry of turn K).",
        metavar="N|-N|turn:K",
    ),
    seat: str | None = typer.Option(
        None,
        "--seat",
        "-s",
        help="Whose view (default: the spectator's). Before the reveal only the spectator, "
        "and a seat's own last entry from its state file.",
        metavar="SEAT",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the entry's state file as JSON."),
    plain: bool | None = typer.Option(None, "--plain/--pictures", help=PLAIN_HELP),
) -> None:
    """Show the game as a reader saw it right after chain entry N, with that entry's log.

    After `arbiter reveal` anyone can replay any seat; before it only the referee's copy
    replays, and only for the spectator. The records are not checked here: `arbiter
    verify` does that.
    """
    from arbiter.cli.player import _engine_for
    from arbiter.cli.render import render_state, use_pictures
    from arbiter.core.timeline import frame_at, last_entry

    out = Output(as_json)
    frame = frame_at(game, at, seat)
    if as_json:
        out.json(frame.state)
        return
    last = last_entry(game)
    turn = f" (turn {frame.turn})" if frame.turn is not None else ""
    who = f" by {frame.seat}" if frame.seat is not None else ""
    pictures = use_pictures(None if plain is None else not plain)
    out.styled((f"entry #{frame.seq} of {last}{turn} — {frame.kind}{who}", "bold"))
    render_state(out, frame.state, _engine_for(frame.state), pictures)
    reader = "public log" if seat is None else f"{seat}'s log"
    out.styled((f"{reader}, entry #{frame.seq}:", "bold"))
    for line in frame.lines or ["(nothing)"]:
        out.line(f"  {line}")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
