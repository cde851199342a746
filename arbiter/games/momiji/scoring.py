"""Final scoring (rules: the end): piles, acorns, activated objectives, the tie-break."""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import Outcome
from arbiter.core.hidden import faces
from arbiter.games.momiji import objectives
from arbiter.games.momiji.state import State

OWNER_POINTS = 10
OTHER_POINTS = 3
TIEBREAK = "most acorns left, then shared (MOM-R12)"


def score(state: State) -> dict[str, Any]:
    """Return every seat's breakdown, the objective results, scores and ranking."""
    cards = state.cards.cards
    # The scoring reads every pile's cards (their number, and buried ones for some
    # objectives): in a peer game the buried cards are opened here, all in one round.
    faces([c for player in state.players.values() for pile in player.piles for c in pile.cards])
    seats: dict[str, dict[str, Any]] = {}
    for seat in state.seats:
        player = state.players[seat]
        piles = []
        for pile in player.piles:
            top = cards[pile.top].value
            # Rules: each pile scores its top card's value times its number of cards.
            size = len(pile.cards)
            piles.append({"type": pile.type, "cards": size, "top": top, "points": top * size})
        seats[seat] = {
            "piles": piles,
            "objectives": [],
            "breakdown": {
                "piles": sum(p["points"] for p in piles),
                "acorns": player.acorns,
                "objectives": 0,
                "total": 0,
            },
        }
    results = []
    owners = {o: seat for seat in state.seats for o in state.players[seat].objectives}
    for objective in [o for o in state.cards.objectives if o in owners]:
        owner = owners[objective]
        row = state.cards.objectives[objective]
        values, best = objectives.best(state, row)
        points = {}
        for seat in best:
            # Rules: 10 to the token's owner if it meets the objective best, 3 to any other.
            points[seat] = OWNER_POINTS if seat == owner else OTHER_POINTS
            seats[seat]["objectives"].append({"objective": objective, "points": points[seat]})
            seats[seat]["breakdown"]["objectives"] += points[seat]
        results.append(
            {
                "objective": objective,
                "name": row["name"],
                "owner": owner,
                "values": values,
                "best": best,
                "points": points,
            }
        )
    for entry in seats.values():
        b = entry["breakdown"]
        b["total"] = b["piles"] + b["acorns"] + b["objectives"]
    scores = {seat: seats[seat]["breakdown"]["total"] for seat in state.seats}
    acorns = {seat: state.players[seat].acorns for seat in state.seats}
    ranking = rank(scores, acorns, state.seats)
    tied = len({scores[s] for s in state.seats}) < len(state.seats)
    return {
        "seats": seats,
        "objectives": results,
        "scores": scores,
        "ranking": ranking,
        "tiebreak": TIEBREAK if tied else None,
    }


def rank(scores: dict[str, int], acorns: dict[str, int], order: list[str]) -> list[list[str]]:
    """MOM-R12: rank by score, then by acorns left; seats equal on both share a place."""
    groups: dict[tuple[int, int], list[str]] = {}
    for seat in order:
        groups.setdefault((scores[seat], acorns[seat]), []).append(seat)
    return [groups[k] for k in sorted(groups, reverse=True)]


def provisional(state: State) -> Outcome:
    """Return the result as if the game ended now (MOM-R17): the final scoring of the
    piles, acorns and activated objectives on the table. On a finished game it is the
    stored result."""
    return outcome(state.result if state.result is not None else score(state))


def outcome(result: dict[str, Any]) -> Outcome:
    """Return the protocol's outcome from a stored result."""
    return Outcome(
        scores=dict(result["scores"]),
        ranking=[list(group) for group in result["ranking"]],
        breakdown={seat: dict(s["breakdown"]) for seat, s in result["seats"].items()},
        tiebreak=result["tiebreak"],
    )
