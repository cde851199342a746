"""Player commands: ``join``, ``moves``, ``move``, ``show`` (no referee secrets needed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from arbiter.cli.output import Output

PLAIN_HELP = (
    "--plain: the engine's text lines (for mail and logs); --pictures: tables and panels "
    "with cards in colour. Default: pictures when the output is a terminal, else plain."
)


def _write(path: Path, obj: dict[str, Any]) -> None:
    from arbiter.core.canonical import pretty

    _write_bytes(path, pretty(obj))


def _write_bytes(path: Path, data: bytes) -> None:
    from arbiter.core.errors import UsageError
    from arbiter.core.gamedir import atomic_write

    if path.exists() or path.is_symlink():
        raise UsageError(f"{path} already exists: choose another -o file")
    atomic_write(path, data)


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
    """The engine that reads the state file's view: only the very version that wrote it
    (``None``: the view is shown as a plain tree, decisions without labels)."""
    from arbiter.core.viewcheck import known_engine

    return known_engine(state)


def moves(
    state_file: Path = typer.Argument(
        ..., help="Your players/<seat>/state.json (or state.json.age).", metavar="STATE-FILE"
    ),
    key: Path | None = typer.Option(
        None, "--key", "-k", help="Your private key: opens a sealed (.age) state file."
    ),
    identity: Path | None = typer.Option(
        None, "--identity", "-i", help="The private key that opens a sealed file, if not --key."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array."),
) -> None:
    """List your legal decisions now, as ready-to-use JSON."""
    from arbiter.core.player import load_state

    out = Output(as_json)
    state = load_state(state_file, identity or key)
    legal = state["legal"] or []
    if as_json:
        out.json(legal)
        return
    prompt = state["prompt"]
    if state["status"] != "playing":
        out.line(f"game is {state['status']}: no decisions to make")
        return
    if state["seat"] is None:
        out.line(
            f"{prompt['seat']} decides ({prompt['kind']}); this is the public state file: "
            "your own players/<seat>/state.json lists your decisions"
        )
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
        ..., help="Your players/<seat>/state.json (or state.json.age).", metavar="STATE-FILE"
    ),
    key: Path = typer.Option(
        ..., "--key", "-k", help="Your private key (or .pub to use ssh-agent)."
    ),
    action: list[str] = typer.Option(
        ..., "--action", "-a", help="A decision as JSON (repeat for a batch)."
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Move file to write."),
    identity: Path | None = typer.Option(
        None,
        "--identity",
        "-i",
        help="The private key that opens a sealed state file, if not --key (ssh-agent cannot).",
    ),
    seal: bool = typer.Option(
        False,
        "--seal",
        help="Write OUTPUT.age sealed to the referee's key (a shared repository: nobody "
        "else may read your decisions).",
    ),
    manifest: Path | None = typer.Option(
        None,
        "--manifest",
        help="The game's game.json, for --seal (default: the one above the state file).",
    ),
    force: bool = typer.Option(
        False,
        "--force",
        help="Write the file even when your state file says the referee will refuse it "
        "(a warning instead of the error).",
    ),
) -> None:
    """Build a move file against your state file's head and sign it.

    Refused, with the referee's exit code, when your state file already shows the referee
    will refuse it: not your turn, a decision of the wrong shape or not listed.
    """
    from arbiter.core.player import (
        check_key_for_state,
        load_state,
        make_move,
        manifest_beside,
        move_refusal,
        own_state,
        parse_actions,
        seal_move,
    )
    from arbiter.core.safeio import visible

    state = load_state(state_file, identity or key)
    own_state(state)
    check_key_for_state(state_file, state, key)
    actions = parse_actions(action)
    refusal = move_refusal(state, actions, _engine_for(state))
    if refusal is not None and not force:
        refusal.message += " (--force writes it anyway)"
        raise refusal
    if refusal is not None:
        sys.stderr.write(f"arbiter: warning: {visible(refusal.message)} (written: --force)\n")
    move_file = make_move(state, key, actions)
    if seal:
        target = output if output.name.endswith(".age") else output.with_name(output.name + ".age")
        _write_bytes(target, seal_move(move_file, manifest or manifest_beside(state_file)))
        Output().line(
            f"wrote {target} ({len(actions)} decision(s) after entry #{state['seq']}), sealed "
            "to the referee: send it to the referee"
        )
        return
    _write(output, move_file)
    Output().line(
        f"wrote {output} ({len(actions)} decision(s) after entry #{state['seq']}): send it to the referee"
    )


def show(
    state_file: Path = typer.Argument(
        ..., help="A state file (yours, sealed or not, or public/state.json).", metavar="STATE-FILE"
    ),
    key: Path | None = typer.Option(
        None, "--key", "-k", help="Your private key: opens a sealed (.age) state file."
    ),
    identity: Path | None = typer.Option(
        None, "--identity", "-i", help="The private key that opens a sealed file, if not --key."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the view as JSON."),
    plain: bool | None = typer.Option(None, "--plain/--pictures", help=PLAIN_HELP),
) -> None:
    """Render a state file for the terminal: pictures on a terminal, text lines otherwise."""
    from arbiter.cli.render import render_state, use_pictures
    from arbiter.core.player import load_state

    out = Output(as_json)
    state = load_state(state_file, identity or key)
    if as_json:
        out.json(state)
        return
    pictures = use_pictures(None if plain is None else not plain)
    render_state(out, state, _engine_for(state), pictures)


def register(app: typer.Typer) -> None:
    app.command("join")(join)
    app.command("moves")(moves)
    app.command("move")(move)
    app.command("show")(show)
