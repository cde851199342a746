"""Fast shape checks for the files read on every replay (join, move).

They accept exactly what the committed schemas accept; when one fails, the caller runs
the JSON Schema to explain why. ``tests/core/test_shapes.py`` checks they agree.
"""

from __future__ import annotations

import re
from typing import Any

from arbiter.core.formats import JOIN_FORMAT, MOVE_FORMAT

_GAME = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
_SEAT = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_KIND = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_HEX32 = re.compile(r"[0-9a-f]{64}")
_ARMORED = re.compile(
    r"-----BEGIN SSH SIGNATURE-----\n[A-Za-z0-9+/=\n]+\n-----END SSH SIGNATURE-----\n?"
)
_JOIN_KEYS = ("entropy", "format", "game", "manifest", "seat", "signature")
_MOVE_KEYS = ("actions", "after", "format", "game", "seat", "signature")


def _text(value: Any, pattern: re.Pattern[str], limit: int = 4096) -> bool:
    return isinstance(value, str) and len(value) <= limit and pattern.fullmatch(value) is not None


def _common(obj: dict[str, Any]) -> bool:
    return (
        _text(obj["game"], _GAME)
        and _text(obj["seat"], _SEAT)
        and _text(obj["signature"], _ARMORED)
    )


def join_ok(obj: Any) -> bool:
    """Return whether ``obj`` is a well-formed join file."""
    return (
        isinstance(obj, dict)
        and tuple(sorted(obj)) == _JOIN_KEYS
        and obj["format"] == JOIN_FORMAT
        and _common(obj)
        and _text(obj["manifest"], _DIGEST)
        and _text(obj["entropy"], _HEX32)
    )


def move_ok(obj: Any) -> bool:
    """Return whether ``obj`` is a well-formed move file (decisions checked by kind only)."""
    if not (
        isinstance(obj, dict)
        and tuple(sorted(obj)) == _MOVE_KEYS
        and obj["format"] == MOVE_FORMAT
        and _common(obj)
        and _text(obj["after"], _DIGEST)
    ):
        return False
    actions = obj["actions"]
    return (
        isinstance(actions, list)
        and 1 <= len(actions) <= 64
        and all(isinstance(a, dict) and _text(a.get("kind"), _KIND) for a in actions)
    )


FAST = {"join": join_ok, "move": move_ok}
