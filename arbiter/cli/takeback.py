"""Player command ``takeback``: ask to take back your decisions (docs/game-life.md §4)."""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output


def takeback(
    state_file: Path = typer.Argument(
        ..., help="Your players/<seat>/state.json (or state.json.age).", metavar="STATE-FILE"
    ),
    key: Path = typer.Option(
        ..., "--key", "-k", help="Your private key (or .pub to use ssh-agent)."
    ),
    to: int = typer.Option(
        ...,
        "--to",
        help="The entry the game resumes after: your decisions after it, and everything "
        "after the first of them, are taken back.",
        metavar="N",
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Takeback file to write."),
    identity: Path | None = typer.Option(
        None,
        "--identity",
        "-i",
        help="The private key that opens a sealed state file, if not --key (ssh-agent cannot).",
    ),
    seal: bool = typer.Option(
        False,
        "--seal",
        help="Write OUTPUT.age sealed to the referee's key (a shared repository).",
    ),
    manifest: Path | None = typer.Option(
        None,
        "--manifest",
        help="The game's game.json, for --seal (default: the one above the state file).",
    ),
) -> None:
    """Write a signed request to take back your decisions after entry N.

    It takes effect when every seat whose decisions or knowledge it undoes has accepted
    (at once when nobody else is concerned); a decline or any move lapses it.
    """
    from arbiter.cli.player import _write, _write_bytes
    from arbiter.core.player import (
        check_key_for_state,
        load_state,
        manifest_beside,
        own_state,
        seal_move,
    )
    from arbiter.core.takeback import make_request

    state = load_state(state_file, identity or key)
    own_state(state)
    check_key_for_state(state_file, state, key)
    request = make_request(state, key, to)
    said = f"(take back after entry #{to}, signed at entry #{state['seq']})"
    if seal:
        target = output if output.name.endswith(".age") else output.with_name(output.name + ".age")
        _write_bytes(target, seal_move(request, manifest or manifest_beside(state_file)))
        Output().line(f"wrote {target} {said}, sealed to the referee: send it to the referee")
        return
    _write(output, request)
    Output().line(f"wrote {output} {said}: send it to the referee")


def register(app: typer.Typer) -> None:
    app.command("takeback")(takeback)
