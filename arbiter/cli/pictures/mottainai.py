"""Mottainai's table: the floor, then each temple — task, helpers, craft bench, sales,
gallery and gift shop — with every card a chip in its material's colours.

A card chip shows its name and value (``Bowl 3``); the legend under the table gives each
colour's material, value and task. Hands are counts, faces for the viewer's own hand.
"""

from __future__ import annotations

from typing import Any

from arbiter.cli.pictures import chip, chips, grid, panel, text
from arbiter.games.mottainai.cards import INSTANCES, MATERIALS, TASKS, VALUE
from arbiter.games.mottainai.narrate import obstructs, task
from arbiter.games.mottainai.pictures import MATERIAL_COLOURS


def card(iid: str) -> Any:
    """Return a card as a chip: its name and value in its material's colours."""
    row = INSTANCES[iid]
    return chip(f"{row.name} {row.value}", MATERIAL_COLOURS[row.material])


def _cards(ids: list[str], *more: Any) -> Any:
    return chips([*(card(i) for i in ids), *more])


def _covered(materials: list[str], as_tasks: bool) -> list[Any]:
    if not materials:
        return []
    shown = [TASKS[m] if as_tasks else m for m in materials]
    return [text((f" covered: {', '.join(shown)}", "italic"))]


def legend() -> Any:
    """Return one chip per material: its name, value and task."""
    return chips(
        chip(f"{m} {VALUE[m]} {TASKS[m]}", MATERIAL_COLOURS[m]) for m in MATERIALS
    )


def _temple(view: dict[str, Any], s: str, seat: str | None) -> Any:
    p = view["players"][s]
    if p["task_face_down"]:
        slot = text(("face down", "italic"))
    elif p["task"]:
        slot = text(card(p["task"]), " ", task(p["task"], obstructs(view, s)))
    else:
        slot = text(("none", "dim"))
    n = p["hand_count"]
    hand = _cards(p["hand"]) if "hand" in p else text(f"{n} card{'s' if n != 1 else ''}")
    waiting = chips([text(str(p["waiting_count"]))])
    if p.get("waiting_seen"):
        waiting = chips([text(f"{p['waiting_count']}, seen:"), *map(card, p["waiting_seen"])])
    rows = [
        ("task", slot),
        ("hand", hand),
        ("waiting", waiting),
        ("helpers", _cards(p["helpers"], *_covered(p["covered_helpers"], True))),
        ("craft bench", _cards(p["craft_bench"])),
        ("sales", _cards(p["sales"], *_covered(p["covered_sales"], False))),
        ("gallery", _cards(p["gallery"])),
        ("gift shop", _cards(p["gift_shop"])),
    ]
    title = text((s, "bold"))
    if s == seat:
        title = text(title, " (you)")
    if s == view["current"] and view["phase"] != "over":
        title = text(title, ("  ← to play", "bold"))
        if p.get("bonus_turn"):
            title = text(title, " (bonus turn)")
    return panel(grid(rows), title, "bold" if s == view["current"] else "")


def draw(view: dict[str, Any], seat: str | None) -> list[Any]:
    """Return the picture of a Mottainai view (``seat``: whose view it is)."""
    out: list[Any] = [
        text(
            ("Mottainai", "bold"),
            f" · turn {view['turn']} · "
            + ("game over" if view["phase"] == "over" else f"{view['current']} to play ({view['phase']})")
            + " · "
            f"deck {view['deck']['count']} · the game ends at {view['works_to_end']} works",
        )
    ]
    doing = view.get("task")
    if doing:
        whose = "their own" if doing["owner"] == view["current"] else f"{doing['owner']}'s"
        blocked = doing["owner"] != view["current"] and obstructs(view, doing["owner"])
        what = f"{whose} {task(doing['card'], blocked)} task"
        out.append(
            text(f"Noon: {view['current']} performs {what}, action {doing['done'] + 1} of {doing['total']}")
            if doing["total"]
            else text(f"Noon: {view['current']} is about to perform {what}")
        )
    out.append(panel(_cards(view["floor"]), text(("Floor", "bold"))))
    deck = view["deck"]
    if deck.get("top"):
        out.append(text("Deck top (face up): ", card(deck["top"])))
    if deck.get("returned_by_you"):
        out.append(chips([text("You returned to the deck:"), *map(card, deck["returned_by_you"])]))
    shown = view.get("revealed")
    if shown and shown["cards"]:
        out.append(chips([text(f"{shown['seat']} reveals"), *map(card, shown["cards"])]))
    out += [_temple(view, s, seat) for s in view["seats"]]
    out.append(legend())
    return out
