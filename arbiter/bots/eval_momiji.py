"""Momiji's evaluation for the greedy and search bots (docs/bots.md).

Worth = the final score of the table now (each pile's top value times its cards, acorns,
objectives met best) + the hand: cards that fit one of the seat's open piles (they raise
its top or its size) count more than cards of no use, and hands beyond the limit count
nothing.
"""

from __future__ import annotations

from typing import Any

from arbiter.bots.evaluate import provisional
from arbiter.core.engine import Engine
from arbiter.games.momiji.data import TOP
from arbiter.games.momiji.state import HAND_LIMIT

FITS = 1.0
SPARE = 0.25
OPEN_PILE = 0.8


def estimate(engine: Engine, state: Any) -> dict[str, float]:
    """Return every seat's estimated worth in points."""
    worth = provisional(engine, state)
    if state.result is not None:
        return worth
    cards = state.cards.cards
    for seat, p in state.players.items():
        tops = {q.type: cards[q.top].value for q in p.piles}
        extra = 0.0
        for code in p.hand[:HAND_LIMIT]:
            c = cards[code]
            top = tops.get(c.type)
            if top is not None and top < TOP and c.value >= top:
                extra += FITS + 0.5 * (c.value - top)
            elif top is None and c.value == 0:
                extra += FITS
            else:
                extra += SPARE
        extra += OPEN_PILE * sum(1 for v in tops.values() if v < TOP)
        worth[seat] += extra
    return worth
