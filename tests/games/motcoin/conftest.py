"""A scenario builder for Mot Coin rules cases: exact states, real decisions."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.scenario import Scenario as ScenarioBase

from arbiter.core.engine import Event
from arbiter.core.hidden import placeholder
from arbiter.games.motcoin import MotCoinEngine, flow
from arbiter.games.motcoin.state import Auction, Holding, State

SEATS3 = ["alice", "bob", "carol"]
SEATS4 = ["alice", "bob", "carol", "dave"]
SEATS5 = ["alice", "bob", "carol", "dave", "erin"]


def bid(*faces: int) -> dict[str, Any]:
    return {"kind": "bid", "dice": list(faces)}


PASS: dict[str, Any] = {"kind": "pass"}


def remove(card: str) -> dict[str, Any]:
    return {"kind": "remove", "card": card}


class Scenario(ScenarioBase):
    """Build exact Mot Coin states and drive them with ``check`` and ``apply``."""

    SEATS3, SEATS4, SEATS5 = SEATS3, SEATS4, SEATS5
    bid = staticmethod(bid)
    remove = staticmethod(remove)
    PASS = PASS

    def __init__(self, peer: bool = False) -> None:
        super().__init__(MotCoinEngine(), b"motcoin-rules-cases", peer)
        self.options = self.engine.parse_options({})

    def conceal(self, state: State) -> tuple[State, list[str], dict[str, set[str]]]:
        """Hidden in Mot Coin: the draw pile's order, and nothing else (MC-R10)."""
        shared = self.engine.copy(state)
        shared.draw = [placeholder("d0", k) for k in range(len(state.draw))]
        return shared, list(state.draw), {seat: set() for seat in state.seats}

    def new_game(self, seats: list[str] | None = None) -> tuple[State, list[Event]]:
        """Return a real setup (the draw pile shuffled by a fixed stream)."""
        state, events = self.engine.setup(self.options, list(seats or SEATS3), self.rng())
        return state, events

    def build(
        self,
        seats: list[str] | None = None,
        *,
        cards: dict[str, list[tuple[str, list[int]]]] | None = None,
        draw: list[str] | None = None,
        discard: list[str] | None = None,
        auction: str | None = None,
        first: str | None = None,
        round: int = 1,
        hardforks: int = 0,
    ) -> State:
        """Return an exact state; numbered cards not placed anywhere are out of the game.

        ``cards`` maps a seat to its (card, dice) holdings; seats not named keep their
        Stable Coin with [4, 3, 2]. Available dice are what the seat has left.
        """
        seats = list(seats or SEATS3)
        state, _ = self.engine.setup(self.options, seats, self.rng())
        state.auction = None
        state.pending, state.source = [], None
        state.round, state.hardforks = round, hardforks
        state.first = first or seats[0]
        for seat, holdings in (cards or {}).items():
            player = state.players[seat]
            player.holdings = [Holding(card, list(dice)) for card, dice in holdings]
        for player in state.players.values():
            player.available = state.dice_per_seat - player.fluctuation_dice()
        held = {h.card for p in state.players.values() for h in p.holdings}
        stables = state.cards.stable_ids
        state.stable_supply = [s for s in stables if s not in held]
        state.draw = list(draw or [])
        state.discard = list(discard or [])
        placed = held | set(state.draw) | set(state.discard) | ({auction} if auction else set())
        state.removed = [c for c in state.cards.numbered if c not in placed]
        if auction is not None:
            stable = None
            if state.cards[auction]["double"]:
                stable = state.stable_supply.pop(0)
            order = state.clockwise_from(state.first)
            state.auction = Auction(auction, stable, order=order, turn=state.first)
            flow.run_auction(state, [])
        self.engine.invariants(state)
        return state

    play = ScenarioBase.step
    run = ScenarioBase.moves

    def dice(self, state: State, seat: str, card: str) -> list[int]:
        return next(h.dice for h in state.players[seat].holdings if h.card == card)


@pytest.fixture(params=["referee", "peer"])
def mc(request: pytest.FixtureRequest) -> Scenario:
    """Every rules case in both modes: as the referee plays it, and on a peer table too
    (docs/peer.md §3, ``helpers.scenario``)."""
    return Scenario(peer=request.param == "peer")

