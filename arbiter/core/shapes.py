"""Fast shape checks for the files read on every replay (manifest, join, move, reveal).

They accept exactly what the committed schemas accept; when one fails, the caller runs
the JSON Schema to explain why. ``tests/core/test_shapes.py`` checks they agree.
"""

from __future__ import annotations

import re
from typing import Any

from arbiter.core.formats import (
    JOIN_FORMAT,
    JOIN_FORMAT_1,
    MANIFEST_FORMAT,
    MANIFEST_FORMAT_1,
    MOVE_FORMAT,
    RECEIPT_FORMAT,
    REVEAL_FORMAT,
)

_GAME = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
_SEAT = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_KIND = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_HEX32 = re.compile(r"[0-9a-f]{64}")
_ARMORED = re.compile(
    r"-----BEGIN SSH SIGNATURE-----\n[A-Za-z0-9+/=\n]+\n-----END SSH SIGNATURE-----\n?"
)
_ENGINE = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_PUBKEY = re.compile(r"(ssh-ed25519|ssh-rsa) [A-Za-z0-9+/][A-Za-z0-9+/= -]*")
_JOIN_KEYS_1 = ("entropy", "format", "game", "manifest", "seat", "signature")
_JOIN_KEYS = ("entropy", "entropy_signature", "format", "game", "manifest", "seat", "signature")
_MANIFEST_KEYS_1 = (
    "commitment", "created", "engine", "format", "game", "join", "options", "seats"
)
_MANIFEST_KEYS = (
    "commitment", "created", "engine", "format", "game", "join", "options", "referee", "seats"
)
_RECEIPT_KEYS = ("digest", "format", "game", "hash", "kind", "seat", "seq", "signature")
_REVEAL_KEYS = ("forced", "format", "game", "head", "secret")
_MOVE_KEYS = ("actions", "after", "format", "game", "seat", "signature")
# The kinds a receipt may name (models.Receipt): every file a seat signs.
_RECEIPT_KINDS = ("join", "move", "resign", "propose-end", "answer", "handover", "leave")


def _text(value: Any, pattern: re.Pattern[str], limit: int = 4096) -> bool:
    return isinstance(value, str) and len(value) <= limit and pattern.fullmatch(value) is not None


def _common(obj: dict[str, Any]) -> bool:
    return (
        _text(obj["game"], _GAME)
        and _text(obj["seat"], _SEAT)
        and _text(obj["signature"], _ARMORED)
    )


def _key(value: Any) -> bool:
    # Exactly one space: the schema's "no second space" clause (no key comment).
    return _text(value, _PUBKEY, limit=2048) and value.count(" ") == 1


def join_ok(obj: Any) -> bool:
    """Return whether ``obj`` is a well-formed join file (version 2)."""
    return (
        isinstance(obj, dict)
        and tuple(sorted(obj)) == _JOIN_KEYS
        and obj["format"] == JOIN_FORMAT
        and _common(obj)
        and _text(obj["manifest"], _DIGEST)
        and _text(obj["entropy"], _HEX32)
        and _text(obj["entropy_signature"], _ARMORED)
    )


def join_v1_ok(obj: Any) -> bool:
    """Return whether ``obj`` is a well-formed version-1 join file."""
    return (
        isinstance(obj, dict)
        and tuple(sorted(obj)) == _JOIN_KEYS_1
        and obj["format"] == JOIN_FORMAT_1
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
    if not (isinstance(actions, list) and 1 <= len(actions) <= 64):
        return False
    for action in actions:
        if not isinstance(action, dict):
            return False
        kind = action.get("kind")
        if type(kind) is not str:
            return False
        if kind not in _KINDS_SEEN:
            if not _text(kind, _KIND):
                return False
            if len(_KINDS_SEEN) < 1024:
                _KINDS_SEEN.add(kind)
    return True


# Decision kinds already found well formed: a game repeats a handful of them.
_KINDS_SEEN: set[str] = set()


def _seat_ok(seat: Any) -> bool:
    return (
        isinstance(seat, dict)
        and tuple(sorted(seat)) == ("key", "name", "seat")
        and _text(seat["seat"], _SEAT)
        and isinstance(seat["name"], str)
        and 1 <= len(seat["name"]) <= 64
        and _key(seat["key"])
    )


def manifest_ok(obj: Any) -> bool:
    """Return whether ``obj`` is a well-formed manifest (``game.json``, version 2)."""
    if isinstance(obj, dict) and not _optional_terms_ok(obj):
        return False
    if isinstance(obj, dict):
        obj = {key: value for key, value in obj.items() if key not in _OPTIONAL_TERMS}
    return (
        isinstance(obj, dict)
        and tuple(sorted(obj)) == _MANIFEST_KEYS
        and obj["format"] == MANIFEST_FORMAT
        and _key(obj["referee"])
        and _manifest_common(obj)
    )


# Optional terms of a version-2 manifest: a sealed game (docs/sealing.md), deadlines and
# the release that created it (docs/tournaments.md).
_OPTIONAL_TERMS = ("sealed", "deadline", "arbiter", "takebacks", "substitutes", "deal")
_DEAL_KEYS = ("commitment", "games", "group")
_DEADLINE_KEYS = ("bot", "forfeit_after", "grace", "on_timeout", "seconds")
_MAX_SECONDS = 366 * 86400


def _optional_terms_ok(obj: dict[str, Any]) -> bool:
    if "sealed" in obj and type(obj["sealed"]) is not bool:
        return False
    # The life of a long game (docs/game-life.md): takeback and substitute terms.
    if obj.get("takebacks") not in (None, "none", "consent"):
        return False
    substitutes = obj.get("substitutes")
    if substitutes is not None and type(substitutes) is not bool:
        return False
    deal = obj.get("deal")  # a table of a duplicate round (arbiter.core.deal)
    if deal is not None and not (
        isinstance(deal, dict)
        and tuple(sorted(deal)) == _DEAL_KEYS
        and _text(deal["group"], _GAME)
        and _text(deal["commitment"], _DIGEST)
        and isinstance(deal["games"], list)
        and 1 <= len(deal["games"]) <= 999
        and all(_text(game, _GAME) for game in deal["games"])
    ):
        return False
    release = obj.get("arbiter")  # the schema allows null: unknown release (models.py)
    if release is not None and not (isinstance(release, str) and len(release) <= 32):
        return False
    if "deadline" in obj:
        terms = obj["deadline"]
        if isinstance(terms, dict) and any(key in terms for key in _CLOCK_KEYS):
            if not _clock_terms_ok(terms):
                return False
            terms = {key: value for key, value in terms.items() if key not in _CLOCK_KEYS}
        return (
            isinstance(terms, dict)
            and tuple(sorted(terms)) == _DEADLINE_KEYS
            and type(terms["seconds"]) is int
            and 1 <= terms["seconds"] <= _MAX_SECONDS
            and type(terms["grace"]) is int
            and 0 <= terms["grace"] <= _MAX_SECONDS
            and terms["on_timeout"] in ("pass", "bot", "forfeit")
            and terms["bot"] in (None, "random", "greedy", "search")
            and (
                terms["forfeit_after"] is None
                or (type(terms["forfeit_after"]) is int and 1 <= terms["forfeit_after"] <= 1000)
            )
        )
    return True


# Clock terms, each optional in the deadline object (docs/clocks.md).
_CLOCK_KEYS = ("bank", "increment", "cap", "leave", "leave_auto", "weekends")


def _clock_terms_ok(terms: dict[str, Any]) -> bool:
    def seconds(name: str, low: int) -> bool:
        value = terms.get(name)
        return value is None or (type(value) is int and low <= value <= _MAX_SECONDS)

    leave = terms.get("leave")
    return (
        seconds("bank", 1)
        and seconds("increment", 0)
        and seconds("cap", 1)
        and (leave is None or (type(leave) is int and 1 <= leave <= 366))
        and terms.get("leave_auto") in (None, True, False)
        and type(terms.get("leave_auto")) in (type(None), bool)
        and terms.get("weekends") in (None, "pause")
    )


def manifest_v1_ok(obj: Any) -> bool:
    """Return whether ``obj`` is a well-formed version-1 manifest."""
    return (
        isinstance(obj, dict)
        and tuple(sorted(obj)) == _MANIFEST_KEYS_1
        and obj["format"] == MANIFEST_FORMAT_1
        and _manifest_common(obj)
    )


def _manifest_common(obj: dict[str, Any]) -> bool:
    engine, seats = obj["engine"], obj["seats"]
    return (
        _text(obj["game"], _GAME)
        and isinstance(engine, dict)
        and tuple(sorted(engine)) == ("name", "version")
        and _text(engine["name"], _ENGINE)
        and isinstance(engine["version"], str)
        and len(engine["version"]) <= 32
        and isinstance(obj["options"], dict)
        and isinstance(seats, list)
        and 1 <= len(seats) <= 16
        and all(_seat_ok(seat) for seat in seats)
        and _text(obj["commitment"], _DIGEST)
        and type(obj["join"]) is bool
        and isinstance(obj["created"], str)
        and len(obj["created"]) <= 40
    )


def reveal_ok(obj: Any) -> bool:
    """Return whether ``obj`` is a well-formed reveal record."""
    if isinstance(obj, dict) and "deal_secret" in obj:
        # A duplicate game's group secret (arbiter.core.deal); null allowed as in the schema.
        if obj["deal_secret"] is not None and not _text(obj["deal_secret"], _HEX32):
            return False
        obj = {key: value for key, value in obj.items() if key != "deal_secret"}
    return (
        isinstance(obj, dict)
        and tuple(sorted(obj)) == _REVEAL_KEYS
        and obj["format"] == REVEAL_FORMAT
        and _text(obj["game"], _GAME)
        and _text(obj["secret"], _HEX32)
        and _text(obj["head"], _DIGEST)
        and type(obj["forced"]) is bool
    )



def receipt_ok(obj: Any) -> bool:
    """Return whether ``obj`` is a well-formed referee receipt."""
    return (
        isinstance(obj, dict)
        and tuple(sorted(obj)) == _RECEIPT_KEYS
        and obj["format"] == RECEIPT_FORMAT
        and _common(obj)
        and type(obj["seq"]) is int
        and obj["seq"] >= 1
        and obj["kind"] in _RECEIPT_KINDS
        and _text(obj["hash"], _DIGEST)
        and _text(obj["digest"], _DIGEST)
    )


_RECEIPT_KINDS = ("join", "move", "resign", "propose-end", "answer", "handover", "takeback-request")

FAST = {
    "join": join_ok,
    "join-v1": join_v1_ok,
    "move": move_ok,
    "manifest": manifest_ok,
    "manifest-v1": manifest_v1_ok,
    "reveal": reveal_ok,
    "receipt": receipt_ok,
}
