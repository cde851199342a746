"""Mottainai's evaluation for the greedy and search bots (docs/bots.md).

Worth = the final score of the table now (works, covered sales, backorders, card
points) + what the temple promises: uncovered sales (half their value: they may be
covered later), helpers (an extra action of their material each turn), materials on the
craft bench and the hand (cards to craft, sell or back-order), and works toward the end;
with Wutai, the kinds of card an Om work's effect can use (its Om types).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from arbiter.bots.evaluate import provisional
from arbiter.core.engine import Engine
from arbiter.games.mottainai import om, wutai
from arbiter.games.mottainai.cards import MATERIAL, VALUE, card
from arbiter.games.mottainai.om_effects import OM_EFFECTS

SALE_HOPE = 0.5
HELPER = 1.2
BENCH = 0.4
HAND = 0.35
WORK = 0.6
OM_TYPE = 1.0
"""Wutai: each material among the cards under an edge whose Om type the work's effect
reads (WICK's Om helpers, the Paper Om SMITH booster's Om materials: M-R110), one more
kind of card it can use. A card under a vanilla Om work, or repeating a material, is
worth nothing: tucked cards score, hire, support and cover nothing (M-R109)."""


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
        if state.wutai is not None and state.wutai["om"]:
            extra += OM_TYPE * om_type_count(state, seat)
        worth[seat] += extra
    return worth


def om_type_count(state: Any, seat: str) -> int:
    """Return how many Om types the seat's Om works' effects read (material, edge, work)."""
    typed = _typed_edges(state.wutai["table"])
    under = state.wutai["om"]
    n = 0
    for work in om.om_works(state, seat):
        edges = typed.get(work)
        if edges and work in under:
            n += sum(len({MATERIAL[c] for c in under[work][e]}) for e in edges)
    return n


@lru_cache(maxsize=16)
def _typed_edges(key: str) -> dict[str, tuple[str, ...]]:
    """Return Om card id → the edges whose types its effect reads, for card list ``key``."""
    out = {}
    for row in wutai.TABLES[key]["cards"]:
        eff = OM_EFFECTS.get(row["effect"]) if row["effect"] else None
        if eff is not None and eff.types:
            out[row["id"]] = eff.types
    return out
