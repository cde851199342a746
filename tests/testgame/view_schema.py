"""The exact type of a tally view and its consistency check (``TallyEngine.view_problem``).

The committed schema sits beside it (``view-tally.schema.json``): tally is a test game,
not shipped, so its schema is not in ``schemas/``; ``tests/core/test_schemas.py`` keeps it
from drifting like the others.
"""

# Field types are built by functions (bounds, card enums): mypy reads them as values.
# mypy: disable-error-code="valid-type,misc,attr-defined"

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NotRequired

from pydantic import ConfigDict
from typing_extensions import TypedDict

from arbiter.core.viewtypes import SeatName, ViewType, bounded, count

SCHEMA = Path(__file__).with_name("view-tally.schema.json")
CARDS = 60
"""The largest deck the options allow."""
Card = count(CARDS, 1)


class View(TypedDict):
    """What one seat (or a spectator) sees of a game of tally."""

    __pydantic_config__ = ConfigDict(extra="forbid", strict=True)
    seats: bounded(SeatName, 4, 2)
    turn: SeatName | None
    played: count(2)
    discarded: bool
    deck: count(CARDS)
    hands: dict[SeatName, count(CARDS)]
    piles: dict[SeatName, count(2)]
    tallies: dict[SeatName, bounded(Card, CARDS)]
    scores: dict[SeatName, count(CARDS * (CARDS + 1) // 2)]
    you: NotRequired[SeatName]
    hand: NotRequired[bounded(Card, CARDS)]
    pile: NotRequired[bounded(Card, 2)]


VIEW = ViewType(View, (), "What one seat (or a spectator) sees of a game of tally.")


def problem(view: Mapping[str, Any], state_file: Mapping[str, Any]) -> str | None:
    """Return what makes ``view`` impossible for ``state_file``'s reader, else ``None``."""
    seats, seat = view["seats"], state_file["seat"]
    if seats != state_file["seats"] or len(set(seats)) != len(seats):
        return "its seats are not the state file's"
    if any(set(view[k]) != set(seats) for k in ("hands", "piles", "tallies", "scores")):
        return "its zones are not one per seat"
    mine = ("you", "hand", "pile")
    if any((k in view) != (seat is not None) for k in mine) or view.get("you", seat) != seat:
        return "its own zones are not its reader's"
    if seat is not None and (
        len(view["hand"]) != view["hands"][seat] or len(view["pile"]) != view["piles"][seat]
    ):
        return "its reader's hand or pile is not its count"
    prompt, turn = state_file["prompt"], view["turn"]
    # A forfeit ends the game without the engine: its view may still name a turn.
    if (turn is None and state_file["status"] != "over") or (
        prompt is not None and prompt["seat"] != turn
    ):
        return "whose turn it is disagrees with the state file"
    if any(view["scores"][s] != sum(view["tallies"][s]) for s in seats):
        return "a score is not its tally's sum"
    total = view["deck"] + sum(view["hands"].values()) + sum(view["piles"].values())
    total += sum(len(t) for t in view["tallies"].values())
    seen = [*view.get("hand", ()), *view.get("pile", ()), *(c for t in view["tallies"].values() for c in t)]
    if len(set(seen)) != len(seen) or any(c > total for c in seen) or not 4 <= total <= CARDS:
        return "its cards do not add up"
    return None


def generate() -> dict[str, Any]:
    """Return the committed form of the schema."""
    return VIEW.json_schema("tally")
