"""The part every game's scenario builder shares: drive exact states as the referee does.

Each game's ``tests/games/<game>/conftest.py`` subclasses ``Scenario`` and adds how to
build its exact tables and its decision shorthands.
"""

from __future__ import annotations

from typing import Any

import pytest

from arbiter.core.engine import Engine, Event
from arbiter.core.errors import IllegalAction
from arbiter.core.rng import Rng


class Scenario:
    """Check, apply and narrate decisions on states built by hand (no shuffle).

    With ``peer`` set (the rules cases' ``mode`` parameter), every decision is also played
    on a peer table (docs/peer.md §3): the state before it, its hidden cards turned into
    placeholders (``conceal``, each game's), the decision disclosed, checked and applied
    there, the cards its views ask for opened; after it every reader's view and log must
    be the referee's."""

    def __init__(self, engine: Engine, label: bytes, peer: bool = False):
        self.engine = engine
        self.label = label
        self.entry = 0
        self.peer = peer
        self.peer_steps = 0
        self.last_table: Any = None
        """The peer table of the last decision (``helpers.peer_harness.PeerTable``)."""

    def conceal(self, state: Any) -> tuple[Any, list[str], dict[str, set[str]]]:
        """A peer game's shared state for ``state``: each card not everyone knows made a
        placeholder ``?d0.<k>``; the cards behind them in slot order; who holds which."""
        raise NotImplementedError(f"{self.engine.info.name} has no peer scenario")

    def home(self, card: str) -> int:
        """The deck (``d<k>``) a card of ``conceal``'s decks belongs to (one deck: d0)."""
        return 0

    def rng(self) -> Rng:
        """Return a fresh stream for the next decision, as a new chain entry would get."""
        self.entry += 1
        return Rng.for_entry(self.label, self.entry)

    def step(self, state: Any, seat: str, action: dict[str, Any]) -> list[Event]:
        """Check then apply one decision, as the referee does; keep the invariants."""
        self.engine.check(state, seat, action)
        if not self.peer:
            events = self.engine.apply(state, seat, action, self.rng())
            self.engine.invariants(state)
            return events
        from helpers.peer_harness import shadow_step

        events = shadow_step(self, state, seat, action)
        self.peer_steps += 1
        return events

    def moves(self, state: Any, *moves: tuple[str, dict[str, Any]]) -> list[Event]:
        """Play several (seat, decision) pairs; return all their events."""
        events: list[Event] = []
        for seat, action in moves:
            events += self.step(state, seat, action)
        return events

    def illegal(self, state: Any, seat: str, action: Any) -> IllegalAction:
        """Return the rejection of a decision that must be illegal."""
        with pytest.raises(IllegalAction) as caught:
            self.engine.check(state, seat, action)
        return caught.value

    def turn(self, state: Any) -> str | None:
        prompt = self.engine.prompt(state)
        return None if prompt is None else prompt.seat

    def lines(self, events: list[Event], viewer: str | None = None) -> list[str]:
        return [line for e in events if (line := self.engine.describe(e, viewer)) is not None]
