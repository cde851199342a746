"""Readable terminal rendering of a state file (``arbiter show``)."""

from __future__ import annotations

import json
from typing import Any

from arbiter.cli.output import Output


def _tree(out: Output, view: Any) -> None:
    from rich.tree import Tree

    def add(node: Any, key: str, value: Any) -> None:
        if isinstance(value, dict):
            branch = node.add(f"[bold]{key}[/bold]")
            for k, v in value.items():
                add(branch, str(k), v)
        elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
            branch = node.add(f"[bold]{key}[/bold] ({len(value)})")
            for i, v in enumerate(value):
                add(branch, str(i), v)
        else:
            node.add(f"{key}: {json.dumps(value, ensure_ascii=False)}")

    root = Tree("[bold]view[/bold]")
    for k, v in (view or {}).items():
        add(root, str(k), v)
    out.console.print(root)


def render_state(out: Output, state: dict[str, Any], engine: Any) -> None:
    """Print a header, the engine's rendering (or a generic tree), and the result."""
    who = state["seat"] or "spectator"
    engine_ref = state["engine"]
    out.console.print(
        f"[bold]{state['game']}[/bold] · {engine_ref['name']} {engine_ref['version']} · "
        f"seen by [bold]{who}[/bold] · entry #{state['seq']} · {state['status']}"
    )
    prompt = state["prompt"]
    if state["status"] == "joining":
        out.line(f"waiting for joins from: {', '.join(state['waiting_for'])}")
    elif prompt is not None:
        mine = state["seat"] == prompt["seat"]
        turn = "your turn" if mine else f"{prompt['seat']}'s turn"
        out.console.print(f"[bold]{turn}[/bold]: {prompt['kind']}")
    lines = (
        engine.render(state["view"], state["seat"]) if engine is not None and state["view"] else []
    )
    if lines:
        for text in lines:
            out.console.print(text, markup=False)
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
                rows.append([str(place), seat, str(outcome["scores"][seat]), detail])
        out.table("Result", ["place", "seat", "score", "breakdown"], rows)
