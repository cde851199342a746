"""``arbiter verify GAME --record FILE``: is the record exactly the one the game gives?

The game's record is built again from its chain and revealed files and compared byte for
byte. Only a difference is explained, naming the first member that differs: the header
in reading order (where the game is, what it is, who played, the result), then entry by
entry — an entry missing or added, or the first member of an entry that differs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.core.canonical import canonical, parse_strict, pretty
from arbiter.core.errors import ArbiterError, NotReady, VerificationFailed
from arbiter.core.safeio import read_input, shown
from arbiter.export.record import PLACE, build, require_revealed

# The header's members in the order a difference is looked for. The timeline (the entries)
# comes before the members derived from it (the date and the head), so a dropped or
# changed entry is named as such rather than as a different head.
HEADER = (
    "format", "game", "manifest", *PLACE, "engine", "options", "seats", "referee",
    "terms", "seed", "result", "timeline", "date", "head",
)  # fmt: skip

# How a message names a member (and whether it reads as a plural); others: "the <name>".
_NAMES = {
    "manifest": ("the game.json digest", False),
    "options": ("the engine options", True),
    "seats": ("the seats", True),
    "referee": ("the referee key", False),
    "terms": ("the terms", True),
    "actions": ("the actions", True),
    "steps": ("the steps", True),
    "undone": ("the entries it undid", True),
    "undone_by": ("the takeback that undid it", False),
    "request": ("the request's entry", False),
    "orders": ("the orders' entry", False),
    "reason": ("the entry that allowed it", False),
    "summary": ("the summary", False),
    "days": ("the days of leave", True),
}
_ABSENT = object()


def check_record(root: Path, path: Path) -> str:
    """Return the check line when the record in ``path`` is exactly the game's record;
    raise ``VerificationFailed`` naming the first difference otherwise.

    The game itself is verified by the caller (``arbiter verify`` runs first).
    """
    require_revealed(root)
    what = f"the record {shown(path)}"
    try:
        data = read_input(path, what)
        given = parse_strict(data, what)
        from arbiter.core.schemas import validate

        validate("record", given, what)
    except NotReady:  # a path that is not there: not a mismatch
        raise
    except ArbiterError as exc:
        raise VerificationFailed(
            f"{exc.message}: it is not a game record as arbiter writes it"
        ) from None
    from arbiter.export.context import tournament_context

    # Outside a tournament the place is the exporter's word: nothing in the game checks it.
    where = tournament_context(root) or {name: given[name] for name in PLACE}
    expected = build(root, where)
    if data != pretty(expected):
        _explain(given, expected)
        raise VerificationFailed(
            f"{what} holds the game's record, but not written as arbiter writes it "
            "(sorted keys, its indentation, a final newline): export it again"
        )
    return (
        f"record: {shown(path)} is exactly this game's record ({len(expected['timeline'])} entries)"
    )


def _explain(given: dict[str, Any], expected: dict[str, Any]) -> None:
    """Raise naming the first member of ``given`` that differs from ``expected``."""
    if given["game"] != expected["game"]:
        raise VerificationFailed(
            f"record header: the record is of game {given['game']}, not of this game "
            f"({expected['game']})"
        )
    for name in HEADER:
        if name == "timeline":
            _explain_entries(given["timeline"], expected["timeline"])
        elif _differs(given.get(name, _ABSENT), expected[name]):
            raise _differ("record header", name, given.get(name, _ABSENT), expected[name], "game")


def _explain_entries(given: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    last = expected[-1]["seq"]
    for index, want in enumerate(expected):
        seq = want["seq"]
        if index >= len(given):
            raise VerificationFailed(
                f"the record ends after entry #{seq - 1}; the chain goes on to entry #{last}"
            )
        got = given[index]
        if not _differs(got, want):
            continue
        if got["seq"] > seq:
            raise VerificationFailed(
                f"record entry #{seq} is missing: the record goes from entry #{seq - 1} to "
                f"#{got['seq']}"
            )
        if got["seq"] != seq:
            raise VerificationFailed(
                f"record entry #{seq}: the record has entry #{got['seq']} in its place"
            )
        for name in [*want, *sorted(set(got) - set(want))]:
            if _differs(got.get(name, _ABSENT), want.get(name, _ABSENT)):
                raise _differ(
                    f"record entry #{seq}", name, got.get(name, _ABSENT),
                    want.get(name, _ABSENT), "chain",
                )  # fmt: skip
    if len(given) > len(expected):
        raise VerificationFailed(f"the record has entries after entry #{last}, the chain's last")


def _differs(a: Any, b: Any) -> bool:
    # Canonical bytes, not ==: Python takes 1 and true for one another, JSON does not.
    if a is _ABSENT or b is _ABSENT:
        return a is not b
    return canonical(a) != canonical(b)


def _differ(where: str, name: str, got: Any, want: Any, source: str) -> VerificationFailed:
    said, plural = _NAMES.get(name, (f"the {name.replace('_', ' ')}", False))
    if want is _ABSENT:
        return VerificationFailed(
            f"{where}: {said} {'are' if plural else 'is'} not in the {source}'s"
        )
    if got is _ABSENT:
        return VerificationFailed(f"{where}: {said} {'are' if plural else 'is'} missing")
    inside = _first_difference(got, want, "")
    at = f" (at {name}{inside})" if inside else ""
    return VerificationFailed(
        f"{where}: {said} {'differ' if plural else 'differs'} from the {source}'s{at}"
    )


def _first_difference(got: Any, want: Any, path: str) -> str:
    """Return the path below the compared member to the first value that differs
    (``""`` when the members differ as wholes: another type, or a scalar)."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in sorted(set(got) | set(want)):
            if _differs(got.get(key, _ABSENT), want.get(key, _ABSENT)):
                if not _plain(key):
                    return path
                return f"{path}.{key}{_first_difference(got.get(key), want.get(key), '')}"
        return path
    if isinstance(got, list) and isinstance(want, list):
        for index in range(max(len(got), len(want))):
            if index >= len(got) or index >= len(want):
                return f"{path}[{index}]"
            if _differs(got[index], want[index]):
                return f"{path}[{index}]{_first_difference(got[index], want[index], '')}"
        return path
    return path


def _plain(key: str) -> bool:
    """Whether a key may be shown in a message: a field name, never other text of the file."""
    from arbiter.core.canonical import PLAIN_KEY

    return PLAIN_KEY.fullmatch(key) is not None
