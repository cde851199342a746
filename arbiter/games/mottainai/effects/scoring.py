"""End-game scoring (Bench, Coin, Haniwa, Lampshade, Pillar, Quilt, Scroll, Tapestry, Teapot).

See ``registry`` for what each function receives. "Your choice if tied" picks are made
for the owner, to its best (cards.md §5: the arbiter may maximise them).
"""

from __future__ import annotations

from typing import Any

from arbiter.games.mottainai.cards import MATERIALS, VALUE, card
from arbiter.games.mottainai.effects.dispatch import identity
from arbiter.games.mottainai.effects.registry import effect
from arbiter.games.mottainai.state import State


def _counts(cards: list[str]) -> dict[str, int]:
    out = dict.fromkeys(MATERIALS, 0)
    for c in cards:
        out[card(c).material] += 1
    return out


def _add(sheet: dict[str, Any], key: str, mats: tuple[str, ...]) -> None:
    for mat in mats:
        if mat not in sheet[key]:
            sheet[key].append(mat)


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


@effect("coin")
def coin(state: State, seat: str, work: str, sheet: dict[str, Any]) -> None:
    """Count the hand a second time for backorders: each backorder scores twice (M-R7)."""
    sheet["backorder_factor"] += 1


@effect("haniwa")
def haniwa(state: State, seat: str, work: str, sheet: dict[str, Any]) -> None:
    """Score 3 per helper of your most-hired material (Fountain's helpers count, M-R6)."""
    from arbiter.games.mottainai.cover import helper_count

    sheet["points"][work] = 3 * max(helper_count(state, seat, m) for m in MATERIALS)


@effect("lampshade")
def lampshade(state: State, seat: str, work: str, sheet: dict[str, Any]) -> None:
    """Claim CLAY and METAL backorders when ahead or tied in sales, 0-0 included (rules FAQ)."""
    _add(sheet, "claim_ties", ("CLAY", "METAL"))


@effect("pillar")
def pillar(state: State, seat: str, work: str, sheet: dict[str, Any]) -> None:
    """Cover every sale of your most-sold material (the best of tied ones, M-R33)."""
    from arbiter.games.mottainai.cover import sales_covered

    sales = _counts(state.players[seat].sales)
    most = max(sales.values())
    if most == 0:
        return

    def gain(mat: str) -> int:
        done = mat in sheet["always_covered"] or sales_covered(state, seat, mat)
        return 0 if done else sales[mat] * VALUE[mat]

    best = max((m for m in MATERIALS if sales[m] == most), key=gain)
    _add(sheet, "always_covered", (best,))


@effect("quilt")
def quilt(state: State, seat: str, work: str, sheet: dict[str, Any]) -> None:
    """Cover PAPER, STONE and CLOTH sales; claim their backorders when ahead or tied."""
    mats = ("PAPER", "STONE", "CLOTH")
    _add(sheet, "always_covered", mats)
    _add(sheet, "claim_ties", mats)


@effect("tapestry")
def tapestry(state: State, seat: str, work: str, sheet: dict[str, Any]) -> None:
    """Score 1 per work in Tapestry's wing, itself included (Go Set's STONE works count, FAQ)."""
    from arbiter.games.mottainai.cover import wing_works

    wing = "gallery" if work in state.players[seat].gallery else "gift_shop"
    sheet["points"][work] = len(wing_works(state, seat, wing))


@effect("teapot")
def teapot(state: State, seat: str, work: str, sheet: dict[str, Any]) -> None:
    """Score 3 per craft-bench card of your most-collected material."""
    sheet["points"][work] = 3 * max(_counts(state.players[seat].bench).values())
