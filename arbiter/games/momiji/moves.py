"""Momiji decisions: their JSON Schema and a small hand-written shape check.

A decision is ``{"kind": ..., ...}``; card fields hold card codes (``maple-0R``), see
``data.py``. Shapes are checked here; legality in ``rules.py``.
"""

from __future__ import annotations

from typing import Any

from arbiter.core.engine import reject

MAX_TEXT = 40
MAX_PLAY = 6
"""At most one card per leaf type in play (six types with four players)."""

STRING = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}

# kind -> (required fields, optional fields, description); field kinds: "text", "cards",
# "pair" (two cards) or "positions" (row positions, 0 = leftmost).
KINDS: dict[str, tuple[dict[str, str], dict[str, str], str]] = {
    "collect": ({"type": "text"}, {}, "Main action: take every garden card of one type."),
    "reveal": ({}, {}, "Before a collect: pay 1 acorn to reveal 4 more cards."),
    "play": (
        {"cards": "cards"},
        {"at": "positions"},
        "Main action: 1-2 cards of one type (bottom first), or one card per type in type order."
        " at: where each new pile stands in the row after the play (0 = leftmost), one per"
        " new pile in card order; leave it out to put new piles at the right end (MOM-R5).",
    ),
    "activate": ({"objective": "text"}, {}, "Main action: pay 3 acorns to take an objective."),
    "discard": (
        {"cards": "pair"},
        {},
        "Once per turn: discard two cards (hand order) for 1 acorn.",
    ),
    "power": (
        {"landscape": "text"},
        {"card": "text", "give": "text", "take": "text"},
        "Once per turn: pay 1 acorn to use a landscape's power (its own fields).",
    ),
    "end": ({}, {}, "End your turn after the main action."),
    "hand-limit": ({"card": "text"}, {}, "End of turn: discard one card down to the hand limit."),
}

EXAMPLES = '{"kind": "collect", "type": "maple"} or {"kind": "play", "cards": ["maple-0"]}'


def _field_schema(kind: str) -> dict[str, Any]:
    if kind == "text":
        return dict(STRING)
    if kind == "positions":
        position = {"type": "integer", "minimum": 0, "maximum": MAX_PLAY - 1}
        return {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_PLAY,
            "uniqueItems": True,
            "items": position,
        }
    size = (2, 2) if kind == "pair" else (1, MAX_PLAY)
    return {"type": "array", "minItems": size[0], "maxItems": size[1], "items": dict(STRING)}


def action_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of one decision, a tagged union on ``kind``."""
    branches = []
    for kind, (required, optional, text) in KINDS.items():
        properties: dict[str, Any] = {"kind": {"const": kind}}
        for name, field in {**required, **optional}.items():
            properties[name] = _field_schema(field)
        branches.append(
            {
                "title": kind,
                "description": text,
                "type": "object",
                "required": ["kind", *required],
                "properties": properties,
                "additionalProperties": False,
            }
        )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Momiji decision",
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"enum": list(KINDS)}},
        "oneOf": branches,
    }


def _bad(message: str) -> Exception:
    return reject(f"malformed decision ({message}); expected e.g. {EXAMPLES}", "schema")


def _text(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT


def parse(action: Any) -> dict[str, Any]:
    """Return the decision if its shape is right, else raise ``IllegalAction`` (one line)."""
    if not isinstance(action, dict):
        raise _bad("a decision is a JSON object")
    kind = action.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise _bad(f"kind must be one of {', '.join(KINDS)}")
    required, optional, _ = KINDS[kind]
    for name in action:
        if name != "kind" and name not in required and name not in optional:
            raise _bad(f"{kind} has no field {name!r}")
    for name, field in {**required, **optional}.items():
        if name not in action:
            if name in required:
                raise _bad(f"{kind} needs {name!r}")
            continue
        value = action[name]
        if field == "text":
            if not _text(value):
                raise _bad(f"{name} must be a string of 1 to {MAX_TEXT} characters")
            continue
        if field == "positions":
            if not isinstance(value, list) or not 1 <= len(value) <= MAX_PLAY:
                raise _bad(f"{name} must be a list of 1 to {MAX_PLAY} row positions")
            if not all(type(v) is int and 0 <= v < MAX_PLAY for v in value):
                raise _bad(f"{name} must hold whole numbers from 0 to {MAX_PLAY - 1}")
            continue
        low, high = (2, 2) if field == "pair" else (1, MAX_PLAY)
        if not isinstance(value, list) or not low <= len(value) <= high:
            raise _bad(f"{name} must be a list of {low} to {high} card codes")
        if not all(_text(code) for code in value):
            raise _bad(f'{name} must hold card codes such as "maple-0"')
    return action
