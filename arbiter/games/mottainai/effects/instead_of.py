"""Instead of a Morning step (Chopsticks, Handkerchief, Sketch, Doll).

See ``registry`` for what each function receives. Each replaces one Morning step (its
``step``): using it is that step, so the step does not happen as well. Sketch and Doll
both replace choosing a task, so only one of them is ever used (rules glossary).
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Event
from arbiter.games.mottainai.cards import card
from arbiter.games.mottainai.effects.registry import effect, narrates
from arbiter.games.mottainai.state import State


def _old_task(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    p = state.players[seat]
    # M-R14: the face-down initial card is no task: it goes to the floor as usual (M-R54).
    return [{}] if p.task is not None and not p.face_down else []


@effect("chopsticks", offers=_old_task, step="old-task")
def chopsticks(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Put your old task in your sales instead of on the floor."""
    from arbiter.games.mottainai import actions

    p = state.players[seat]
    old = p.task
    assert old is not None
    events.append(Event("chopsticks", {"seat": seat, "card": old}))
    p.task = None
    actions.into_temple(state, seat, [old], "sales", work)  # M-R119


@narrates("chopsticks", public=True)
def _chopsticks_line(d: dict[str, Any], viewer: str | None) -> str:
    c = card(d["card"])
    return (
        f"Morning: {d['seat']}'s old task {c.name} [{c.material}] goes to their sales (Chopsticks)."
    )


def _hand(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"target": c} for c in state.players[seat].hand]


@effect("handkerchief", offers=_hand, step="hand-limit")
def handkerchief(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Instead of the hand limit, put one hand card face up on the floor (any hand size)."""
    p = state.players[seat]
    c = params["target"]
    p.hand.remove(c)
    state.floor.append(c)
    events.append(Event("handkerchief", {"seat": seat, "card": c}))


@narrates("handkerchief", public=True)
def _handkerchief_line(d: dict[str, Any], viewer: str | None) -> str:
    c = card(d["card"])
    return (
        f"Morning: {d['seat']} puts {c.name} [{c.material}] from hand on the floor (Handkerchief)."
    )


def _helpers(state: State, seat: str, work: str, ctx: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"target": h} for h in state.players[seat].helpers]


@effect("sketch", offers=_helpers, step="choose-task", group="task")
def sketch(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Instead of choosing a task from hand, make one of your helpers your task."""
    p = state.players[seat]
    h = params["target"]
    p.helpers.remove(h)
    p.task, p.face_down = h, False
    events.append(Event("sketch", {"seat": seat, "card": h}))


@narrates("sketch", public=True)
def _sketch_line(d: dict[str, Any], viewer: str | None) -> str:
    c = card(d["card"])
    return f"Morning: {d['seat']} takes their {c.task} helper {c.name} as the task (Sketch)."


def _opponent_tasks(
    state: State, seat: str, work: str, ctx: dict[str, Any]
) -> list[dict[str, Any]]:
    out = []
    for o in state.opponents(seat):
        q = state.players[o]
        if q.task is not None and not q.face_down:  # M-R14: never the face-down card
            out.append({"target": o})
    return out


@effect("doll", offers=_opponent_tasks, step="choose-task", group="task")
def doll(
    state: State,
    seat: str,
    work: str,
    ctx: dict[str, Any],
    params: dict[str, Any],
    events: list[Event],
) -> None:
    """Instead of choosing a task, take an opponent's task as yours: +1 action on it."""
    p, q = state.players[seat], state.players[params["target"]]
    taken = q.task
    assert taken is not None
    q.task = None  # the opponent has no task to perform this Noon
    p.task, p.face_down = taken, False
    state.memo["own_extra"] = state.memo.get("own_extra", 0) + 1  # read by flow.next_task
    events.append(Event("doll", {"seat": seat, "card": taken, "from": params["target"]}))


@narrates("doll", public=True)
def _doll_line(d: dict[str, Any], viewer: str | None) -> str:
    c = card(d["card"])
    return f"Morning: {d['seat']} takes {d['from']}'s task {c.task} ({c.name}) as their own, +1 action (Doll)."
