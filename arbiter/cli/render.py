"""Readable terminal rendering of a state file (``arbiter show``, ``arbiter replay``).

Two forms: the engine's text lines (``--plain``: for mail and logs, and the default when
the output is not a terminal) and pictures (``arbiter.cli.pictures``: rich panels and
tables with cards in colour, the default on a terminal).

A state file is untrusted input: every string from it is printed literally (see
``arbiter.cli.output``), and a view the engine's renderer cannot read is refused as a
``SchemaViolation`` instead of a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from arbiter.cli.output import Output, literal
from arbiter.core.deal import AWAITING_DEAL
from arbiter.core.errors import SchemaViolation

# What an engine's renderer raises on a view that is not its own shape (a card it does
# not know, a missing zone, a string where a list belongs).
_NOT_ITS_VIEW = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def _tree(out: Output, view: Any) -> None:
    from rich.tree import Tree

    def add(node: Any, key: str, value: Any) -> None:
        if isinstance(value, dict):
            branch = node.add(literal(key, "bold"))
            for k, v in value.items():
                add(branch, str(k), v)
        elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
            label = literal(key, "bold")
            label.append(f" ({len(value)})")
            branch = node.add(label)
            for i, v in enumerate(value):
                add(branch, str(i), v)
        else:
            node.add(literal(f"{key}: {json.dumps(value, ensure_ascii=False)}"))

    root = Tree(literal("view", "bold"))
    for k, v in (view or {}).items():
        add(root, str(k), v)
    out.console.print(root)


def engine_lines(engine: Any, state: dict[str, Any]) -> list[str]:
    """Return the engine's lines for the state's view, or raise ``SchemaViolation`` when
    the renderer cannot read the view (it names no value from the file)."""
    if engine is None or not state["view"]:
        return []
    try:
        return list(engine.render(state["view"], state["seat"]))
    except _NOT_ITS_VIEW as exc:
        info = engine.info
        raise SchemaViolation(
            f"the state file's view is not a {info.name} {info.version} view "
            f"({type(exc).__name__} while drawing it: an unknown card or a missing field): "
            "use the state file the referee wrote, or print it with --json"
        ) from None


def use_pictures(choice: bool | None) -> bool:
    """Return whether to draw pictures: ``--pictures``/``--plain`` when given, else only
    when standard output is a terminal (a pipe, a file or a mail gets the plain lines)."""
    if choice is not None:
        return choice
    return sys.stdout.isatty()


def request_text(pending: dict[str, Any]) -> str:
    """What an open request asks: ``alice proposes to end the game now, …``."""
    if pending["kind"] == "takeback":
        return (
            f"takeback: {pending['seat']} asks to take back its decisions after entry "
            f"#{pending['to']}"
        )
    what = "scored as it stands" if pending["result"] == "score" else "abandoned, no result"
    return f"proposal: {pending['seat']} proposes to end the game now, {what}"


def life_lines(state: dict[str, Any]) -> list[str]:
    """An open end proposal, seats that resigned, a game abandoned (docs/game-life.md)."""
    lines = []
    pending = state.get("pending")
    if pending is not None:
        accepted = f"; accepted by {', '.join(pending['accepted'])}" if pending["accepted"] else ""
        lines.append(
            f"{request_text(pending)} (entry #{pending['seq']}){accepted}; waiting for "
            f"{', '.join(pending['waiting_for'])}"
        )
        if state.get("seat") in pending["waiting_for"]:
            lines.append(
                "  answer it: `arbiter answer STATE --key KEY --accept|--decline -o FILE` "
                "(a move lets it lapse)"
            )
    if state.get("resigned"):
        lines.append(f"resigned: {', '.join(state['resigned'])} (ranked last)")
    if state["status"] == "over" and state["outcome"] is None:
        lines.append("result: none (the game was abandoned by agreement)")
    return lines


def render_state(out: Output, state: dict[str, Any], engine: Any, pictures: bool = False) -> None:
    """Print a header, the engine's picture or lines (or a generic tree), and the result."""
    from arbiter.cli.pictures import draw

    who = state["seat"] or "spectator"
    engine_ref = state["engine"]
    # Drawn before any output: a refusal prints only its line.
    picture = draw(state) if pictures and engine is not None else None
    lines = engine_lines(engine, state) if picture is None else []
    out.styled(
        (str(state["game"]), "bold"),
        f" · {engine_ref['name']} {engine_ref['version']} · seen by ",
        (str(who), "bold"),
        f" · entry #{state['seq']} · {state['status']}",
    )
    prompt = state["prompt"]
    if state["status"] == "joining":
        out.line(
            f"waiting for joins from: {', '.join(state['waiting_for'])}"
            if state["waiting_for"]
            else "waiting for the deal: " + AWAITING_DEAL
        )
    elif prompt is not None:
        mine = state["seat"] == prompt["seat"]
        turn = "your turn" if mine else f"{prompt['seat']}'s turn"
        out.styled((turn, "bold"), f": {prompt['kind']}")
    for line in life_lines(state):
        out.line(line)
    if picture is not None:
        for part in picture:
            out.console.print(part)
    elif lines:
        for line in lines:
            out.line(line)
    elif state["view"] is not None:
        _tree(out, state["view"])
    if state["legal"]:
        out.line(
            f"{len(state['legal'])} legal decision(s): see `arbiter moves` for ready-to-use JSON"
        )
    outcome = state["outcome"]
    if outcome is not None:
        rows = []
        for place, group in enumerate(outcome["ranking"], start=1):
            for seat in group:
                parts = outcome["breakdown"].get(seat, {})
                detail = ", ".join(f"{k} {v}" for k, v in parts.items())
                score = outcome["scores"].get(seat, "?")  # a hand-edited file may lack it
                rows.append([str(place), seat, str(score), detail])
        out.table("Result", ["place", "seat", "score", "breakdown"], rows)
