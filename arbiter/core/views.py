"""Build what each reader gets: state files and readable logs, from a ``Table``.

One function per published file, all pure: the referee writes their output and
``arbiter verify`` recomputes and compares it byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arbiter.core.canonical import pretty
from arbiter.core.formats import STATE_FORMAT
from arbiter.core.rng import Rng
from arbiter.core.table import Table


def state_file(table: Table, seat: str | None, seq: int, head: str) -> dict[str, Any]:
    """Return the state file for ``seat`` (``None``: the public spectator state)."""
    engine = table.engine
    prompt = table.prompt()
    over = table.over
    status = "joining" if not table.started else ("over" if over else "playing")
    legal = None
    if seat is not None and prompt is not None and prompt.seat == seat:
        legal = engine.legal_actions(table.state, seat)
    outcome = table.outcome() if over else None
    state = {
        "format": STATE_FORMAT,
        "game": table.game,
        "engine": dict(table.manifest["engine"]),
        "seat": seat,
        "seats": list(table.seats),
        "status": status,
        "seq": seq,
        "head": head,
        "waiting_for": table.waiting_for(),
        "prompt": prompt.to_json() if prompt is not None else None,
        "legal": legal,
        "view": engine.view(table.state, seat) if table.started else None,
        "outcome": outcome.to_json() if outcome is not None else None,
    }
    # The life of a long game (docs/game-life.md), only when there is something to say:
    # the state files of games that never used it stay byte for byte as they were.
    life = table.life
    if life.pending is not None:
        state["pending"] = life.pending.to_json()
    if life.resigned:
        state["resigned"] = list(life.resigned)
    original = {s["seat"]: s.get("key") for s in table.manifest["seats"]}
    if any(life.keys[seat] != original[seat] for seat in table.seats):
        # A handover or an appointment: the key each seat holds now (public, as game.json's).
        state["keys"] = {seat: life.keys[seat] for seat in table.seats}
    if table.clock is not None:  # a bank, leave or weekend pauses (docs/clocks.md)
        state["clock"] = table.clock.to_json()
    standing = table.orders.get(seat) if seat is not None else None
    if standing is not None:  # the seat's own standing orders: in its own file only
        state["orders"] = standing.to_json()
    return state


def bot_decision(table: Table, seat: str, level: str, seq: int, head: str, rng: Rng) -> Any:
    """Return the named bot's next decision for ``seat`` from its state file alone: the
    state at entry ``seq - 1``, chain head ``head`` (a timeout's ``bot`` policy, docs/bots.md)."""
    from arbiter.core.registry import bot

    # By name through the registry: the bots build on the core, not the reverse.
    decide = bot(level)
    return decide(table.engine, state_file(table, seat, seq - 1, head), level, rng)[0]


def state_bytes(table: Table, seat: str | None, seq: int, head: str) -> bytes:
    """Return the exact bytes of a state file."""
    return pretty(state_file(table, seat, seq, head))


# -- readable logs ------------------------------------------------------------------


def log_header(manifest: dict[str, Any], title: str, seat: str | None) -> list[str]:
    """Return the opening lines of a log file."""
    reader = f"what {seat} saw" if seat else "public log"
    seats = ", ".join(s["seat"] for s in manifest["seats"])
    engine = manifest["engine"]
    return [
        f"# {title} — game {manifest['game']} ({reader})",
        "",
        f"Engine {engine['name']} {engine['version']}; seats in turn order: {seats}.",
        f"Seed commitment: `{manifest['commitment']}`.",
        "",
    ]


def log_entry(seq: int, lines: Iterable[str]) -> list[str]:
    """Return one chain entry's lines as list items tagged with its number."""
    return [f"- `#{seq}` {text}" for text in lines]


def score_columns(outcome: dict[str, Any], declared: tuple[str, ...]) -> list[str]:
    """Return the result table's columns: ``declared`` order, then any others sorted.

    Never the breakdown's own key order: a state file stores it sorted, and the table
    must come out the same whether it is built from a live outcome or from public files.
    """
    present = {key for parts in outcome["breakdown"].values() for key in parts}
    return [k for k in declared if k in present] + sorted(present - set(declared))


def log_footer(
    outcome: dict[str, Any] | None,
    reveal: dict[str, Any] | None,
    columns: tuple[str, ...] = (),
) -> list[str]:
    """Return the closing lines: the result table and the reveal note.

    ``columns`` is the engine's ``EngineInfo.score_columns``.
    """
    out: list[str] = []
    if outcome is not None:
        out += ["", "## Result", ""]
        keys = score_columns(outcome, columns)
        out.append("| place | seat | score | " + " | ".join(keys) + (" |" if keys else "|"))
        out.append("|---|---|---|" + "---|" * len(keys))
        for place, group in enumerate(outcome["ranking"], start=1):
            for seat in group:
                parts = outcome["breakdown"].get(seat, {})
                cells = [str(parts.get(k, "")) for k in keys]
                out.append(
                    f"| {place} | {seat} | {outcome['scores'][seat]} | "
                    + " | ".join(cells)
                    + (" |" if cells else "|")
                )
        winners = outcome["winners"]
        label = "Winner" if len(winners) == 1 else "Winners (shared)"
        out += ["", f"{label}: {', '.join(winners)}."]
        if outcome.get("tiebreak"):
            out.append(f"Tie-break: {outcome['tiebreak']}")
    if reveal is not None:
        out += ["", "## Reveal", ""]
        if reveal["forced"]:
            out.append("The referee revealed the secret **before the game was over** (forced).")
        else:
            out.append("The referee revealed the secret after the game ended.")
        out.append("Anyone can now re-run the whole game: `arbiter verify <game folder>`.")
    return out


def render_log(lines: Iterable[str]) -> bytes:
    """Join log lines into the file's bytes."""
    return ("\n".join(lines) + "\n").encode()
