"""Final scoring (rules: Game End) with a breakdown per seat, and the tie-break (M-R1).

Score = the values of your works + the values of your covered sales + backorders (hand
cards of each material in which you have the most sales, ties score for nobody) + points
from card effects. Waiting-area cards never count.
"""

from __future__ import annotations

import itertools
from typing import Any

from arbiter.core.engine import Outcome
from arbiter.core.hidden import faces
from arbiter.games.mottainai.cards import MATERIALS, VALUE, card
from arbiter.games.mottainai.cover import count, sales_covered, work_material
from arbiter.games.mottainai.effects.dispatch import RUNNING, identity
from arbiter.games.mottainai.effects.registry import REGISTRY
from arbiter.games.mottainai.state import State

BREAKDOWN = ("works", "sales", "backorders", "cards", "total")


def new_sheet() -> dict[str, Any]:
    """Return an empty score sheet that scoring effects adjust."""
    return {"always_covered": [], "claim_ties": [], "backorder_factor": 1, "points": {}}


def _effects_sheet(state: State, seat: str) -> dict[str, Any]:
    sheet = new_sheet()
    p = state.players[seat]
    for work in p.gallery + p.gift_shop:
        cid = card(identity(state, work)).id
        eff = REGISTRY.get(cid) or RUNNING.get(cid)
        if eff is not None and eff.window == "scoring":
            eff.resolve(state, seat, work, sheet)
    return sheet


def _backordered(
    state: State, seat: str, sales: dict[str, dict[str, int]], sheet: dict[str, Any]
) -> list[str]:
    """The materials the seat scores backorders for, if its hand holds any: the most sales
    of a type (covered or not); a tie scores for nobody unless a card claims it (Rules:
    Game End)."""
    out = []
    for mat in MATERIALS:
        n = sales[seat][mat]
        best = max((sales[s][mat] for s in state.seats if s != seat), default=0)
        if n > best or (n == best and mat in sheet["claim_ties"]):
            out.append(mat)
    return out


def score_seat(
    state: State, seat: str, sales: dict[str, dict[str, int]], sheet: dict[str, Any]
) -> dict[str, Any]:
    """Return one seat's scoring: the parts, per-material details and the total."""
    p = state.players[seat]
    works = sum(VALUE[work_material(state, w)] for w in p.gallery + p.gift_shop)
    covered: list[str] = []
    sale_points = 0
    backorder: dict[str, int] = {}
    majorities = _backordered(state, seat, sales, sheet)
    for mat in MATERIALS:
        n = sales[seat][mat]
        if n and (mat in sheet["always_covered"] or sales_covered(state, seat, mat)):
            covered.append(mat)
            sale_points += n * VALUE[mat]
        if mat in majorities:
            held = count(p.hand, mat)
            if held:
                backorder[mat] = held * VALUE[mat] * sheet["backorder_factor"]
    cards = sum(sheet["points"].values())
    backorders = sum(backorder.values())
    parts = {
        "works": works,
        "sales": sale_points,
        "backorders": backorders,
        "cards": cards,
        "total": works + sale_points + backorders + cards,
    }
    return {
        "parts": parts,
        "gallery": len(p.gallery),
        "gift_shop": len(p.gift_shop),
        "covered_sales": covered,
        "backorders": backorder,
        "card_points": dict(sheet["points"]),
    }


def score(state: State) -> dict[str, Any]:
    """Return the final scoring of every seat, the scores and the ranking with tie-break."""
    sales = {s: {m: count(state.players[s].sales, m) for m in MATERIALS} for s in state.seats}
    sheets = {s: _effects_sheet(state, s) for s in state.seats}
    # A peer game opens, in one round, the hands the backorders read (M-R131); a referee
    # game's hands are all faces already.
    faces(
        [
            c
            for s in state.seats
            if _backordered(state, s, sales, sheets[s])
            for c in state.players[s].hand
        ]
    )
    seats = {s: score_seat(state, s, sales, sheets[s]) for s in state.seats}
    own = {s: seats[s]["parts"]["total"] for s in state.seats}
    scores = dict(own)
    if state.teams:
        # Variants: Team Play: add your score to your partner's.
        for s in state.seats:
            partner = state.partner(s)
            assert partner is not None
            scores[s] = own[s] + own[partner]
    ranking, tiebreak = rank(state, scores)
    winner = (state.end or {}).get("winner")
    if winner is not None:
        # Turtle: its owner (and team) wins at once, whatever the scores (M-R31).
        ranking.sort(key=lambda unit: winner not in unit)
        tiebreak = f"{winner} wins at once with works of all five materials (Turtle)"
    return {"seats": seats, "scores": scores, "ranking": ranking, "tiebreak": tiebreak}


def rank(state: State, scores: dict[str, int]) -> tuple[list[list[str]], str | None]:
    """Order seats (teams) by score; ties go to the current player, then the nearest after (M-R1)."""
    order = state.clockwise_from(state.current)
    if state.teams:
        units = [[s, state.seats[(state.seats.index(s) + 2) % 4]] for s in state.seats[:2]]
    else:
        units = [[s] for s in state.seats]
    units.sort(key=lambda u: (-scores[u[0]], min(order.index(s) for s in u)))
    notes = []
    for a, b in itertools.pairwise(units):
        if scores[a[0]] == scores[b[0]]:
            notes.append(
                f"{' and '.join(a)} ahead of {' and '.join(b)} on {scores[a[0]]}: nearer to the "
                f"current player {state.current} in turn order (rules: Game End, M-R1)"
            )
    return units, ("; ".join(notes) or None)


def outcome(state: State) -> Outcome:
    """Return the protocol's outcome from the stored result."""
    assert state.result is not None
    return _outcome(state, state.result)


def provisional(state: State) -> Outcome:
    """Return the result as if the game ended now (M-R77): the final scoring of the table
    as it stands, ties to the current player (M-R1). On a finished game, the stored result."""
    return _outcome(state, state.result if state.result is not None else score(state))


def _outcome(state: State, result: dict[str, Any]) -> Outcome:
    breakdown = {}
    for seat, s in result["seats"].items():
        parts = dict(s["parts"])
        if state.teams:
            parts["team"] = result["scores"][seat]
        breakdown[seat] = parts
    return Outcome(
        scores=dict(result["scores"]),
        ranking=[list(g) for g in result["ranking"]],
        breakdown=breakdown,
        tiebreak=result["tiebreak"],
    )
