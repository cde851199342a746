"""The fields of a peer message (docs/peer.md §5.1, ``schemas/peer-move.schema.json``):
bytes as lowercase hex, a message's head (format, game, seat, round, after), and the one-line
refusal that names a message."""

from __future__ import annotations

from typing import Any

from arbiter.core.errors import Tampered

FORMAT = "arbiter.peer-move/1"


def hexed(data: bytes) -> str:
    return data.hex()


def unhex(value: Any, what: str) -> bytes:
    """Bytes from a hex field, or ``Tampered`` naming the field."""
    if not isinstance(value, str) or len(value) % 2:
        raise Tampered(f"{what} is not hex")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise Tampered(f"{what} is not hex") from None


def head(game: str, seat: str, round_: int, after: str) -> dict[str, Any]:
    return {"format": FORMAT, "game": game, "seat": seat, "round": round_, "after": after}


def refuse(message: dict[str, Any], reason: str) -> Tampered:
    """The error a refused message raises: who sent it, in which round, and why."""
    seat = message.get("seat", "?")
    return Tampered(f"{seat}'s message of round {message.get('round', '?')}: {reason}")
