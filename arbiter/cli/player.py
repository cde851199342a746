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
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print a JSON array: {number, kind, label, action, cards} for each decision.",
    ),
) -> None:
    """List your legal decisions now, numbered (pick with `move --pick N`)."""
    from arbiter.core.player import load_state
    from arbiter.play import menu

    out = Output(as_json)
    state = load_state(state_file, identity or key)
    legal = state["legal"] or []
    engine = _engine_for(state) if legal else None
    listed = menu.choices(engine, legal, state["view"])
    if as_json:
        out.json([choice.to_json() for choice in listed])
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
    out.line(f"{len(legal)} legal decision(s) for {state['seat']} ({prompt['kind']}):")
    hint = prompt["detail"].get("hint")
    if isinstance(hint, str):
        out.line(f"  ({hint})")
    for kind, group in menu.groups(listed):
        out.line(f"  {kind}:")
        for choice in group:
            text = json.dumps(choice.action, separators=(", ", ": "), ensure_ascii=False)
            out.line(f"    {choice.number:>3}. {choice.label}   --action '{text}'")
            for card in choice.cards:
                out.line(f"         {card.line()}")
    out.line(
        "pick by number or name: `arbiter move STATE --key K --pick N -o move.json`, "
        "or play with `arbiter play STATE --key K`"
    )


def move(
    state_file: Path = typer.Argument(
        ..., help="Your players/<seat>/state.json (or state.json.age).", metavar="STATE-FILE"
    ),
    key: Path = typer.Option(
        ..., "--key", "-k", help="Your private key (or .pub to use ssh-agent)."
    ),
    action: list[str] = typer.Option(
        None, "--action", "-a", help="A decision as JSON (repeat for a batch; for programs)."
    ),
    pick: list[str] = typer.Option(
        None,
        "--pick",
        "--card",
        "-p",
        help="A decision by its number in `arbiter moves` or by name (a card's name in any "
        "case, a unique prefix is enough); repeat for a batch, each numbered as the "
        "decisions stand after the picks before it.",
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
    from arbiter.core.errors import UsageError
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
    if action and pick:
        raise UsageError("give decisions either as --pick or as --action, not both")
    actions = _picked(state, pick) if pick else parse_actions(action or [])
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


def _picked(state: dict[str, Any], picks: list[str]) -> list[dict[str, Any]]:
    """The batch ``--pick`` values build, as ``arbiter play`` builds it pick by pick (each
    number or name read against the decisions after the picks before it)."""
    from arbiter.core.errors import UsageError
    from arbiter.core.player import move_refusal
    from arbiter.play import menu
    from arbiter.play.preview import Batch

    refusal = move_refusal(state, [{"kind": "?"}], None)
    if refusal is not None and not state["legal"]:
        raise refusal
    engine = _engine_for(state)
    batch = Batch(engine, state)
    for index, typed in enumerate(picks, start=1):
        if not batch.open:
            raise UsageError(
                f"--pick {index} ({typed!r}) goes past the end of the batch: {batch.reason}; "
                "send the rest in your next move"
            )
        view = batch.view() or state["view"]
        try:
            choice = menu.resolve(typed, menu.choices(engine, batch.legal(), view))
        except UsageError as exc:
            raise UsageError(f"--pick {index}: {exc.message}") from None
        batch.pick(choice.action)
    return batch.picks


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
