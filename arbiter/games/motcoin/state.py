"""The Mot Coin state as plain data, and its JSON form (ints, strings, lists, objects)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from arbiter.games.motcoin.cards import Catalog, catalog

DICE_PER_SEAT = {3: 9, 4: 8, 5: 7}
"""Rules 3: each player's dice by player count."""
STABLE_DICE = [4, 3, 2]
"""Rules 3: the price fluctuation dice each player puts on their Stable Coin."""


@dataclass
class Holding:
    """A card won (or dealt) and the price fluctuation dice on it, highest face first."""

    card: str
    dice: list[int] = field(default_factory=list)


@dataclass
class Player:
    """One seat's dice: a count of available dice and the cards with their dice."""

    available: int
    holdings: list[Holding] = field(default_factory=list)

    def fluctuation_dice(self) -> int:
        return sum(len(h.dice) for h in self.holdings)


@dataclass
class Auction:
    """The card (and Stable Coin, for a double auction) being bid on.

    ``order`` lists the seats clockwise from the first player; ``high`` is the strongest
    bid so far (faces, highest first) held by ``high_seat``; ``last_bids`` keeps each
    bidder's latest bid (rules 7: the Stable Coin takes the last passer's last bid).
    """

    card: str
    stable: str | None
    order: list[str]
    turn: str | None = None
    passed: list[str] = field(default_factory=list)
    high_seat: str | None = None
    high: list[int] = field(default_factory=list)
    last_bids: dict[str, list[int]] = field(default_factory=dict)


@dataclass
class State:
    """Everything about a game of Mot Coin; only ``draw``'s order is hidden."""

    seats: list[str]
    table: dict[str, Any] | str
    """The card table: ``"builtin"`` (the shipped one) or a group's own, embedded."""
    dice_per_seat: int
    players: dict[str, Player]
    first: str
    round: int = 1
    draw: list[str] = field(default_factory=list)
    """The draw pile, top card first (its order is the only hidden information)."""
    discard: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    """Cards out of the game: all-pass cards and unclaimed Stable Coins."""
    stable_supply: list[str] = field(default_factory=list)
    auction: Auction | None = None
    pending: list[str] = field(default_factory=list)
    """Seats that must choose which lowest die to take back ("Remove one die")."""
    source: str | None = None
    """The card whose "Remove one die" the pending seats apply."""
    hardforks: int = 0
    """HardForks put up for auction so far (MC-R1)."""
    ender: str | None = None
    """The 4th HardFork, revealed and not auctioned: the game is over."""
    result: dict[str, Any] | None = None
    """The final scoring, once the game is over."""
    _catalog: Catalog | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def cards(self) -> Catalog:
        if self._catalog is None:
            self._catalog = catalog(self.table)
        return self._catalog

    @property
    def over(self) -> bool:
        return self.result is not None

    def clockwise_from(self, seat: str) -> list[str]:
        """Return every seat in clockwise (seat list) order starting with ``seat``."""
        i = self.seats.index(seat)
        return self.seats[i:] + self.seats[:i]

    def after(self, seat: str) -> list[str]:
        """Return the other seats clockwise, starting with the one after ``seat``."""
        return self.clockwise_from(seat)[1:]


def encode(state: State) -> dict[str, Any]:
    """Return the state as JSON data (a fresh copy)."""
    auction = state.auction
    return {
        "seats": list(state.seats),
        "table": copy.deepcopy(state.table),
        "dice_per_seat": state.dice_per_seat,
        "players": {
            seat: {
                "available": p.available,
                "holdings": [{"card": h.card, "dice": list(h.dice)} for h in p.holdings],
            }
            for seat, p in state.players.items()
        },
        "first": state.first,
        "round": state.round,
        "draw": list(state.draw),
        "discard": list(state.discard),
        "removed": list(state.removed),
        "stable_supply": list(state.stable_supply),
        "auction": None
        if auction is None
        else {
            "card": auction.card,
            "stable": auction.stable,
            "order": list(auction.order),
            "turn": auction.turn,
            "passed": list(auction.passed),
            "high_seat": auction.high_seat,
            "high": list(auction.high),
            "last_bids": {s: list(b) for s, b in auction.last_bids.items()},
        },
        "pending": list(state.pending),
        "source": state.source,
        "hardforks": state.hardforks,
        "ender": state.ender,
        "result": copy.deepcopy(state.result),
    }


def decode(data: dict[str, Any]) -> State:
    """Rebuild a state from ``encode``'s output (the input is not kept)."""
    data = copy.deepcopy(data)
    players = {
        seat: Player(p["available"], [Holding(h["card"], h["dice"]) for h in p["holdings"]])
        for seat, p in data["players"].items()
    }
    a = data["auction"]
    auction = None if a is None else Auction(**a)
    fields = {k: v for k, v in data.items() if k not in ("players", "auction")}
    return State(players=players, auction=auction, **fields)


def copy_state(state: State) -> State:
    """Return an independent copy, equal to ``decode(encode(state))``.

    Built field by field: the JSON round trip deep-copies the card table twice, and the
    search bot copies states tens of thousands of times per game. The card table (and the
    catalog built from it) is shared: nothing changes it after setup.
    """
    a = state.auction
    out = State(
        seats=list(state.seats),
        table=state.table,
        dice_per_seat=state.dice_per_seat,
        players={
            seat: Player(p.available, [Holding(h.card, list(h.dice)) for h in p.holdings])
            for seat, p in state.players.items()
        },
        first=state.first,
        round=state.round,
        draw=list(state.draw),
        discard=list(state.discard),
        removed=list(state.removed),
        stable_supply=list(state.stable_supply),
        auction=None
        if a is None
        else Auction(
            card=a.card,
            stable=a.stable,
            order=list(a.order),
            turn=a.turn,
            passed=list(a.passed),
            high_seat=a.high_seat,
            high=list(a.high),
            last_bids={s: list(b) for s, b in a.last_bids.items()},
        ),
        pending=list(state.pending),
        source=state.source,
        hardforks=state.hardforks,
        ender=state.ender,
        result=copy.deepcopy(state.result),
    )
    out._catalog = state._catalog
    return out
