"""Final scoring (rules 5 and 6): price rise, HardFork split, market crash, ranking."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arbiter.core.engine import Outcome, rank_by_score
from arbiter.games.motcoin.cards import HARDFORK, MOTCOIN, Catalog

if TYPE_CHECKING:
    from arbiter.games.motcoin.state import Player, State


def rise_gap(seats: int) -> int:
    """Rules 5.1: the largest price gap that stacks: 3 with 3 players, 4 with 4 or 5."""
    return 3 if seats == 3 else 4


def stacks(cards: Catalog, coins: list[str], gap: int) -> list[list[str]]:
    """Rules 5.1: stack Mot Coins from the cheapest; a gap of at most ``gap`` to the top
    card of the stack so far puts the whole stack under the next card (MC-R6)."""
    out: list[list[str]] = []
    for card in sorted(coins, key=lambda c: (cards[c]["price"], cards[c]["number"])):
        if out and cards[card]["price"] - cards[out[-1][-1]]["price"] <= gap:
            out[-1].append(card)
        else:
            out.append([card])
    return out


def _loss(dice: list[int], crash: int) -> int:
    """Rules 5.3: each die costs its face times the card's crash value (printed negative)."""
    return sum(dice) * -crash


def score_player(cards: Catalog, player: Player, gap: int) -> dict[str, Any]:
    """Return one player's scoring: the stacks, HardForks, Stable Coins and breakdown."""
    dice = {h.card: h.dice for h in player.holdings}
    coins = [h.card for h in player.holdings if cards[h.card]["type"] == MOTCOIN]
    piles = []
    for pile in stacks(cards, coins, gap):
        top = pile[-1]
        moved = sorted((f for card in pile for f in dice[card]), reverse=True)
        price = cards[top]["price"]
        piles.append(
            {
                "cards": pile,
                "top": top,
                "price": price,
                "value": price * len(pile),
                "printed": sum(cards[c]["price"] for c in pile),
                "dice": moved,
                "crash": cards[top]["crash"],
                "loss": _loss(moved, cards[top]["crash"]),
            }
        )
    # Rules 5.2: the cheapest Mot Coin after the rise (0 with none) prices the others.
    base = min((p["price"] for p in piles), default=0)
    others = []
    for h in player.holdings:
        kind = cards[h.card]["type"]
        if kind == MOTCOIN:
            continue
        value = 2 * base if kind == HARDFORK else base
        crash = cards[h.card]["crash"]
        others.append(
            {
                "card": h.card,
                "type": kind,
                "value": value,
                "dice": list(h.dice),
                "crash": crash,
                "loss": _loss(h.dice, crash),
            }
        )
    forks = [o for o in others if o["type"] == HARDFORK]
    stables = [o for o in others if o["type"] != HARDFORK]
    motcoin_value = sum(p["value"] for p in piles)
    profit = motcoin_value + sum(o["value"] for o in others)
    losses = sum(p["loss"] for p in piles) + sum(o["loss"] for o in others)
    breakdown = {
        "motcoins": len(coins),
        "printed": sum(p["printed"] for p in piles),
        "rise": motcoin_value - sum(p["printed"] for p in piles),
        "motcoin_value": motcoin_value,
        "base": base,
        "hardforks": len(forks),
        "hardfork_value": sum(o["value"] for o in forks),
        "stablecoins": len(stables),
        "stablecoin_value": sum(o["value"] for o in stables),
        "profit": profit,
        "losses": losses,
        "total": profit - losses,
        "dice_left": player.available,
    }
    return {"stacks": piles, "others": others, "breakdown": breakdown}


def score(state: State) -> dict[str, Any]:
    """Return the final scoring of every seat, the scores and the ranking (ties share)."""
    gap = rise_gap(len(state.seats))
    seats = {seat: score_player(state.cards, state.players[seat], gap) for seat in state.seats}
    scores = {seat: seats[seat]["breakdown"]["total"] for seat in state.seats}
    # Rules 6: the highest total wins, even if negative; a tie shares the victory.
    return {
        "gap": gap,
        "seats": seats,
        "scores": scores,
        "ranking": rank_by_score(scores, state.seats),
    }


def provisional(state: State) -> Outcome:
    """Return the result as if the game ended now (MC-R15): the final scoring of the
    cards and dice on the table; a card on auction belongs to nobody yet, and bid dice
    are still available (FAQ). On a finished game it is the stored result."""
    return outcome(state.result if state.result is not None else score(state))


def outcome(result: dict[str, Any]) -> Outcome:
    """Return the protocol's outcome from a stored result."""
    return Outcome(
        scores=dict(result["scores"]),
        ranking=[list(group) for group in result["ranking"]],
        breakdown={seat: dict(s["breakdown"]) for seat, s in result["seats"].items()},
    )
