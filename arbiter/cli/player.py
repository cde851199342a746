"""Player commands: ``join``, ``moves``, ``move``, ``show`` (no referee secrets needed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from arbiter.cli.output import Output


def _write(path: Path, obj: dict[str, Any]) -> None:
    from arbiter.core.canonical import pretty
    from arbiter.core.errors import UsageError
    from arbiter.core.gamedir import atomic_write

    if path.exists():
        raise UsageError(f"{path} already exists: choose another -o file")
    atomic_write(path, pretty(obj))


def join(
    manifest: Path = typer.Argument(..., help="The game's game.json.", metavar="MANIFEST"),
    seat: str = typer.Option(..., "--seat", "-s", help="Your seat."),
    key: Path = typer.Option(
        ..., "--key", "-k", help="Your private key (or .pub to use ssh-agent)."
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Join file to write."),
) -> None:
    """Write a signed join file carrying fresh entropy for the seed."""
    from arbiter.core.player import make_join

    _write(output, make_join(manifest, seat, key))
    Output().line(f"wrote {output}: send it to the referee")


def _engine_for(state: dict[str, Any]) -> Any:
    from arbiter.core import registry
    from arbiter.core.errors import ArbiterError

    try:
        return registry.get(state["engine"]["name"])
    except ArbiterError:
        return None


def moves(
    state_file: Path = typer.Argument(
        ..., help="Your players/<seat>/state.json.", metavar="STATE-FILE"
    ),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array."),
) -> None:
    """List your legal decisions now, as ready-to-use JSON."""
    from arbiter.core.player import load_state

    out = Output(as_json)
    state = load_state(state_file)
    legal = state["legal"] or []
    if as_json:
        out.json(legal)
        return
    prompt = state["prompt"]
    if state["status"] != "playing":
        out.line(f"game is {state['status']}: no decisions to make")
        return
    if not legal:
        out.line(f"not your turn: {prompt['seat']} decides ({prompt['kind']})")
        return
    engine = _engine_for(state)
    out.line(f"{len(legal)} legal decision(s) for {state['seat']} ({prompt['kind']}):")
    hint = prompt["detail"].get("hint")
    if isinstance(hint, str):
        out.line(f"  ({hint})")
    for action in legal:
        shown = {"kind": action.get("kind"), **{k: v for k, v in action.items() if k != "kind"}}
        text = json.dumps(shown, separators=(", ", ": "), ensure_ascii=False)
        label = engine.label(action) if engine is not None else ""
        out.line(f"  --action '{text}'" + (f"   # {label}" if label and label != text else ""))


def move(
    state_file: Path = typer.Argument(
        ..., help="Your players/<seat>/state.json.", metavar="STATE-FILE"
    ),
    key: Path = typer.Option(
        ..., "--key", "-k", help="Your private key (or .pub to use ssh-agent)."
    ),
    action: list[str] = typer.Option(
        ..., "--action", "-a", help="A decision as JSON (repeat for a batch)."
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Move file to write."),
) -> None:
    """Build a move file against your state file's head and sign it."""
    from arbiter.core.player import (
        check_key_for_state,
        first_action_warning,
        load_state,
        make_move,
        parse_actions,
    )
    from arbiter.core.safeio import visible

    state = load_state(state_file)
    check_key_for_state(state_file, state, key)
    actions = parse_actions(action)
    warning = first_action_warning(state, actions)
    if warning:
        sys.stderr.write(f"arbiter: warning: {visible(warning)}\n")
    _write(output, make_move(state, key, actions))
    Output().line(
        f"wrote {output} ({len(actions)} decision(s) after entry #{state['seq']}): send it to the referee"
    )


def show(
    state_file: Path = typer.Argument(
        ..., help="A state file (yours or public/state.json).", metavar="STATE-FILE"
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the view as JSON."),
) -> None:
    """Render a state file for the terminal."""
    from arbiter.cli.render import render_state
    from arbiter.core.player import load_state

    out = Output(as_json)
    state = load_state(state_file)
    if as_json:
        out.json(state)
        return
    render_state(out, state, _engine_for(state))


def register(app: typer.Typer) -> None:
    app.command("join")(join)
    app.command("moves")(moves)
    app.command("move")(move)
    app.command("show")(show)
