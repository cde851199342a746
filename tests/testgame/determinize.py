"""Rebuild a full tally state from one seat's view (the bots' determinisation)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.core.rng import Rng
from testgame.state import TallyState


def determinize(
    view: Mapping[str, Any], seat: str, rng: Rng, prompt: Mapping[str, Any] | None = None
) -> TallyState:
    """Deal the cards ``seat`` has not seen to the deck, other hands and other piles.

    Seen: the seat's hand and pile and every tally; the sizes of every zone are public,
    so the deck size at setup is their sum.
    """
    seats = list(view["seats"])
    hands_n, piles_n = view["hands"], view["piles"]
    total = view["deck"] + sum(hands_n.values()) + sum(piles_n.values())
    total += sum(len(t) for t in view["tallies"].values())
    seen = set(view["hand"]) | set(view["pile"])
    seen |= {c for t in view["tallies"].values() for c in t}
    pool = [c for c in range(1, total + 1) if c not in seen]
    rng.shuffle(pool)
    hands: dict[str, list[int]] = {}
    piles: dict[str, list[int]] = {}
    for s in seats:
        if s == seat:
            hands[s], piles[s] = list(view["hand"]), list(view["pile"])
            continue
        hands[s], pool = sorted(pool[: hands_n[s]]), pool[hands_n[s] :]
        piles[s], pool = pool[: piles_n[s]], pool[piles_n[s] :]
    return TallyState(
        seats=seats,
        cards=total,
        deck=pool,
        hands=hands,
        tallies={s: list(t) for s, t in view["tallies"].items()},
        piles=piles,
        turn=view["turn"] if view["turn"] is not None else seats[0],
        played=view["played"],
        discarded=view["discarded"],
    )
