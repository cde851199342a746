"""Rebuild a full Mot Coin state from one seat's view (the bots' determinisation).

Everything but the draw pile's order is public, so the view holds the whole state: the
draw pile's cards are listed, and shuffled here. The Stable Coin supply is shown as a
count; which coins it holds follows from where the others are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.core.engine import ImpossibleView
from arbiter.core.rng import Rng
from arbiter.games.motcoin.cards import BUILTIN, MOTCOIN, STABLECOIN, builtin_table, catalog
from arbiter.games.motcoin.state import Auction, Holding, Player, State


def _table(briefs: Mapping[str, Any]) -> dict[str, Any] | str:
    """Return ``"builtin"`` when the view's card data is the shipped table's, else a table
    rebuilt from the card data the view carries (all the rules read)."""
    shipped = catalog(BUILTIN)
    if all(shipped.brief(c) == b for c, b in briefs.items()) and len(briefs) == len(
        shipped.rows
    ):
        return BUILTIN
    rows = []
    stable: dict[str, Any] = {"count": 0, "crash": 0}
    for card, brief in briefs.items():
        if brief["type"] == STABLECOIN:
            stable = {"count": stable["count"] + 1, "crash": brief["crash"]}
            continue
        row = {
            "number": int(card),
            "type": brief["type"],
            "fluctuation": brief["fluctuation"],
            "crash": brief["crash"],
        }
        if brief["type"] == MOTCOIN:
            row["price"] = brief["price"]
        if brief.get("auction") == "double":
            row["auction"] = "double"
        rows.append(row)
    base = builtin_table()
    return {
        "format": base["format"],
        "title": "rebuilt from a state file",
        "cards": sorted(rows, key=lambda r: r["number"]),
        "stable_coin": stable,
    }


def determinize(
    view: Mapping[str, Any], seat: str, rng: Rng, prompt: Mapping[str, Any] | None = None
) -> State:
    """Return a state showing ``view`` to ``seat``, its draw pile in a random order."""
    players = {
        s: Player(p["available"], [Holding(h["card"], list(h["dice"])) for h in p["cards"]])
        for s, p in view["players"].items()
    }
    a = view["auction"]
    auction = None
    if a is not None:
        auction = Auction(
            card=a["card"],
            stable=a["stable"],
            order=list(a["order"]),
            turn=a["turn"],
            passed=list(a["passed"]),
            high_seat=a["high_seat"],
            high=list(a["high"]),
            last_bids={s: list(b) for s, b in a["last_bids"].items()},
        )
    draw = list(view["draw_pile"]["cards"])
    rng.shuffle(draw)
    state = State(
        seats=list(view["seats"]),
        table=_table(view["cards"]),
        dice_per_seat=next(iter(view["players"].values()))["dice"],
        players=players,
        first=view["first_player"],
        round=view["round"],
        draw=draw,
        discard=list(view["discard"]),
        removed=list(view["removed"]),
        auction=auction,
        pending=list(view["pending_removals"]),
        source=view["removal_source"],
        hardforks=view["hardforks_auctioned"],
        ender=view["ender"],
        result=view["result"],
    )
    placed = set(draw) | set(state.discard) | set(state.removed)
    placed |= {h.card for p in players.values() for h in p.holdings}
    if auction is not None:
        placed |= {auction.card, auction.stable} - {None}
    # The supply is a stack: coins leave from its top, so it keeps the catalog's order.
    state.stable_supply = [c for c in state.cards.stable_ids if c not in placed]
    if len(state.stable_supply) != view["stable_supply"]:
        raise ImpossibleView("the Stable Coin supply's count disagrees with the coins left for it")
    return state
