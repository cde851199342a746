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
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Engine
from arbiter.core.rng import Rng
from arbiter.games.motcoin.cards import REMOVE

DIE = 4.0
"""A free die's worth with the whole draw pile ahead (it buys part of a card later)."""
DRIFT = 0.3
"""Share of the draw pile's total fluctuation a die on a card is expected to feel."""
_SETTLE = b"arbiter-bot-settle/1"


def settle(engine: Engine, state: Any) -> Any:
    """Return a copy where the open auction ends now: every other bidder passes."""
    auction = state.auction
    if auction is None or state.result is not None:
        return state
    out = engine.copy(state)
    rng = Rng(_SETTLE)
    for _ in range(len(out.seats) + 1):
        now = engine.prompt(out)
        a = out.auction
        if now is None or now.kind != "bid" or a is None or a.card != auction.card:
            break
        engine.apply(out, now.seat, {"kind": "pass"}, rng)
    return out


def estimate(engine: Engine, state: Any) -> dict[str, float]:
    """Return every seat's estimated worth in points."""
    if state.result is not None:
        return {s: float(v) for s, v in state.result["scores"].items()}
    state = settle(engine, state)
    outcome = engine.outcome(state) or engine.provisional_outcome(state)
    if state.result is not None:
        return {s: float(v) for s, v in outcome.scores.items()}
    cards = state.cards
    pile = list(state.draw) + list(state.discard if state.round == 1 else [])
    drift = sum(-1 if cards[c]["fluctuation"] == REMOVE else cards[c]["fluctuation"] for c in pile)
    shift = DRIFT * drift
    left = min(1.0, 2 * len(state.draw) / len(cards.numbered)) if state.round == 1 else min(
        1.0, len(state.draw) / len(cards.numbered) + 0.2
    )
    worth: dict[str, float] = {}
    for seat, p in state.players.items():
        crash = 0.0
        for h in p.holdings:
            faces = sum(max(0.0, f + shift) for f in h.dice)
            crash += faces * -cards[h.card]["crash"]
        worth[seat] = outcome.breakdown[seat]["profit"] - crash + DIE * p.available * left
    return worth
