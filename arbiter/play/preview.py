"""A batch built pick by pick, with the seat's table after each pick (``arbiter play``).

As the bots plan (``arbiter/bots/world.py``): full states are rebuilt from the seat's
view with the engine's ``determinize`` and kept only when they agree with the state file
(same prompt, same legal decisions). Each pick is applied in every world. The batch stays
open while, in every world, the pick is accepted, no event is a barrier, the prompt is
still this seat's, the view does not follow from an order of cards the view does not
record (``Engine.order_matters``: Mottainai's returned cards), and the next legal
decisions **and the seat's view** are the same.
Then the view after the pick is shown as known: it is equal in every world and no barrier
was crossed, and an engine's barrier follows from what the acting seat can see
(``Event.barrier``), so it cannot depend on a card that was only sampled. Otherwise the
batch closes after the pick and nothing after it is drawn.

Worlds come from a stream fixed by the state file (its head and seat), so the same file
gives the same preview; nothing here is sent anywhere or signed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arbiter.bots.world import step, worlds
from arbiter.core.engine import Action
from arbiter.core.errors import UsageError
from arbiter.core.rng import Rng

WORLDS = 4
"""Rebuilt worlds a batch is checked in (each must agree for the batch to go on)."""
MAX_BATCH = 64
"""Decisions in one batch at most (the bots' bound too)."""
PREVIEW_TAG = b"arbiter-play-preview/1"

# Why a batch closed after its last pick, said to the player.
BARRIER = "it shows you something new (the referee reveals it when the move is accepted)"
OTHER_SEAT = "another seat decides next"
GAME_ENDS = "the game ends with it"
HIDDEN = "what comes next depends on cards you cannot see yet"
ONE_ONLY = "this game's preview cannot plan past one decision here"
FULL = f"a batch holds at most {MAX_BATCH} decisions"


@dataclass
class _Step:
    """The worlds after a pick, and what the seat may do and see there."""

    action: Action
    states: list[Any]
    legal: list[Action] | None  # None: the batch is closed after this pick
    view: dict[str, Any] | None
    prompt: dict[str, Any] | None
    reason: str | None


def preview_rng(state_file: Mapping[str, Any]) -> Rng:
    """The stream the worlds of a state file are drawn from (fixed by game, seat, head)."""
    parts = [PREVIEW_TAG, str(state_file["game"]).encode(), str(state_file["seat"]).encode()]
    parts.append(str(state_file["head"]).encode())
    return Rng(hashlib.sha256(b"\x00".join(parts)).digest())


class Batch:
    """The decisions picked so far against one state file, and the table after them."""

    def __init__(self, engine: Any, state_file: Mapping[str, Any]):
        self.engine = engine
        self.state_file = dict(state_file)
        self.seat = state_file["seat"]
        self.steps: list[_Step] = []
        self._rng = preview_rng(state_file)
        legal = state_file["legal"] or []
        self._roots: list[Any] = []
        self._trusted = False
        if engine is not None and legal:
            found = worlds(engine, self.state_file, WORLDS, self._rng)
            self._roots, self._trusted = found.states, found.trusted

    # -- what the seat may do now ---------------------------------------------------
    @property
    def picks(self) -> list[Action]:
        return [s.action for s in self.steps]

    @property
    def open(self) -> bool:
        """Whether another decision may be added to this batch."""
        if not self.steps:
            return bool(self.state_file["legal"])
        return self.steps[-1].legal is not None

    @property
    def reason(self) -> str | None:
        """Why the batch is closed (``None`` while open)."""
        return None if self.open or not self.steps else self.steps[-1].reason

    def legal(self) -> list[Action]:
        """The decisions the seat may add now (empty when the batch is closed)."""
        if not self.steps:
            return list(self.state_file["legal"] or [])
        return list(self.steps[-1].legal or [])

    def prompt(self) -> dict[str, Any] | None:
        if not self.steps:
            return self.state_file["prompt"]
        return self.steps[-1].prompt

    def view(self) -> dict[str, Any] | None:
        """The seat's view after the picks, or ``None`` when it cannot be known before
        the referee answers (the batch closed on a barrier, another seat, hidden cards)."""
        if not self.steps:
            return self.state_file["view"]
        return self.steps[-1].view

    def preview_file(self) -> dict[str, Any] | None:
        """The seat's state file as it will read after these picks (view, prompt, legal
        replaced), for drawing; ``None`` when the view cannot be known yet."""
        view = self.view()
        if view is None:
            return None
        if not self.steps:
            return dict(self.state_file)
        return {**self.state_file, "view": view, "prompt": self.prompt(), "legal": self.legal()}

    # -- picking ------------------------------------------------------------------------
    def pick(self, action: Action) -> None:
        """Add ``action`` (one of ``legal()``) to the batch."""
        if not self.open:
            raise UsageError(f"the batch is complete ({self.reason}): send it, or undo with u")
        if action not in self.legal():
            raise UsageError("that decision is not one of the decisions listed now")
        before = self.steps[-1].states if self.steps else self._roots
        self.steps.append(self._advance(before, action))

    def undo(self) -> Action | None:
        """Take back the last pick; return it (``None``: nothing to take back)."""
        return self.steps.pop().action if self.steps else None

    def _advance(self, before: list[Any], action: Action) -> _Step:
        engine, seat = self.engine, self.seat
        if not self._trusted or not before:
            return _Step(action, [], None, None, None, ONE_ONLY)
        if len(self.steps) + 1 >= MAX_BATCH:
            return _Step(action, [], None, None, None, FULL)
        after: list[Any] = []
        legal: list[Action] | None = None
        view: dict[str, Any] | None = None
        prompt: dict[str, Any] | None = None
        for original in before:
            state = engine.copy(original)
            events = step(engine, state, seat, action, self._rng, check=True)
            if events is None:
                return _Step(action, [], None, None, None, HIDDEN)
            if any(e.barrier for e in events):
                return _Step(action, [], None, None, None, BARRIER)
            if engine.order_matters(original, state, seat):
                return _Step(action, [], None, None, None, HIDDEN)
            now = engine.prompt(state)
            if now is None:
                return _Step(action, [], None, None, None, GAME_ENDS)
            if now.seat != seat:
                return _Step(action, [], None, None, None, OTHER_SEAT)
            here_legal = engine.legal_actions(state, seat)
            here_view = engine.view(state, seat)
            if legal is None:
                legal, view, prompt = here_legal, here_view, now.to_json()
            elif here_legal != legal or here_view != view or now.to_json() != prompt:
                return _Step(action, [], None, None, None, HIDDEN)
            after.append(state)
        return _Step(action, after, legal, view, prompt, None)
