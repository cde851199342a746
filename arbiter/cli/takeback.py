"""Player command ``takeback``: ask to take back your decisions (docs/game-life.md §4)."""

from __future__ import annotations

from pathlib import Path

import typer


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
    from arbiter.cli.signed_file import write_signed
    from arbiter.core.takeback import make_request

    write_signed(
        state_file, key, identity, output, seal, manifest,
        lambda state: make_request(state, key, to),
        lambda state: f"take back after entry #{to}, signed at entry #{state['seq']}",
    )  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command("takeback")(takeback)
