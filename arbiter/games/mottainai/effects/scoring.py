"""End-game scoring (Bench, Coin, Haniwa, Lampshade, Pillar, Quilt, Scroll, Tapestry, Teapot).

See ``registry`` for what each function receives.
"""

from __future__ import annotations

from typing import Any

from arbiter.games.mottainai.cards import card
from arbiter.games.mottainai.effects.dispatch import identity
from arbiter.games.mottainai.effects.registry import effect
from arbiter.games.mottainai.state import State


@effect("scroll")
def scroll(state: State, seat: str, work: str, sheet: dict[str, Any]) -> None:
    """Score 3 points."""
    sheet["points"][work] = 3


@effect("bench")
def bench(state: State, seat: str, work: str, sheet: dict[str, Any]) -> None:
    """Score 2 points per STONE work, Bench included, each counted once (M-R11)."""
    p = state.players[seat]
    stone = sum(1 for w in p.gallery + p.gift_shop if card(identity(state, w)).material == "STONE")
    sheet["points"][work] = 2 * stone
