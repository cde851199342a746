"""Player command ``leave``: take days of leave, which stop every clock (docs/clocks.md)."""

from __future__ import annotations

from pathlib import Path

import typer


def leave(
    state_file: Path = typer.Argument(
        ..., help="Your players/<seat>/state.json (or state.json.age).", metavar="STATE-FILE"
    ),
    key: Path = typer.Option(
        ..., "--key", "-k", help="Your private key (or .pub to use ssh-agent)."
    ),
    days: int = typer.Option(..., "--days", "-d", help="Whole days of leave to take now."),
    output: Path = typer.Option(..., "-o", "--output", help="Leave file to write."),
    identity: Path | None = typer.Option(
        None,
        "--identity",
        "-i",
        help="The private key that opens a sealed state file, if not --key (ssh-agent cannot).",
    ),
    seal: bool = typer.Option(
        False, "--seal", help="Write OUTPUT.age sealed to the referee's key (a shared repository)."
    ),
    manifest: Path | None = typer.Option(
        None,
        "--manifest",
        help="The game's game.json, for --seal (default: the one above the state file).",
    ),
) -> None:
    """Write a signed leave file: from its entry on, the game waits DAYS days.

    Accepted at any time, even when it is not your turn, while you have that much leave
    left (your state file's clock says how much).
    """
    from arbiter.cli.signed_file import write_signed
    from arbiter.core.leave import make_leave

    write_signed(
        state_file, key, identity, output, seal, manifest,
        lambda state: make_leave(state, key, days),
        lambda state: f"{days} day{'s' if days != 1 else ''} of leave after entry #{state['seq']}",
    )  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command("leave")(leave)
