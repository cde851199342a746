"""Obstruction of opponents using your task (Bangle, Curtain, Mask, Tower).

See ``registry`` for what each function receives. ``dispatch.obstruct`` runs when an
opponent (the current seat) reaches the owner's task at Noon; never on the owner's own
turn. Mask and Bangle answer queries; Curtain and Tower open a reveal-or-skip decision:
``offers`` with ``ctx["step"] == "applies"`` says whether the gate applies to the task.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import card
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.effects.registry import effect, narrates
from arbiter.games.mottainai.state import State

GATES = {"curtain": ("CLOTH", "METAL"), "tower": ("PAPER", "STONE", "CLAY")}
"""The task materials each gate closes: Curtain TAILOR/SMITH, Tower CLERK/MONK/POTTER."""


def _gate_offers(
    state: State, seat: str, work: str, ctx: dict[str, Any], gate: str
) -> list[dict[str, Any]]:
    mat = ctx["material"]
    if mat not in GATES[gate]:
        return []
    if ctx["step"] == "applies":
        return [{}]
    # The reveal: one hand card of the task's material (the card stays in hand).
    return [{"cards": [c]} for c in sorted(state.players[seat].hand) if card(c).material == mat]


def _gate(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    owner = ctx["owner"]
    if ctx.get("declined"):
        # No matching card revealed: the whole task is skipped, no actions at all.
        events.append(Event("gate", {"seat": seat, "owner": owner, "by": work, "cards": []}))
        state.task = None
        state.phase = "noon"
        return
    state.revealed = {"seat": seat, "cards": list(params["cards"])}  # public (M-R17)
    events.append(
        Event("gate", {"seat": seat, "owner": owner, "by": work, "cards": params["cards"]})
    )
    dispatch.open_frame(state, seat, "before_task", {"owner": owner})


@effect("curtain", offers=lambda s, seat, w, ctx: _gate_offers(s, seat, w, ctx, "curtain"))
def curtain(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """An opponent reveals CLOTH (METAL) to use your TAILOR (SMITH) task, or skips it."""
    _gate(state, seat, work, ctx, params, events)


@effect("tower", offers=lambda s, seat, w, ctx: _gate_offers(s, seat, w, ctx, "tower"))
def tower(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """An opponent reveals a matching card to use your CLERK/MONK/POTTER task, or skips it."""
    _gate(state, seat, work, ctx, params, events)


@narrates("gate", public=True)
def _gate_line(d: dict[str, Any], viewer: str | None) -> str:
    by = card(d["by"]).name
    if not d["cards"]:
        return f"{d['seat']} reveals nothing and skips {d['owner']}'s task ({by})."
    c = card(d["cards"][0])
    return f"{d['seat']} reveals {c.name} [{c.material}] to use {d['owner']}'s task ({by})."


@effect("mask", queries=("mask",))
def mask(state: State, seat: str, work: str, query: str, value: bool, ctx: dict[str, Any]) -> bool:
    """Opponents on your task may only take its own action (or skip one, M-R4)."""
    return True


@effect("bangle", queries=("opponent_helpers", "helpers_covered"))
def bangle(state: State, seat: str, work: str, query: str, value: Any, ctx: dict[str, Any]) -> Any:
    """Opponents get no helper actions on your task; your STONE helpers are always covered."""
    if query == "opponent_helpers":
        return 0
    return True if ctx.get("material") == "STONE" else value


@narrates("skip-action", public=True)
def _skip_line(d: dict[str, Any], viewer: str | None) -> str:
    return f"{d['seat']} skips this action (Mask)."
