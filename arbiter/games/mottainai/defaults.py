"""The default decision of a seat that missed its deadline: no task, and prayers (M-R76).

The ``pass`` timeout policy takes it for the seat; it is never chosen in normal play.
At each prompt it is the most passive decision the rules allow: choose no task (the
rules' own way to play a turn without one: a single PRAYER at Noon), turn every action
into a PRAYER (M-R4; under a Mask, skip it), use no effect, and return a card only where
the rules demand one. Each choice follows from the seat's own hand and the public table.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import reject
from arbiter.games.mottainai import flow
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.state import HAND_LIMIT, State

DONE: dict[str, Any] = {"kind": "done"}
NO_TASK: dict[str, Any] = {"kind": "no_task"}
PRAYER: dict[str, Any] = {"kind": "prayer"}


def default_action(state: State, seat: str) -> dict[str, Any]:
    """Return ``seat``'s default decision at the prompt it faces (M-R76)."""
    where = flow.due(state)
    if where is None:
        raise reject("the game is over: no decision to take by default", "Rules: Game End")
    if seat != state.current:
        raise reject(
            f"it is {state.current}'s decision ({where}), not {seat}'s", "Rules: Your turn"
        )
    if where == "task":
        return dict(NO_TASK)  # Rules: Morning: no task; Noon then brings one PRAYER (M-R22)
    if where == "action":
        task = state.task
        assert task is not None
        # Rules: any action may become a PRAYER (M-R4); a Mask allows only skipping (M-R56).
        return dict(DONE if task.get("mask") else PRAYER)
    if where == "return":
        hand = state.players[seat].hand
        if len(hand) > HAND_LIMIT:
            # Rules: Morning: down to five, one card at a time; the first of the hand goes.
            return {"kind": "return", "card": hand[0]}
        return dict(DONE)  # at the limit: no Handkerchief
    if where == "effect":
        frame = state.frames[-1]
        if frame.get("optional", True):
            return dict(DONE)  # decline the trigger (rules FAQ: effects are optional)
        # A choice an effect already under way must make (Dice's or Poem's wing, the card
        # Fan keeps): the first offer listed.
        return dispatch.frame_actions(state, frame)[0]
    if where == "place":
        # Wutai: the card stays where the effect tucked it, in the temple (M-R119).
        return {"kind": "place", "card": state.frames[-1]["queue"][0]["card"]}
    # "old-task": discard the old task as usual; "tailor": return nothing, draw up to five.
    return dict(DONE)
