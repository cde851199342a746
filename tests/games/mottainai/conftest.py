"""A scenario builder for Mottainai rules cases: exact tables, real decisions."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.scenario import Scenario as ScenarioBase

from arbiter.core.engine import Event
from arbiter.games.mottainai import MottainaiEngine, flow
from arbiter.games.mottainai.actions import GameEnds
from arbiter.games.mottainai.cards import deck_ids
from arbiter.games.mottainai.state import ZONES, Player, State

SEATS2 = ["alice", "bob"]
SEATS3 = ["alice", "bob", "carol"]
SEATS4 = ["alice", "bob", "carol", "dave"]


def ret(card: str) -> dict[str, Any]:
    return {"kind": "return", "card": card}


def task(card: str) -> dict[str, Any]:
    return {"kind": "task", "card": card}


def smith(work: str, support: list[str], wing: str = "gallery") -> dict[str, Any]:
    return {"kind": "smith", "work": work, "support": sorted(support), "wing": wing}


def craft(work: str, wing: str = "gallery") -> dict[str, Any]:
    return {"kind": "craft", "work": work, "wing": wing}


DONE: dict[str, Any] = {"kind": "done"}
NO_TASK: dict[str, Any] = {"kind": "no_task"}
PRAYER: dict[str, Any] = {"kind": "prayer"}
TAILOR: dict[str, Any] = {"kind": "tailor"}


class Scenario(ScenarioBase):
    """Build exact Mottainai states (no shuffle) and drive them with ``check`` and ``apply``."""

    SEATS2, SEATS3, SEATS4 = SEATS2, SEATS3, SEATS4
    ret, task, smith, craft = (
        staticmethod(ret),
        staticmethod(task),
        staticmethod(smith),
        staticmethod(craft),
    )
    DONE, NO_TASK, PRAYER, TAILOR = DONE, NO_TASK, PRAYER, TAILOR

    def __init__(self) -> None:
        super().__init__(MottainaiEngine(), b"mottainai-rules-cases")
        self.events: list[Event] = []

    def options(self, **raw: str) -> dict[str, Any]:
        return self.engine.parse_options(raw)

    def new_game(self, seats: list[str] | None = None, **raw: str) -> tuple[State, list[Event]]:
        """Return a real setup (shuffled by a fixed stream)."""
        return self.engine.setup(self.options(**raw), list(seats or SEATS2), self.rng())

    def build(
        self,
        seats: list[str] | None = None,
        *,
        current: str | None = None,
        deck: list[str] | None = None,
        floor: list[str] | None = None,
        leftover: tuple[str, str] | None = None,
        extended: bool = False,
        teams: bool = False,
        decks: int | None = None,
        face_down: dict[str, str] | None = None,
        **zones: dict[str, list[str] | str],
    ) -> State:
        """Return an exact table at the start of ``current``'s turn (its Morning runs).

        ``zones`` maps a zone (``hand``, ``waiting``, ``helpers``, ``bench``, ``sales``,
        ``gallery``, ``gift_shop``, ``task``) to {seat: cards}. ``deck`` lists the top
        cards; every card not placed goes below them, or to ``leftover`` = (seat, zone).
        """
        seats = list(seats or SEATS2)
        decks = decks or (2 if len(seats) >= 4 else 1)
        players = {s: Player() for s in seats}
        placed: list[str] = list(deck or []) + list(floor or [])
        for zone, per_seat in zones.items():
            assert zone in (*ZONES, "task"), zone
            for seat, cards in per_seat.items():
                if zone == "task":
                    assert isinstance(cards, str)
                    players[seat].task = cards
                    placed.append(cards)
                else:
                    setattr(players[seat], zone, list(cards))
                    placed += list(cards)
        for seat, c in (face_down or {}).items():
            players[seat].task, players[seat].face_down = c, True
            placed.append(c)
        rest = [c for c in deck_ids(decks) if c not in placed]
        full = list(deck or [])
        if leftover is None:
            full += rest
        else:
            getattr(players[leftover[0]], leftover[1]).extend(rest)
        current = current or seats[0]
        state = State(
            seats=seats,
            decks=decks,
            extended=extended,
            teams=teams,
            players=players,
            deck=full,
            floor=list(floor or []),
            start=seats[0],
            current=current,
        )
        self.events = []
        try:
            flow.advance(state, self.events)
        except GameEnds as end:
            flow.finish(state, end, self.events)
        self.engine.invariants(state)
        return state

    play = ScenarioBase.step

    def run(self, state: State, seat: str, *actions: dict[str, Any]) -> list[Event]:
        """Play several decisions of one seat; return all their events."""
        events: list[Event] = []
        for action in actions:
            events += self.play(state, seat, action)
        return events

    def prompt(self, state: State) -> tuple[str, str] | None:
        p = self.engine.prompt(state)
        return None if p is None else (p.seat, p.kind)

    def legal(self, state: State, seat: str | None = None) -> list[dict[str, Any]]:
        return self.engine.legal_actions(state, seat or state.current)

    def kinds(self, events: list[Event]) -> list[str]:
        return [e.kind for e in events]


@pytest.fixture
def mot() -> Scenario:
    return Scenario()
