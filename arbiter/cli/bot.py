"""``arbiter bot``: a bot decides your seat's batch from your state file and signs it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from arbiter.cli.output import Output


def bot(
    state_file: Path = typer.Argument(
        ..., help="Your players/<seat>/state.json (or state.json.age).", metavar="STATE-FILE"
    ),
    key: Path = typer.Option(
        ..., "--key", "-k", help="Your private key (or .pub to use ssh-agent)."
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Move file to write."),
    level: str = typer.Option(
        "greedy", "--level", "-l", help="random, greedy or search (docs/bots.md)."
    ),
    seed: str = typer.Option(
        "", "--seed", help="Seeds the bot's choices: the same state file and seed, the same file."
    ),
    budget: int | None = typer.Option(
        None, "--budget", min=1, help="Search playouts per decision (default: docs/bots.md)."
    ),
    identity: Path | None = typer.Option(
        None,
        "--identity",
        "-i",
        help="The private key that opens a sealed state file, if not --key (ssh-agent cannot).",
    ),
    seal: bool = typer.Option(
        False, "--seal", help="Write OUTPUT.age sealed to the referee's key (as arbiter move)."
    ),
    manifest: Path | None = typer.Option(
        None,
        "--manifest",
        help="The game's game.json, for --seal (default: the one above the state file).",
    ),
    orders: bool = typer.Option(
        False,
        "--orders",
        help="While another seat decides, write the bot's standing orders for your next "
        "turn instead (docs/standing-orders.md); on your turn, the move as usual.",
    ),
) -> None:
    """Let a bot choose your decisions up to the next barrier and sign the move file."""
    from arbiter.bots.agreement import answer_file
    from arbiter.bots.levels import LEVELS
    from arbiter.cli.player import _write, _write_bytes
    from arbiter.core.errors import OutOfTurn, UsageError
    from arbiter.core.player import check_key_for_state, load_state, manifest_beside, seal_move

    if level not in LEVELS:
        raise UsageError(f"--level takes {', '.join(LEVELS)}, not {level!r}")
    state = load_state(state_file, identity or key)
    if state["seat"] is None:
        raise UsageError("this is the public state file: use your own players/<seat>/state.json")
    check_key_for_state(state_file, state, key)
    pending = state.get("pending")
    if state["status"] == "playing" and pending and state["seat"] in pending["waiting_for"]:
        # An open proposal waits for this seat: the bot answers it first (docs/bots.md).
        move_file = answer_file(state, key, seed)
        asked = "takeback request" if pending["kind"] == "takeback" else "proposal to end the game"
        labels = f"{move_file['answer']} {pending['seat']}'s {asked}"
    elif state["status"] != "playing" or not state["legal"]:
        who = state["prompt"]["seat"] if state["prompt"] else None
        if who is not None and orders:
            move_file, labels = _bot_orders(state, key, level, seed)
        else:
            raise OutOfTurn(
                f"the game is {state['status']}: nothing to decide"
                if who is None
                else f"it is {who}'s turn, not {state['seat']}'s: wait for your next state "
                "file (or let the bot order your next turn now: --orders)"
            )
    else:
        move_file, labels = _bot_move(state, key, level, seed, budget)
    if seal:
        target = output if output.name.endswith(".age") else output.with_name(output.name + ".age")
        _write_bytes(target, seal_move(move_file, manifest or manifest_beside(state_file)))
        Output().line(f"wrote {target} ({labels}), sealed to the referee: send it to the referee")
        return
    _write(output, move_file)
    Output().line(f"wrote {output} ({labels}): send it to the referee")


def _engine_of(state: dict[str, Any]) -> Any:
    """The engine that wrote the state file (only its very version reads the view)."""
    from arbiter.core import registry
    from arbiter.core.errors import NotReady

    engine = registry.get(state["engine"]["name"])
    if engine.info.version != state["engine"]["version"]:
        # The bot reads the view with the engine: another version's rules may differ.
        from arbiter.releases import advice

        wanted = state["engine"]["version"]
        raise NotReady(
            f"this state file is from {engine.info.name} {wanted} but this arbiter has "
            f"{engine.info.version}: {advice(engine.info.name, wanted, None)}"
        )
    return engine


def _bot_move(
    state: dict[str, Any], key: Path, level: str, seed: str, budget: int | None
) -> tuple[dict[str, Any], str]:
    from arbiter.bots.levels import bot_rng, decide
    from arbiter.core.player import make_move

    engine = _engine_of(state)
    actions = decide(engine, state, level, bot_rng(seed, state), budget)
    return make_move(state, key, actions), "; ".join(engine.label(a) for a in actions)


def _bot_orders(
    state: dict[str, Any], key: Path, level: str, seed: str
) -> tuple[dict[str, Any], str]:
    """The bot's standing orders for the seat's next turn (arbiter.bots.orders)."""
    from arbiter.bots.levels import bot_rng
    from arbiter.bots.orders import standing_orders
    from arbiter.core.errors import UsageError
    from arbiter.core.orders import make_orders, supported

    engine = _engine_of(state)
    if not supported(engine):
        raise UsageError(f"{engine.info.name} does not take standing orders yet: send your moves")
    steps = standing_orders(engine, state, bot_rng(seed, state), level)
    if not steps:
        raise UsageError(
            "the bot sees no obvious order for your next turn: wait for your state file"
        )
    then = "; ".join(engine.label(a) for a in steps[0]["then"])
    when = "whatever the others do" if steps[0]["when"] == ["*"] else "if the others play as it expects"
    return make_orders(state, key, steps), f"standing orders: {when}, {then}"


def register(app: typer.Typer) -> None:
    app.command("bot")(bot)
