"""The default decision of a seat that missed its deadline (MC-R14).

The ``pass`` timeout policy takes it for the seat; it is never chosen in normal play.
Both choices follow from the public prompt alone (Mot Coin hides only the draw pile's
order), so a seat's default never depends on what it cannot see.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import reject
from arbiter.games.motcoin import flow
from arbiter.games.motcoin.state import State

PASS: dict[str, Any] = {"kind": "pass"}


def default_action(state: State, seat: str) -> dict[str, Any]:
    """Return ``seat``'s default: pass a bid; take back the die from the first card listed.

    At a bid, the passive choice is to pass (rules 4.2: final for this card; the seat
    spends no dice). At "Remove one die" (MC-R5) a die must come back, so the default is
    the first card of the prompt's list: holdings in the order the seat got them, its
    Stable Coin first.
    """
    now = flow.prompt(state)
    if now is None:
        raise reject("the game is over: no decision to take by default", "4")
    if now.seat != seat:
        raise reject(f"it is {now.seat}'s turn to decide, not {seat}'s", "4.2")
    if now.kind == "remove":
        return {"kind": "remove", "card": now.detail["cards"][0]}
    return dict(PASS)
