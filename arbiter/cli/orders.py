"""``arbiter orders``: sign standing orders, ICCF-style conditional decisions
(docs/standing-orders.md)."""

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

STEP_HELP = (
    "A step WHEN=>THEN: two JSON arrays of decisions. WHEN: the other seats' public "
    "decisions, in order, since the previous step (the first: since your state file's head); "
    "THEN: your batch, applied the moment WHEN is met. Repeat for a linear list; the first "
    "mismatch drops the rest."
)


def orders(
    state_file: Path = typer.Argument(..., help=STATE_HELP, metavar="STATE-FILE"),
    key: Path = typer.Option(..., "--key", "-k", help=KEY_HELP),
    step: list[str] = typer.Option(None, "--step", "-s", help=STEP_HELP),
    cancel: bool = typer.Option(
        False, "--cancel", help="Write orders with no steps: they cancel your earlier ones."
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Orders file to write."),
    identity: Path | None = typer.Option(None, "--identity", "-i", help=IDENTITY_HELP),
    seal: bool = typer.Option(False, "--seal", help=SEAL_HELP),
    manifest: Path | None = typer.Option(None, "--manifest", help=MANIFEST_HELP),
) -> None:
    """Sign standing orders against your state file's head: steps the referee applies for
    you, kept private until the reveal; a later file replaces them."""
    from arbiter.cli.signed_file import write_signed
    from arbiter.core.errors import UsageError
    from arbiter.core.orders import make_orders, parse_step

    if cancel and step:
        raise UsageError("give either --step (new orders) or --cancel (none), not both")
    if not cancel and not step:
        raise UsageError("give at least one --step WHEN=>THEN, or --cancel")
    steps = [parse_step(text, index) for index, text in enumerate(step or [], start=1)]
    write_signed(
        state_file, key, identity, output, seal, manifest,
        lambda state: make_orders(state, key, steps),
        lambda state: ("cancelling your standing orders" if cancel else f"{len(steps)} step(s)")
        + f", after entry #{state['seq']}",
    )  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command("orders")(orders)
