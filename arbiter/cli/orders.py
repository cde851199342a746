"""``arbiter orders``: sign standing orders, ICCF-style conditional decisions
(docs/standing-orders.md)."""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output

STEP_HELP = (
    "A step WHEN=>THEN: two JSON arrays of decisions. WHEN: the other seats' public "
    "decisions, in order, since the previous step (the first: since your state file's head); "
    "THEN: your batch, applied the moment WHEN is met. Repeat for a linear list; the first "
    "mismatch drops the rest."
)


def orders(
    state_file: Path = typer.Argument(
        ..., help="Your players/<seat>/state.json (or state.json.age).", metavar="STATE-FILE"
    ),
    key: Path = typer.Option(
        ..., "--key", "-k", help="Your private key (or .pub to use ssh-agent)."
    ),
    step: list[str] = typer.Option(None, "--step", "-s", help=STEP_HELP),
    cancel: bool = typer.Option(
        False, "--cancel", help="Write orders with no steps: they cancel your earlier ones."
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Orders file to write."),
    identity: Path | None = typer.Option(
        None, "--identity", "-i", help="The private key that opens a sealed state file, if not --key."
    ),
    seal: bool = typer.Option(
        False, "--seal", help="Write OUTPUT.age sealed to the referee's key (a sealed game)."
    ),
    manifest: Path | None = typer.Option(
        None, "--manifest", help="The game's game.json, for --seal (default: the one above the state file)."
    ),
) -> None:
    """Sign standing orders against your state file's head: steps the referee applies for
    you, kept private until the reveal; a later file replaces them."""
    from arbiter.core.errors import UsageError
    from arbiter.core.orders import make_orders, parse_step
    from arbiter.core.player import check_key_for_state, load_state, manifest_beside, seal_move

    if cancel and step:
        raise UsageError("give either --step (new orders) or --cancel (none), not both")
    if not cancel and not step:
        raise UsageError("give at least one --step WHEN=>THEN, or --cancel")
    steps = [parse_step(text, index) for index, text in enumerate(step or [], start=1)]
    state = load_state(state_file, identity or key)
    check_key_for_state(state_file, state, key)
    record = make_orders(state, key, steps)
    what = "cancelling your standing orders" if cancel else f"{len(steps)} step(s)"
    if seal:
        from arbiter.cli.player import _write_bytes

        target = output if output.name.endswith(".age") else output.with_name(output.name + ".age")
        _write_bytes(target, seal_move(record, manifest or manifest_beside(state_file)))
        Output().line(f"wrote {target} ({what}), sealed to the referee: send it to the referee")
        return
    from arbiter.cli.player import _write

    _write(output, record)
    Output().line(f"wrote {output} ({what}, after entry #{state['seq']}): send it to the referee")


def register(app: typer.Typer) -> None:
    app.command("orders")(orders)
