"""Player command ``takeback``: ask to take back your decisions (docs/game-life.md §4)."""

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


def takeback(
    state_file: Path = typer.Argument(..., help=STATE_HELP, metavar="STATE-FILE"),
    key: Path = typer.Option(..., "--key", "-k", help=KEY_HELP),
    to: int = typer.Option(
        ...,
        "--to",
        help="The entry the game resumes after: your decisions after it, and everything "
        "after the first of them, are taken back.",
        metavar="N",
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Takeback file to write."),
    identity: Path | None = typer.Option(None, "--identity", "-i", help=IDENTITY_HELP),
    seal: bool = typer.Option(False, "--seal", help=SEAL_HELP),
    manifest: Path | None = typer.Option(None, "--manifest", help=MANIFEST_HELP),
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
