"""The course of a turn: Morning, Noon, Night (rules: Your turn), and the game end.

``advance`` runs every automatic step until someone must decide; ``apply`` feeds it one
checked decision. Open frames (effect triggers, a TAILOR's returns) come before the
turn's phase, innermost first, so each prompt resumes where it stopped.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from arbiter.core.engine import Event, Prompt
from arbiter.games.mottainai import actions, om, scoring
from arbiter.games.mottainai.actions import GameEnds
from arbiter.games.mottainai.cards import INSTANCES, TASKS
from arbiter.games.mottainai.cover import helper_actions
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.effects.obstruction import gate_hint
from arbiter.games.mottainai.state import HAND_LIMIT, State

ACTION_HINTS = {
    name: f"take the task's action ({name.lower()}), a craft of its material or a prayer"
    for name in TASKS.values()
}
MASK_HINTS = {
    name: f"{{owner}}'s Mask: take the task's action ({name.lower()}) or done to skip it;"
    " no craft or prayer on this task"
    for name in TASKS.values()
}
HINTS = {
    "return": "return one hand card to the bottom of the deck (hand limit 5)",
    "old-task": "use an effect instead of discarding your old task, or done",
    "task": "choose a hand card as your task, or no_task (you will pray)",
    "tailor": "return a hand card, or done to draw up to 5 cards (hand + waiting area)",
    "effect": "use an effect (each once, in any order), or done",
}


PROMPTS = 4096
"""How many distinct prompts of each sort stay built (see ``_step_prompt``)."""
STEP_KINDS = {"action": "action", "hand-limit": "return", "old-task": "old-task"}
"""The prompt kind of each phase that waits for a decision (any other: "task")."""


def due(state: State) -> str | None:
    """Return the kind of ``prompt(state)`` without building it; ``None`` once over.

    It is always the current seat's decision. ``check``, ``apply`` and ``legal_actions``
    ask this for every decision; it must follow ``prompt`` exactly.
    """
    if state.result is not None:
        return None
    frames = state.frames
    if frames:
        kind = frames[-1]["type"]
        if kind == "tailor" or kind == "tuck" or kind == "place":
            return kind
        return "effect"
    return STEP_KINDS.get(state.phase, "task")


def prompt(state: State) -> Prompt | None:
    """Return who decides now and what; ``None`` once the game is over."""
    if state.result is not None:
        return None
    seat = state.current
    if state.frames:
        frame = state.frames[-1]
        if frame["type"] == "tailor":
            return _step_prompt(seat, "tailor")
        if frame["type"] == "tuck":
            return Prompt(seat, "tuck", {"work": frame["work"], "hint": om.TUCK_HINT})
        if frame["type"] == "place":
            return Prompt(seat, "place", {**frame["queue"][0], "hint": om.PLACE_HINT})
        if frame["moment"] == "obstruction":  # a Curtain/Tower reveal says what it asks
            return Prompt(seat, "effect", gate_hint(frame))
        return _effect_prompt(seat, frame["moment"])
    phase = state.phase
    if phase == "action":
        task = state.task
        assert task is not None
        return _action_prompt(
            seat,
            task["material"],
            task["owner"],
            task["done"] + 1,
            task["total"],
            bool(task.get("mask")),
        )
    if phase == "hand-limit":
        return _return_prompt(seat, len(state.players[seat].hand))
    if phase == "old-task":
        return _step_prompt(seat, "old-task")
    return _step_prompt(seat, "task")


# A prompt is a frozen value of a few strings and numbers, asked for several times per
# decision by the referee: each is built once and shared (its detail is read-only).
@lru_cache(maxsize=PROMPTS)
def _step_prompt(seat: str, kind: str) -> Prompt:
    return Prompt(seat, kind, {"hint": HINTS[kind]})


@lru_cache(maxsize=PROMPTS)
def _effect_prompt(seat: str, moment: str) -> Prompt:
    return Prompt(seat, "effect", {"moment": moment, "hint": HINTS["effect"]})


@lru_cache(maxsize=PROMPTS)
def _return_prompt(seat: str, hand: int) -> Prompt:
    return Prompt(seat, "return", {"hand": hand, "hint": HINTS["return"]})


@lru_cache(maxsize=PROMPTS)
def _action_prompt(seat: str, material: str, owner: str, n: int, of: int, mask: bool) -> Prompt:
    name = TASKS[material]
    hint = MASK_HINTS[name].format(owner=owner) if mask else ACTION_HINTS[name]
    detail = {"task": name, "owner": owner, "action": n, "of": of, "hint": hint}
    return Prompt(seat, "action", detail)


def advance(state: State, events: list[Event]) -> None:
    """Run automatic steps until a decision is needed (raises ``GameEnds`` at the end)."""
    while True:
        if state.frames:
            frame = state.frames[-1]
            if frame["type"] != "effects" or dispatch.offered(state, frame):
                return
            state.frames.pop()
            continue
        # The steps of Noon come first: they are by far the most frequent.
        phase = state.phase
        if phase == "action":
            task = state.task
            assert task is not None
            if task["done"] < task["total"]:
                return
            state.task = None
            state.phase = "noon"
        elif phase == "noon":
            next_task(state, events)
        elif phase == "count":
            count_actions(state, events)
        elif phase == "choose-task":
            return
        elif phase == "night":
            night(state, events)
        elif phase == "hand-limit":
            # Rules: Morning: return down to five; Handkerchief may replace this step.
            seat = state.current
            if len(state.players[seat].hand) > HAND_LIMIT or (
                not state.memo.get("returned") and dispatch.step_offers(state, seat, "hand-limit")
            ):
                return
            state.phase = "old-task"
        elif phase == "old-task":
            seat = state.current
            if not state.memo.get("old-task") and dispatch.step_offers(state, seat, "old-task"):
                return
            discard_old_task(state, seat, events)
        elif phase == "morning":
            state.phase = "choose-task"
        else:  # pragma: no cover - a corrupt state
            raise AssertionError(f"unknown phase {phase!r}")


def discard_old_task(state: State, seat: str, events: list[Event]) -> None:
    """Rules: Morning: the previous task (or the face-down card) goes to the floor."""
    p = state.players[seat]
    if p.task is not None:
        state.floor.append(p.task)
        # The face-down card is news to everyone: a barrier (M-R14).
        events.append(
            Event(
                "old-task",
                {"seat": seat, "card": p.task, "face_down": p.face_down},
                barrier=p.face_down,
            )
        )
        p.task, p.face_down = None, False
    state.phase = "morning"
    dispatch.open_frame(state, seat, "morning", {})


def choose_task(state: State, seat: str, iid: str | None, events: list[Event]) -> None:
    """Rules: Morning: put a hand card in the task slot, or none (then one PRAYER)."""
    p = state.players[seat]
    if iid is not None:
        p.hand.remove(iid)
        p.task = iid
    obstructed = dispatch.has_window(state, seat, "obstruction")
    events.append(Event("task", {"seat": seat, "card": iid, "obstructed": obstructed}))
    start_noon(state)


def start_noon(state: State) -> None:
    """Rules: Noon: each opponent's task clockwise from you, then your own."""
    state.queue = [*state.clockwise_from(state.current)[1:], state.current]
    state.phase = "noon"


def next_task(state: State, events: list[Event]) -> None:
    """Start the next task of Noon, or go to Night."""
    seat = state.current
    if not state.queue:
        state.phase = "night"
        dispatch.open_frame(state, seat, "night", {})
        return
    owner = state.queue.pop(0)
    p = state.players[owner]
    if owner != seat and (p.task is None or p.face_down):
        return  # Rules: Noon: skip an opponent with no task; a face-down card is none (M-R14).
    if owner == seat and p.task is None:
        # Rules: Noon: no task of your own means one PRAYER (no choice to make).
        events.append(Event("pray-instead", {"seat": seat}))
        state.task = None
        actions.draw(state, seat, 1, "prayer", events)
        actions.action_done(state, seat, {"action": "prayer"})
        return
    assert p.task is not None
    state.task = {
        "owner": owner,
        "card": p.task,
        "material": INSTANCES[p.task].material,
        "extra": state.memo.get("own_extra", 0) if owner == seat else 0,  # Doll: +1
        "done": 0,
        "total": 0,
    }
    state.phase = "count"
    # Obstruction (Mask, Curtain, Tower) applies when an opponent reaches the owner's task;
    # a team partner is no opponent (rules: Team Play).
    if not state.is_opponent(seat, owner) or not dispatch.obstruct(state, seat, owner):
        dispatch.open_frame(state, seat, "before_task", {"owner": owner})


def count_actions(state: State, events: list[Event]) -> None:
    """Fix the number of actions before the task starts (rules FAQ: don't recount)."""
    task = state.task
    assert task is not None
    seat = state.current
    bonus, covered = helper_actions(state, seat, task["material"])
    opponent = state.is_opponent(seat, task["owner"])  # a partner is none (Team Play)
    if opponent:  # Bangle: no helper actions on its owner's task
        bonus = dispatch.query(state, task["owner"], "opponent_helpers", bonus)
    task["total"] = 1 + bonus + task["extra"]
    events.append(
        Event(
            "task-start",
            {
                "seat": seat,
                "owner": task["owner"],
                "card": task["card"],
                "actions": task["total"],
                "helpers": bonus,
                "covered": covered,
                "extra": task["extra"],
                "obstructed": opponent and dispatch.has_window(state, task["owner"], "obstruction"),
            },
        )
    )
    state.phase = "action"


def night(state: State, events: list[Event]) -> None:
    """Rules: Night: the waiting area joins the hand; the next player's turn begins."""
    seat = state.current
    p = state.players[seat]
    cards = p.waiting
    p.hand.extend(cards)
    p.waiting = []
    # The owner sees these cards for the first time: a barrier (M-R16).
    events.append(Event("night", {"seat": seat, "cards": list(cards)}, barrier=True))
    # Frog: a bonus full turn straight after this one (M-R30).
    begin_turn(
        state, seat if state.memo.get("bonus_turn") else state.clockwise_from(seat)[1], events
    )


def begin_turn(state: State, seat: str, events: list[Event]) -> None:
    """Start ``seat``'s turn at the hand-limit step of its Morning."""
    state.current = seat
    state.turn += 1
    state.memo = {}
    state.phase = "hand-limit"
    events.append(Event("turn", {"seat": seat, "turn": state.turn}))


def finish(state: State, end: GameEnds, events: list[Event]) -> None:
    """Score the game the moment it ends (M-R2, M-R3): nothing more resolves."""
    state.frames = []
    state.end = {"reason": end.reason, "seat": state.current, "turn": state.turn, **end.detail}
    state.result = scoring.score(state)
    # The scoring shows every hand: news to everyone.
    events.append(Event("end", dict(state.end), barrier=True))
    for seat in state.seats:
        events.append(Event("score", {"seat": seat, **state.result["seats"][seat]}))
    result = state.result
    events.append(
        Event(
            "result",
            {
                "scores": result["scores"],
                "ranking": result["ranking"],
                "tiebreak": result["tiebreak"],
            },
        )
    )


def apply(state: State, seat: str, action: dict[str, Any]) -> list[Event]:
    """Apply one checked decision, then advance to the next decision or the end."""
    events: list[Event] = []
    state.revealed = None
    kind = action["kind"]
    try:
        where = due(state)
        assert where is not None
        if where == "action":  # the task's actions, boosters (``use``) included
            actions.perform(state, seat, action, events)
        elif kind == "use":
            if where == "effect":
                dispatch.use(state, state.frames[-1], action, events)
            else:
                _use_step(state, seat, where, action, events)
        elif where == "effect":  # done: decline the rest of this trigger (rules FAQ)
            dispatch.decline(state, events)
        elif where == "tuck":  # Wutai: a card under the Om work just completed (M-R106)
            if kind == "tuck":
                om.tuck(state, seat, action, events)
            else:
                om.tuck_done(state)
        elif where == "place":  # Wutai: an effect's card stays or goes under an Om work
            om.place(state, seat, action, events)
        elif where == "tailor":
            if kind == "return":
                actions.return_card(state, seat, action["card"], "tailor", events)
            else:
                actions.tailor_done(state, seat, events)
        elif where == "return":
            if kind == "return":
                state.memo["returned"] = True
                actions.return_card(state, seat, action["card"], "limit", events)
            else:
                state.phase = "old-task"
        elif where == "old-task":
            state.memo["old-task"] = True
            discard_old_task(state, seat, events)
        else:  # the task step
            choose_task(state, seat, action.get("card"), events)
        if state.wutai is not None:
            om.lift(state)  # where an effect's cards go is decided first (M-R119)
            om.sweep(state, events)  # tucked cards of Om works that left play (M-R112)
        advance(state, events)
    except GameEnds as end:
        finish(state, end, events)
    return events


def _use_step(
    state: State, seat: str, where: str, action: dict[str, Any], events: list[Event]
) -> None:
    """Resolve an instead-of effect; the step it replaces is then over."""
    dispatch.use_step(state, seat, action, events)
    if where == "return":
        state.phase = "old-task"
    elif where == "old-task":
        state.phase = "morning"
        dispatch.open_frame(state, seat, "morning", {})
    elif state.phase == "choose-task":
        start_noon(state)
