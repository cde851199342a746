"""Mottainai's evaluation for the greedy and search bots (docs/bots.md).

Worth = the final score of the table now (works, covered sales, backorders, card
points) + what the temple promises: uncovered sales (half their value: they may be
covered later), helpers (an extra action of their material each turn), materials on the
craft bench and the hand (cards to craft, sell or back-order), and works toward the end.
"""

from __future__ import annotations

from typing import Any

from arbiter.bots.evaluate import provisional
from arbiter.core.engine import Engine
from arbiter.games.mottainai.cards import VALUE, card

SALE_HOPE = 0.5
HELPER = 1.2
BENCH = 0.4
HAND = 0.35
WORK = 0.6


def estimate(engine: Engine, state: Any) -> dict[str, float]:
    """Return every seat's estimated worth in points."""
    worth = provisional(engine, state)
    if state.result is not None:
        return worth
    for seat, p in state.players.items():
        extra = SALE_HOPE * sum(VALUE[card(c).material] for c in p.sales)
        extra += HELPER * len(p.helpers)
        extra += BENCH * sum(VALUE[card(c).material] for c in p.bench)
        extra += HAND * min(len(p.hand), 5)
        extra += WORK * (len(p.gallery) + len(p.gift_shop))
        worth[seat] += extra
    return worth
