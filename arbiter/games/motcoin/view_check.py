"""What a Mot Coin view must hold beyond its schema, before ``determinize`` or ``render``
reads it (``Engine.view_problem``).

A view shows the whole table but the draw pile's order, so nearly everything can be
checked: the seats are the state file's; the card data it carries is a valid table (the
rules engine reads every row of it); every card it names is one of that table's, in one
place at most; each seat's dice add up. Card conservation is checked by the rebuild that
follows.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from arbiter.games.motcoin.cards import HARDFORK, STABLECOIN
from arbiter.games.motcoin.cards import problem as table_problem
from arbiter.games.motcoin.scoring import rise_gap
from arbiter.games.motcoin.state import DICE_PER_SEAT


def problem(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    """Return what makes ``view`` impossible for ``state_file``'s reader, else ``None``."""
    for check in (_seats, _table, _cards, _dice, _progress):
        found = check(view, state_file)
        if found is not None:
            return found
    return None


def _seats(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    seats = view["seats"]
    if view["viewer"] != state_file["seat"] or seats != state_file["seats"]:
        return "its viewer or seats are not the state file's"
    if len(set(seats)) != len(seats) or set(view["players"]) != set(seats):
        return "its players are not its seats, each once"
    named = [view["first_player"], *view["pending_removals"]]
    prompt = state_file["prompt"]
    if prompt is not None:
        named.append(prompt["seat"])
    if len(set(view["pending_removals"])) != len(view["pending_removals"]):
        return "a seat must take back a die twice at once"
    a = view["auction"]
    if a is not None:
        order = a["order"]
        i = seats.index(order[0]) if order and order[0] in seats else 0
        if order != seats[i:] + seats[:i]:
            return "the auction's order is not the seats clockwise"
        bidders = [*a["passed"], *a["last_bids"]]
        bidders += [s for s in (a["turn"], a["high_seat"]) if s is not None]
        if not set(bidders) <= set(order):
            return "the auction names a seat that is not bidding"
    if not set(named) <= set(seats):
        return "it names a seat that is not in the game"
    return None


def _table(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    """The card data: the table ``determinize`` rebuilds from it must be a valid one."""
    briefs = view["cards"]
    numbered = {str(n) for n in range(1, 25)}
    stable = sorted((c for c in briefs if c not in numbered), key=lambda c: int(c[1:]))
    if not numbered <= set(briefs) or stable != [f"S{n}" for n in range(1, len(stable) + 1)]:
        return "its card data is not the 24 numbered cards and the Stable Coins from S1"
    rows = []
    for card, brief in briefs.items():
        name = f"Stable Coin {card}" if card in stable else f"No.{card}"
        if brief["id"] != card or brief["name"] != name:
            return "a card's data names another card"
        if (brief["type"] == STABLECOIN) != (card in stable):
            return "a numbered card is data of a Stable Coin, or the other way round"
        if card in stable:
            continue
        row = {k: brief[k] for k in ("type", "fluctuation", "crash", "price") if k in brief}
        if brief.get("auction") == "double":
            row["auction"] = "double"
        rows.append({"number": int(card), "source": "provisional", **row})
    crashes = {briefs[c]["crash"] for c in stable}
    if len(crashes) > 1:
        return "the Stable Coins' crash values differ"
    coin = {"count": len(stable), "crash": crashes.pop() if crashes else 0, "source": "provisional"}
    table = {"format": "arbiter.motcoin-cards/1", "cards": rows, "stable_coin": coin}
    if len(stable) < len(view["seats"]) or not _valid_table(json.dumps(table, sort_keys=True)):
        return "its card data is not a valid card table"
    return None


@lru_cache(maxsize=8)
def _valid_table(table: str) -> bool:
    """Whether a card table is valid (cached: every state file of a game carries the same)."""
    return table_problem(json.loads(table)) is None


def _placed(view: Mapping[str, Any]) -> Iterator[str]:
    """Yield every card the view puts somewhere (the Stable Coin supply is a count)."""
    yield from view["draw_pile"]["cards"]
    yield from view["discard"]
    yield from view["removed"]
    for p in view["players"].values():
        for h in p["cards"]:
            yield h["card"]
    a = view["auction"]
    if a is not None:
        yield a["card"]
        if a["stable"] is not None:
            yield a["stable"]
    if view["ender"] is not None:
        yield view["ender"]


def _cards(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    briefs = view["cards"]
    placed = Counter(_placed(view))
    named = [*placed, *([view["removal_source"]] if view["removal_source"] else [])]
    if any(c not in briefs for c in named):
        return "it names a card its card data does not have"
    if placed and placed.most_common(1)[0][1] > 1:
        return "a card lies in two places at once"
    if view["draw_pile"]["count"] != len(view["draw_pile"]["cards"]):
        return "the draw pile's count is not its cards"
    # Stable Coins are dealt, auctioned beside a card, removed or in the supply: never
    # drawn, discarded or auctioned alone (rules 3, 4 and 7).
    a = view["auction"]
    numbered = [*view["draw_pile"]["cards"], *view["discard"]]
    numbered += [c for c in (view["ender"], view["removal_source"]) if c is not None]
    if any(briefs[c]["type"] == STABLECOIN for c in numbered):
        return "a Stable Coin lies where only numbered cards go"
    if view["ender"] is not None and briefs[view["ender"]]["type"] != HARDFORK:
        return "the card that ended the game is not a HardFork"
    if a is not None and (
        briefs[a["card"]]["type"] == STABLECOIN
        or (a["stable"] is not None and briefs[a["stable"]]["type"] != STABLECOIN)
    ):
        return "the auction's cards are of the wrong kinds"
    if view["price_rise_gap"] != rise_gap(len(view["seats"])):
        return "its price rise gap is not the one for this many players"
    return None


def _dice(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    dice = DICE_PER_SEAT[len(view["seats"])]
    for s, p in view["players"].items():
        if p["dice"] != dice or p["available"] + sum(len(h["dice"]) for h in p["cards"]) != dice:
            return f"{s}'s dice do not add up"
    return None


def _progress(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    result = view["result"]
    # A forfeit ends the game without the engine: a state file may be over while its view
    # plays on, never the other way round.
    if result is not None and state_file["status"] != "over":
        return "the game is over in one place and not in another"
    if bool(view["pending_removals"]) != (view["removal_source"] is not None):
        return "a die to take back has no card it comes from, or the other way round"
    if result is not None:
        seats = set(view["seats"])
        ranked = [s for unit in result["ranking"] for s in unit]
        if set(result["seats"]) != seats or set(result["scores"]) != seats:
            return "its result does not score every seat once"
        if sorted(ranked) != sorted(seats) or result["gap"] != view["price_rise_gap"]:
            return "its ranking does not place every seat once"
    return None
