"""Momiji's table: the garden, the objectives, and each player's hand, acorns, piles,
objectives and landscapes; every leaf card a chip in its type's colours."""

from __future__ import annotations

from typing import Any

from arbiter.cli.pictures import chip, chips, grid, panel, text
from arbiter.games.momiji.narrate import PHASES, REASONS
from arbiter.games.momiji.narrate import card as card_name
from arbiter.games.momiji.pictures import colours


def _card(palette: dict[str, tuple[str, str]], code: str) -> Any:
    kind = code.rpartition("-")[0]
    return chip(card_name(code), palette[kind])


def _objective(view: dict[str, Any], token: str) -> Any:
    row = view["objective_texts"][token]
    return text((row["name"], "bold"), f" ({row['text']})")


def _player(view: dict[str, Any], palette: dict[str, tuple[str, str]], s: str, seat: str | None) -> Any:
    p = view["players"][s]
    if p["hand"] is not None:
        hand = chips(_card(palette, c) for c in p["hand"])
    else:
        n = p["hand_size"]
        count = text(f"{n} card{'s' if n != 1 else ''}" + (", known:" if p["known"] else ""))
        hand = chips([count, *(_card(palette, c) for c in p["known"])])
    piles = chips(
        text(_card(palette, q["top"]), (" torii", "bold") if q["closed"] else "")
        for q in p["piles"]
    )
    objectives = [_objective(view, o) for o in p["objectives"]]
    landscapes = [
        text((view["landscapes"][x["id"]]["name"], "dim" if x["used"] else "bold"),
             " (used)" if x["used"] else "")
        for x in p["landscapes"]
    ]
    rows = [
        ("hand", hand),
        ("acorns", text(str(p["acorns"]))),
        ("piles", piles),
        ("objectives", chips(objectives, "none", "; ")),
        ("landscapes", chips(landscapes, "none", ", ")),
    ]
    title = text((s, "bold"), " (you)" if s == seat else "")
    current = s == view["turn"]["seat"] and not view.get("ended")
    if current:
        title = text(title, ("  ← to play", "bold"))
    return panel(grid(rows), title, "bold" if current else "")


def draw(view: dict[str, Any], seat: str | None) -> list[Any]:
    """Return the picture of a Momiji view (``seat``: whose view it is)."""
    palette = colours(view["types"])
    t = view["turn"]
    now = f"{t['seat']} to play ({PHASES[t['phase']]})"
    if view.get("ended"):
        now = f"game over, {REASONS[view['ended']]}"
    out: list[Any] = [
        text(
            ("Momiji", "bold"),
            f" · turn {t['number']} · {now} · deck {view['deck']} · discard "
            f"{len(view['discard'])} · torii {view['torii']['closed']}/{view['torii']['limit']}",
        ),
        panel(chips(_card(palette, c) for c in view["garden"]), text(("Garden", "bold"))),
        panel(
            chips([_objective(view, o) for o in view["objectives"]], "none", "; "),
            text(("Objectives in the centre", "bold")),
        ),
    ]
    out += [_player(view, palette, s, seat) for s in view["seats"]]
    out.append(chips(chip(kind, c) for kind, c in palette.items()))
    return out
