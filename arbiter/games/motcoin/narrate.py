"""Readable log lines and terminal rendering. Everything in Mot Coin is public but the
order of the draw pile, which no event carries, so every viewer reads the same lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbiter.core.engine import Event

ROUND_WORDS = {1: "Round 1", 2: "Round 2"}


def name(card: str | None) -> str:
    """Return a card's printed name: ``No.12`` or ``Stable Coin S3``."""
    if card is None:
        return "-"
    return f"Stable Coin {card}" if card.startswith("S") else f"No.{card}"


def dice(faces: list[int]) -> str:
    """Return faces as ``[6 6 3]``."""
    return "[" + " ".join(str(f) for f in faces) + "]"


def _dice_count(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def signed(value: int | str) -> str:
    """Return a fluctuation value as printed: ``+1``, ``-2`` or ``Remove one die``."""
    if isinstance(value, str):
        return "Remove one die"
    return f"+{value}" if value > 0 else str(value)


def card_text(brief: Mapping[str, Any]) -> str:
    """Return ``No.7 Mot Coin 16 (+1, x-2)`` from a card's public data."""
    kind = {"motcoin": "Mot Coin", "hardfork": "HardFork", "stablecoin": "Stable Coin"}[
        brief["type"]
    ]
    head = f"{brief['name']} {kind}" if brief["type"] != "stablecoin" else brief["name"]
    if "price" in brief:
        head += f" {brief['price']}"
    parts = []
    if "fluctuation" in brief:
        parts.append(signed(brief["fluctuation"]))
    parts.append(f"x{brief['crash']}" if brief["crash"] else "no crash")
    if brief.get("auction") == "double":
        parts.append("double auction")
    return f"{head} ({', '.join(parts)})"


def describe(event: Event, viewer: str | None) -> str | None:
    """Return the log line for ``event`` (the same for every viewer)."""
    d = event.data
    kind = event.kind
    if kind == "setup":
        stables = ", ".join(f"{s} {name(c)}" for s, c in d["stable"].items())
        return (
            f"Setup: {len(d['seats'])} players with {d['dice']} dice each; Stable Coins {stables}, "
            f"each holding {dice(d['stable_dice'])}; {d['first']} is first player; "
            f"price rise gap {d['gap']}."
        )
    if kind == "round":
        return f"{ROUND_WORDS[d['round']]}: the {d['cards']} discarded cards are shuffled into a new draw pile."
    if kind == "reveal":
        return _reveal(d)
    if kind == "bid":
        return f"{d['seat']} bids {dice(d['dice'])} for {name(d['card'])}."
    if kind == "pass":
        why = " (no stronger bid possible)" if d.get("forced") else ""
        return f"{d['seat']} passes on {name(d['card'])}{why}."
    if kind == "win":
        return f"{d['seat']} wins {name(d['card'])} for {dice(d['dice'])}; the dice stay on it. {d['seat']} is first player."
    if kind == "stable":
        return f"{d['seat']} passed last after bidding and takes {name(d['stable'])} with {dice(d['dice'])}."
    if kind == "stable-removed":
        return f"No second bidder: {name(d['stable'])} leaves the game."
    if kind == "all-pass":
        extra = f" with {name(d['stable'])}" if d.get("stable") else ""
        return (
            f"Everyone passes: {name(d['card'])}{extra} leaves the game; every player applies -1."
        )
    if kind == "fluctuation":
        return _fluctuation(d)
    if kind == "take-back":
        return f"Remove one die ({name(d['source'])}): {d['seat']} takes back a {d['face']} from {name(d['card'])}."
    if kind == "end":
        if d["reason"] == "hardfork":
            return f"{name(d['card'])} is the 4th HardFork: it is not auctioned and the game ends."
        return "The draw pile is empty: the game ends."
    if kind == "score":
        return score_line(d["seat"], d)
    if kind == "result":
        winners = d["ranking"][0]
        best = d["scores"][winners[0]]
        if len(winners) > 1:
            return f"Shared victory: {', '.join(winners)} with {best} each."
        return f"{winners[0]} wins with {best}."
    return None


def _reveal(d: Mapping[str, Any]) -> str:
    shown = " and ".join(card_text(b) for b in d["shown"])
    line = f"{ROUND_WORDS[d['round']]}: revealed {shown}."
    if d.get("discarded"):
        line += f" {name(d['discarded'])} goes to the discard pile."
    if d.get("ends"):
        return line
    line += f" {name(d['card'])} is up for auction"
    if d.get("stable"):
        line += f" together with {name(d['stable'])} (double auction)"
    return line + "."


def _fluctuation(d: Mapping[str, Any]) -> str:
    parts = []
    for change in d["changes"]:
        after = dice(change["after"]) if change["after"] else "none"
        part = f"{name(change['card'])} {dice(change['before'])} -> {after}"
        if change["returned"]:
            part += f" ({change['returned']} back)"
        parts.append(part)
    back = f"; {_dice_count(d['returned'])} back to the pool" if d["returned"] else ""
    return f"Fluctuation {signed(d['value'])} ({name(d['card'])}) for {d['seat']}: {'; '.join(parts)}{back}."


def score_line(seat: str, s: Mapping[str, Any]) -> str:
    """Return one row of the final scoring table."""
    b = s["breakdown"]
    piles = (
        " + ".join(
            f"{len(p['cards'])}x{p['price']}"
            + (f" (from {'/'.join(name(c) for c in p['cards'])})" if len(p["cards"]) > 1 else "")
            for p in s["stacks"]
        )
        or "no Mot Coin"
    )
    others = "".join(f", {name(o['card'])} {o['value']}" for o in s["others"])
    return (
        f"Score {seat}: {piles} = {b['motcoin_value']} (rise +{b['rise']}){others}; "
        f"profit {b['profit']}, crash -{b['losses']}, total {b['total']}."
    )


def render(view: Mapping[str, Any], seat: str | None) -> list[str]:
    """Return terminal lines for a view: the market, the auction, each player's cards."""
    cards = view["cards"]
    lines = [
        (
            f"Mot Coin, round {view['round']}: draw pile {view['draw_pile']['count']} cards, "
            f"discard {len(view['discard'])}, HardForks auctioned {view['hardforks_auctioned']}/4, "
            f"first player {view['first_player']}."
        )
    ]
    auction = view.get("auction")
    if auction:
        line = f"Auction: {card_text(cards[auction['card']])}"
        if auction.get("stable"):
            line += f" + {name(auction['stable'])}"
        high = (
            f"{auction['high_seat']} {dice(auction['high'])}"
            if auction["high_seat"]
            else "no bid yet"
        )
        lines.append(
            f"{line}; high bid {high}; to act: {auction['turn']}; passed: {', '.join(auction['passed']) or '-'}."
        )
    for other in view["seats"]:
        p = view["players"][other]
        held = "; ".join(f"{name(h['card'])} {dice(h['dice'])}" for h in p["cards"]) or "no cards"
        you = " (you)" if other == seat else ""
        lines.append(f"{other}{you}: {p['available']} available dice; {held}.")
    if view.get("ender"):
        lines.append(f"Game over: {name(view['ender'])} was the 4th HardFork.")
    result = view.get("result")
    if result:
        for other in view["seats"]:
            lines.append(score_line(other, result["seats"][other]))
    return lines
