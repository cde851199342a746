"""Obstruction of opponents using your task (Bangle, Curtain, Mask, Tower).

See ``registry`` for what each function receives. ``dispatch.obstruct`` runs when an
opponent (the current seat) reaches the owner's task at Noon; never on the owner's own
turn. Mask and Bangle answer queries; Curtain and Tower open a reveal-or-skip decision:
``offers`` with ``ctx["step"] == "applies"`` says whether the gate applies to the task.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import TASKS, card, faced
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.effects.registry import effect, narrates
from arbiter.games.mottainai.state import State

GATES = {"curtain": ("CLOTH", "METAL"), "tower": ("PAPER", "STONE", "CLAY")}
"""The task materials each gate closes: Curtain TAILOR/SMITH, Tower CLERK/MONK/POTTER."""
MASK_RULE = "Card: Mask; rules FAQ, M-R4"
MASKED = ("craft", "prayer")
"""The conversions Mask forbids on its owner's task (the card: "may not convert")."""


def _gate_offers(
    state: State, seat: str, work: str, ctx: dict[str, Any], gate: str
) -> list[dict[str, Any]]:
    mat = ctx["material"]
    if mat not in GATES[gate]:
        return []
    if ctx["step"] == "applies":
        return [{}]
    # The reveal: one hand card of the task's material (the card stays in hand).
    hand = faced(state.players[seat].hand)  # a peer game's shared state: the shown card
    return [{"cards": [c]} for c in sorted(hand) if card(c).material == mat]


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


# -- what a seat is told: the reveal prompt and refusals that cite the card ---------------------


def gate_hint(frame: dict[str, Any]) -> dict[str, Any]:
    """Return the prompt detail of a Curtain/Tower reveal: what is asked, and the way out.

    Rules (Curtain, Tower): an opponent uses the owner's task only by showing a hand card
    of the task's material (it stays in hand); otherwise the whole task is skipped.
    """
    ctx = frame["ctx"]
    owner, mat, by = ctx["owner"], ctx["material"], card(frame["effect"]).name
    task = TASKS[mat]
    use = f'{{"kind": "use", "card": "{frame["card"]}", "cards": [ID]}}'
    hint = (
        f"{owner}'s {by} guards their {task} task: reveal a {mat} card from your hand to "
        f"perform it ({use}; the card stays in your hand), or done to skip the task"
    )
    return {
        "moment": "obstruction",
        "card": frame["card"],
        "owner": owner,
        "task": task,
        "material": mat,
        "hint": hint,
    }


def why(state: State, seat: str, where: str, action: dict[str, Any]) -> tuple[str, str] | None:
    """Return (reason, rule) when Mask or a Curtain/Tower reveal refuses ``action``, else None.

    Only the acting seat's own hand and public cards are named (no hidden information).
    """
    kind = action["kind"]
    task = state.task
    if where == "action" and task is not None and task.get("mask") and kind in MASKED:
        return _why_masked(task), MASK_RULE
    frame = state.frames[-1] if state.frames else None
    if (
        where == "effect"
        and frame is not None
        and frame["type"] == "choice"
        and frame["moment"] == "obstruction"
        and kind == "use"
        and action.get("card") == frame["card"]
    ):
        return _why_reveal(state, seat, frame, action), f"Card: {card(frame['effect']).name}"
    return None


def _why_masked(task: dict[str, Any]) -> str:
    owner, name = task["owner"], TASKS[task["material"]]
    return (
        f"{owner}'s Mask forbids CRAFT and PRAYER on {owner}'s {name} task: "
        f"take its own action ({name.lower()}) or done to skip this action"
    )


def _why_reveal(state: State, seat: str, frame: dict[str, Any], action: dict[str, Any]) -> str:
    ctx = frame["ctx"]
    owner, mat, by = ctx["owner"], ctx["material"], card(frame["effect"]).name
    task = TASKS[mat]
    shown = action.get("cards")
    extra = sorted(set(action) - {"kind", "card", "cards"})
    if extra or type(shown) is not list or len(shown) != 1 or type(shown[0]) is not str:
        return f'{by}: reveal exactly one {mat} card, "cards": [ID], and nothing else'
    if shown[0] not in state.players[seat].hand:
        return f"{shown[0]} is not in your hand: {by} asks you to reveal a {mat} card from it"
    c = card(shown[0])
    return (
        f"{c.name} is {c.material}: {owner}'s {by} opens their {task} task only to "
        f"a revealed {mat} card (or done to skip the task)"
    )
