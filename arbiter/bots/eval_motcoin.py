"""Mot Coin's evaluation for the greedy and search bots (docs/bots.md).

1. The auction in progress is settled as if every other bidder passed now (the engine
   itself awards the card, places the dice, applies the fluctuation): a bid is judged by
   what it wins and what it costs.
2. Worth = the profit after the price rise (stacks of close prices take the top price;
   HardForks and Stable Coins follow the cheapest coin) − the expected crash: each die
   on a card costs its face times the card's crash, where the face is first moved by the
   fluctuation still expected from the draw pile (most cards lower the dice, and a die
   that drops below 1 comes back) + the budget: each available die is worth the points
   it can still buy while cards remain.

The search bot evaluates hundreds of thousands of positions per game, so the profit is
computed here from per-card numbers read once per card table (``_Numbers``) rather than
through the full final scoring; a test checks it equals the scoring's profit.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from arbiter.core.engine import Engine
from arbiter.core.rng import Rng
from arbiter.games.motcoin import flow
from arbiter.games.motcoin.cards import HARDFORK, MOTCOIN, REMOVE, Catalog
from arbiter.games.motcoin.scoring import rise_gap

DIE = 4.0
"""A free die's worth with the whole draw pile ahead (it buys part of a card later)."""
DRIFT = 0.3
"""Share of the draw pile's total fluctuation a die on a card is expected to feel."""
_SETTLE = b"arbiter-bot-settle/1"


class _Numbers:
    """One card table's numbers as plain dicts: price, sort key, kind, crash, drift."""

    def __init__(self, cards: Catalog):
        rows = cards.rows
        self.price = {c: r["price"] for c, r in rows.items()}
        self.key = {c: (r["price"], r["number"]) for c, r in rows.items()}
        self.kind = {c: r["type"] for c, r in rows.items()}
        self.crash = {c: -r["crash"] for c, r in rows.items()}
        # "Remove one die" counts as -1 of drift (it takes the lowest die back).
        self.drift = {
            c: -1 if r["fluctuation"] == REMOVE else r["fluctuation"] for c, r in rows.items()
        }
        self.numbered = len(cards.numbered)


@lru_cache(maxsize=8)
def _numbers(cards: Catalog) -> _Numbers:
    """Return a card table's numbers (catalogs are themselves cached: one per table)."""
    return _Numbers(cards)


def settle(engine: Engine, state: Any) -> Any:
    """Return a copy where the open auction ends now: every other bidder passes."""
    auction = state.auction
    if auction is None or state.result is not None:
        return state
    out = engine.copy(state)
    rng = Rng(_SETTLE)
    for _ in range(len(out.seats) + 1):
        now = flow.prompt(out)
        a = out.auction
        if now is None or now.kind != "bid" or a is None or a.card != auction.card:
            break
        # What engine.apply does with {"kind": "pass"}, without parsing it each time.
        flow.pass_(out, now.seat, rng)
    return out


def profit(numbers: _Numbers, player: Any, gap: int) -> int:
    """Return the seat's profit in the final scoring now (rules 5.1–5.2): Mot Coins
    stacked from the cheapest and valued at their stack's top price, HardForks at twice
    and Stable Coins at once the cheapest stack's price."""
    price, kind = numbers.price, numbers.kind
    coins = sorted(
        (h.card for h in player.holdings if kind[h.card] == MOTCOIN), key=numbers.key.__getitem__
    )
    value = 0
    base = None
    top = count = 0
    for card in coins:
        p = price[card]
        if count and p - top <= gap:
            count += 1
        else:
            if count:
                value += top * count
                base = top if base is None else base
            count = 1
        top = p
    if count:
        value += top * count
        base = top if base is None else base
    base = base or 0
    for h in player.holdings:
        k = kind[h.card]
        if k != MOTCOIN:
            value += 2 * base if k == HARDFORK else base
    return value


def estimate(engine: Engine, state: Any) -> dict[str, float]:
    """Return every seat's estimated worth in points."""
    if state.result is not None:
        return {s: float(v) for s, v in state.result["scores"].items()}
    state = settle(engine, state)
    if state.result is not None:
        return {s: float(v) for s, v in state.result["scores"].items()}
    numbers = _numbers(state.cards)
    drift = numbers.drift
    pile_drift = sum(drift[c] for c in state.draw)
    if state.round == 1:
        pile_drift += sum(drift[c] for c in state.discard)
    shift = DRIFT * pile_drift
    left = (
        min(1.0, 2 * len(state.draw) / numbers.numbered)
        if state.round == 1
        else min(1.0, len(state.draw) / numbers.numbered + 0.2)
    )
    gap = rise_gap(len(state.seats))
    crash_of = numbers.crash
    worth: dict[str, float] = {}
    for seat, p in state.players.items():
        crash = 0.0
        for h in p.holdings:
            faces = sum(max(0.0, f + shift) for f in h.dice)
            crash += faces * crash_of[h.card]
        worth[seat] = profit(numbers, p, gap) - crash + DIE * p.available * left
    return worth
