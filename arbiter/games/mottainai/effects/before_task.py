"""Before a task (Figurine, Flag, Fountain): reveal hand cards for more actions.

See ``registry`` for what each function receives: ``ctx["owner"]`` owns the task about
to be performed (``state.task``); the action count is fixed right after (rules FAQ).
Revealed cards stay in hand; the reveal is public and momentary (M-R17).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import MATERIAL, faced
from arbiter.games.mottainai.effects.registry import effect
from arbiter.games.mottainai.facts import holds
from arbiter.games.mottainai.state import State


def _matching(state: State, seat: str) -> list[dict[str, Any]]:
    task = state.task
    assert task is not None
    mat = task["material"]
    return [{"target": c} for c in faced(state.players[seat].hand) if MATERIAL[c] == mat]


def _holds_matching(state: State, seat: str) -> bool:
    task = state.task
    assert task is not None
    mat = task["material"]
    return holds(state, seat, lambda c: MATERIAL[c] == mat)


def _reveal(state: State, seat: str, work: str, cards: list[str], events: list[Event]) -> None:
    state.revealed = {"seat": seat, "cards": list(cards)}
    events.append(Event("fx", {"seat": seat, "card": work, "fx": "reveal", "cards": list(cards)}))


def _figurine_offers(
    state: State, seat: str, work: str, ctx: dict[str, Any]
) -> list[dict[str, Any]]:
    # "Opponent task": a team partner's task is none (rules: Team Play).
    return _matching(state, seat) if ctx["owner"] in state.opponents(seat) else []


def _figurine_exists(state: State, seat: str, work: str, ctx: dict[str, Any]) -> bool:
    return ctx["owner"] in state.opponents(seat) and _holds_matching(state, seat)


@effect("figurine", offers=_figurine_offers, exists=_figurine_exists)
def figurine(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Before an opponent's task, reveal a hand card of its material: +1 action."""
    assert state.task is not None
    state.task["extra"] += 1
    _reveal(state, seat, work, [params["target"]], events)


def _flag_offers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    return _matching(state, seat) if ctx["owner"] == seat else []


def _flag_exists(state: State, seat: str, work: str, ctx: dict[str, Any]) -> bool:
    return ctx["owner"] == seat and _holds_matching(state, seat)


@effect("flag", offers=_flag_offers, exists=_flag_exists)
def flag(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Before your own task, reveal a hand card of its material: +1 action."""
    assert state.task is not None
    state.task["extra"] += 1
    _reveal(state, seat, work, [params["target"]], events)


def _fountain_offers(
    state: State, seat: str, work: str, ctx: dict[str, Any]
) -> list[dict[str, Any]]:
    task = state.task
    if task is None or task["material"] != "PAPER":
        return []
    stone = sorted(c for c in faced(state.players[seat].hand) if MATERIAL[c] == "STONE")
    return [
        {"cards": list(pick)} for n in range(1, len(stone) + 1) for pick in combinations(stone, n)
    ]


def _fountain_exists(state: State, seat: str, work: str, ctx: dict[str, Any]) -> bool:
    task = state.task
    if task is None or task["material"] != "PAPER":
        return False
    return holds(state, seat, lambda c: MATERIAL[c] == "STONE")


@effect("fountain", offers=_fountain_offers, exists=_fountain_exists)
def fountain(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Before a CLERK task, reveal STONE hand cards: each is a CLERK helper for it (M-R6).

    They count for cover and for Haniwa while the task lasts (``cover.helper_count``).
    """
    assert state.task is not None
    state.task["helpers"] = state.task.get("helpers", 0) + len(params["cards"])
    _reveal(state, seat, work, params["cards"], events)
