"""A scenario builder for Momiji rules cases: exact states, real decisions."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.scenario import Scenario as ScenarioBase

from arbiter.core.engine import Event
from arbiter.core.errors import IllegalAction
from arbiter.core.hidden import placeholder
from arbiter.games.momiji import MomijiEngine
from arbiter.games.momiji.state import Pile, State, Turn, copy_state

SEATS2 = ["alice", "bob"]
SEATS3 = ["alice", "bob", "carol"]
SEATS4 = ["alice", "bob", "carol", "dave"]


def play(*cards: str) -> dict[str, Any]:
    return {"kind": "play", "cards": list(cards)}


def collect(kind: str) -> dict[str, Any]:
    return {"kind": "collect", "type": kind}


def power(landscape: str, **params: str) -> dict[str, Any]:
    return {"kind": "power", "landscape": landscape, **params}


END: dict[str, Any] = {"kind": "end"}
REVEAL: dict[str, Any] = {"kind": "reveal"}


class Scenario(ScenarioBase):
    """Build exact Momiji states and drive them with ``check`` and ``apply``."""

    SEATS2, SEATS3, SEATS4 = SEATS2, SEATS3, SEATS4
    play = staticmethod(play)
    collect = staticmethod(collect)
    power = staticmethod(power)
    END, REVEAL = END, REVEAL

    def __init__(self, peer: bool = False) -> None:
        super().__init__(MomijiEngine(), b"momiji-rules-cases", peer)
        self.options = self.engine.parse_options({})

    def conceal(self, state: State) -> tuple[State, list[str], dict[str, set[str]]]:
        """Hidden in Momiji: the deck, the part of each hand nobody saw arrive, and the
        cards buried at once (their owner knows them, MOM-R21)."""
        shared = copy_state(state)
        slots: list[str] = []
        holders: dict[str, set[str]] = {seat: set() for seat in state.seats}

        def hide(card: str, holder: str | None) -> str:
            slot = placeholder("d0", len(slots))
            slots.append(card)
            if holder is not None:
                holders[holder].add(slot)
            return slot

        shared.deck = [hide(card, None) for card in state.deck]
        for seat, player in shared.players.items():
            seen = list(player.known)
            hand = []
            for card in player.hand:
                if card in seen:
                    seen.remove(card)
                    hand.append(card)
                else:
                    hand.append(hide(card, seat))
            player.hand = hand
            for pile in player.piles:
                pile.cards = [c if up else hide(c, seat) for c, up in zip(pile.cards, pile.shown, strict=True)]
        return shared, slots, holders

    def new_game(self, seats: list[str] | None = None, **options: str) -> tuple[State, list[Event]]:
        """Return a real setup (shuffled by a fixed stream)."""
        chosen = self.engine.parse_options(options) if options else self.options
        return self.engine.setup(chosen, list(seats or SEATS2), self.rng())

    def build(
        self,
        seats: list[str] | None = None,
        *,
        hands: dict[str, list[str]] | None = None,
        known: dict[str, list[str]] | None = None,
        piles: dict[str, list[list[str]]] | None = None,
        garden: list[str] | None = None,
        deck: list[str] | None = None,
        acorns: dict[str, int] | None = None,
        landscapes: dict[str, list[str]] | None = None,
        used: dict[str, list[str]] | None = None,
        centre: list[str] | None = None,
        objectives: dict[str, list[str]] | None = None,
        turn: str | None = None,
        phase: str = "main",
    ) -> State:
        """Return an exact state; cards not placed go to the deck (``deck`` not given) or
        to the discard pile. Piles are lists of cards, bottom first, all shown on top once.
        Unnamed seats have empty hands, 2 acorns and their first-game panorama."""
        seats = list(seats or SEATS2)
        state, _ = self.engine.setup(self.options, seats, self.rng())
        rest = state.cards.deck(state.types)

        def allot(codes: list[str]) -> list[str]:
            for code in codes:
                assert code in rest, f"{code} is not left in the box"
                rest.remove(code)
            return list(codes)

        for seat in seats:
            player = state.players[seat]
            player.hand = state.cards.sort(allot((hands or {}).get(seat, [])))
            player.known = state.cards.sort((known or {}).get(seat, []))
            player.piles = [
                Pile(state.cards.cards[p[0]].type, allot(p), [True] * len(p))
                for p in (piles or {}).get(seat, [])
            ]
            player.acorns = (acorns or {}).get(seat, 2)
            player.landscapes = (landscapes or {}).get(seat, player.landscapes)
            player.used = (used or {}).get(seat, [])
            player.objectives = (objectives or {}).get(seat, [])
        state.garden = state.cards.sort(allot(garden or []))
        if deck is None:
            state.deck, state.discard = list(rest), []
        else:
            state.deck, state.discard = allot(deck), list(rest)
        owned = [o for p in state.players.values() for o in p.objectives]
        state.centre = [o for o in (centre or state.centre) if o not in owned]
        state.turn = Turn(turn or seats[0], phase=phase)
        self.engine.invariants(state)
        return state

    play_ = ScenarioBase.step
    run = ScenarioBase.moves

    def illegal(self, state: State, seat: str, action: Any) -> IllegalAction:
        """Return the rejection of a decision that must be illegal (and is not listed)."""
        rejection = super().illegal(state, seat, action)
        assert action not in self.engine.legal_actions(state, seat)
        assert "\n" not in rejection.message
        return rejection

    def legal(self, state: State, seat: str, action: dict[str, Any]) -> None:
        """Assert a decision passes ``check`` and is listed."""
        self.engine.check(state, seat, action)
        assert action in self.engine.legal_actions(state, seat)


@pytest.fixture(params=["referee", "peer"])
def mj(request: pytest.FixtureRequest) -> Scenario:
    """Every rules case in both modes: as the referee plays it, and on a peer table too
    (docs/peer.md §3, ``helpers.scenario``)."""
    return Scenario(peer=request.param == "peer")
