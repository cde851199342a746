"""Mot Coin's table: the auction, each player's cards with the dice on them, and the
market's prices; every card a chip in its type's colours."""

from __future__ import annotations

from typing import Any

from arbiter.cli.pictures import chip, chips, grid, panel, text
from arbiter.games.motcoin.narrate import card_text, dice, name, signed
from arbiter.games.motcoin.pictures import TYPE_COLOURS

KINDS = {"motcoin": "Mot Coin", "hardfork": "HardFork", "stablecoin": "Stable Coin"}


def card(view: dict[str, Any], card_id: str, faces: list[int] | None = None) -> Any:
    """Return a card as a chip: its name (and price), then the dice on it."""
    brief = view["cards"][card_id]
    label = brief["name"] + (f" {brief['price']}" if "price" in brief else "")
    if faces:
        label += f" {dice(faces)}"
    return chip(label, TYPE_COLOURS[brief["type"]])


def _auction(view: dict[str, Any]) -> Any:
    auction = view["auction"]
    brief = view["cards"][auction["card"]]
    on_offer = text(chip(card_text(brief), TYPE_COLOURS[brief["type"]]))
    if auction.get("stable"):
        on_offer = text(on_offer, " + ", card(view, auction["stable"]))
    high = (
        f"{auction['high_seat']} {dice(auction['high'])}" if auction["high_seat"] else "no bid yet"
    )
    bids = ", ".join(f"{s} {dice(b)}" for s, b in auction["last_bids"].items())
    rows = [
        ("card", on_offer),
        ("high bid", text(high)),
        ("to act", text((str(auction["turn"] or "-"), "bold"))),
        ("order", text(", ".join(auction["order"]) or "-")),
        ("passed", text(", ".join(auction["passed"]) or "-")),
        ("last bids", text(bids or "-")),
    ]
    return panel(grid(rows), text(("Auction", "bold")), "bold")


def _players(view: dict[str, Any], seat: str | None) -> Any:
    from rich.table import Table

    table = Table(title=text(("Players", "bold")), expand=True, header_style="bold")
    for column in ("seat", "dice left", "cards (dice on them)"):
        table.add_column(column)
    for s in view["seats"]:
        p = view["players"][s]
        who = text((s, "bold"), " (you)" if s == seat else "")
        held = chips(card(view, h["card"], h["dice"]) for h in p["cards"])
        table.add_row(who, text(f"{p['available']} of {p['dice']}"), held)
    return table


def _market(view: dict[str, Any]) -> Any:
    """Return the prices of the cards on the table (held or at auction)."""
    from rich.table import Table

    owners: dict[str, str] = {}
    for s in view["seats"]:
        for h in view["players"][s]["cards"]:
            owners[h["card"]] = s
    auction = view.get("auction")
    if auction:
        owners[auction["card"]] = "at auction"
        if auction.get("stable"):
            owners[auction["stable"]] = "at auction"
    table = Table(title=text(("Prices", "bold")), expand=True, header_style="bold")
    for column in ("card", "type", "price", "fluctuation", "crash", "where"):
        table.add_column(column)
    for card_id, where in owners.items():
        brief = view["cards"][card_id]
        table.add_row(
            card(view, card_id),
            text(KINDS[brief["type"]]),
            text(str(brief.get("price", "-"))),
            text(signed(brief["fluctuation"]) if "fluctuation" in brief else "-"),
            text(str(brief["crash"])),
            text(where),
        )
    return table


def draw(view: dict[str, Any], seat: str | None) -> list[Any]:
    """Return the picture of a Mot Coin view (``seat``: whose view it is)."""
    out: list[Any] = [
        text(
            ("Mot Coin", "bold"),
            f" · round {view['round']} · draw pile {view['draw_pile']['count']} · "
            f"discard {len(view['discard'])} · HardForks auctioned "
            f"{view['hardforks_auctioned']}/4 · first player {view['first_player']} · "
            f"price rise gap {view['price_rise_gap']}",
        )
    ]
    if view.get("auction"):
        out.append(_auction(view))
    if view.get("pending_removals"):
        out.append(
            chips([text("Dice to take back from:"), *(card(view, c) for c in view["pending_removals"])])
        )
    out += [_players(view, seat), _market(view)]
    if view.get("removed"):
        out.append(chips([text("Removed from the game:"), *(card(view, c) for c in view["removed"])]))
    if view.get("ender"):
        out.append(text(f"Game over: {name(view['ender'])} was the 4th HardFork."))
    out.append(chips(chip(KINDS[k], c) for k, c in TYPE_COLOURS.items()))
    return out
