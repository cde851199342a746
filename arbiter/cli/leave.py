"""Player command ``leave``: take days of leave, which stop every clock (docs/clocks.md)."""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.signed_file import (
    IDENTITY_HELP,
    KEY_HELP,
    MANIFEST_HELP,
    SEAL_HELP,
    STATE_HELP,
)


def leave(
    state_file: Path = typer.Argument(..., help=STATE_HELP, metavar="STATE-FILE"),
    key: Path = typer.Option(..., "--key", "-k", help=KEY_HELP),
    days: int = typer.Option(..., "--days", "-d", help="Whole days of leave to take now."),
    output: Path = typer.Option(..., "-o", "--output", help="Leave file to write."),
    identity: Path | None = typer.Option(None, "--identity", "-i", help=IDENTITY_HELP),
    seal: bool = typer.Option(False, "--seal", help=SEAL_HELP),
    manifest: Path | None = typer.Option(None, "--manifest", help=MANIFEST_HELP),
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
