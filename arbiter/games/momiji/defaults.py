"""The default decision of a seat that missed its deadline: the cheapest legal move (MOM-R16).

The ``pass`` timeout policy takes it for the seat; it is never chosen in normal play.
A decision's cost is what the seat gives up for it, compared in this order:

1. the acorns it pays (reveal and powers 1, activating an objective 3);
2. the hand cards it gives up (a play its cards, a discard two, a hand-limit discard
   one, a swap or a leap power the card it names from the hand);
3. the total value of those cards.

Collecting and ending the turn cost nothing. Equal costs go to the decision listed first
by ``legal_actions`` (collects in garden order; hand cards in hand order). Everything
weighed is the seat's own (hand, acorns, garden, phase), so the choice never depends on
what the seat cannot see.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import reject
from arbiter.games.momiji import rules
from arbiter.games.momiji.powers import HAND_FIELDS
from arbiter.games.momiji.state import OBJECTIVE_COST, State

Action = dict[str, Any]
Cost = tuple[int, int, int]


def default_action(state: State, seat: str) -> Action:
    """Return the cheapest legal decision of ``seat``; ties go to ``legal_actions`` order."""
    if state.over:
        raise reject("the game is over: no decision to take by default", "MOM-5")
    if seat != state.turn.seat:
        raise reject(f"it is {state.turn.seat}'s turn, not {seat}'s", "MOM-2")
    legal = rules.legal_actions(state, seat)
    # min keeps the first of equal costs: legal_actions order breaks ties.
    cheapest: Action = min(legal, key=lambda action: cost(state, action))
    return dict(cheapest)


def cost(state: State, action: Action) -> Cost:
    """Return (acorns paid, hand cards given up, their total value) of a legal decision."""
    kind = action["kind"]
    acorns = 0
    spent: list[str] = []
    if kind == "reveal":
        acorns = 1
    elif kind == "activate":
        acorns = OBJECTIVE_COST
    elif kind in ("play", "discard"):
        spent = list(action["cards"])
    elif kind == "hand-limit":
        spent = [action["card"]]
    elif kind == "power":
        acorns = 1
        power = state.cards.landscapes[action["landscape"]]["power"]
        field = HAND_FIELDS.get(power)
        if field is not None:
            spent = [action[field]]
    cards = state.cards.cards
    return acorns, len(spent), sum(cards[code].value for code in spent)
