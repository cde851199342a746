"""Small helpers shared by the card tests of issue 5."""

from __future__ import annotations

from typing import Any


def use(card: str, **params: Any) -> dict[str, Any]:
    return {"kind": "use", "card": card, **params}


def uses(mot, state) -> list[dict[str, Any]]:
    return [a for a in mot.legal(state) if a["kind"] == "use"]


def used_cards(mot, state) -> list[str]:
    return [a["card"] for a in uses(mot, state)]


def barrier_kinds(events) -> list[str]:
    """Return the kinds of the barrier events (Night, which ends every turn, left out)."""
    return [e.kind for e in events if e.barrier and e.kind != "night"]


def smith(mot, state, work: str, support: list[str], wing: str = "gallery", task: str = "bell"):
    """alice takes ``task`` (a METAL card: SMITH) and completes ``work`` with it."""
    mot.play(state, "alice", mot.task(task))
    return mot.play(state, "alice", mot.smith(work, support, wing))


def fx(events, name: str):
    return next(e for e in events if e.kind == "fx" and e.data["fx"] == name)
