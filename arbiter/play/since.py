"""What happened since the seat last decided, read from the seat's own ``log.md``.

The log lists each entry's lines as ``- `#N` text`` (``arbiter/core/views.py``). Which
entries the seat made is known from what the player's machine has seen (``Seen``: the
seat each entry waited for) — the chain is not needed, so a player who only gets mail
knows it too. Unknown (a first visit): the entries since the last one the player saw, or
the last entry alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_LINE = re.compile(r"^- `#([0-9]+)` (.*)$")


def entries(log: str) -> list[tuple[int, str]]:
    """Every ``(entry, line)`` of a log, in order (header and result table left out)."""
    out = []
    for raw in log.splitlines():
        found = _LINE.match(raw)
        if found:
            out.append((int(found.group(1)), found.group(2)))
    return out


def last_decided(seat: str, seq: int, decided_by: Callable[[int], str | None]) -> int | None:
    """The last entry up to ``seq`` that ``seat`` made, as far as known."""
    for entry in range(seq, 0, -1):
        if decided_by(entry) == seat:
            return entry
    return None


def since(
    log: str | None,
    seat: str | None,
    seq: int,
    decided_by: Callable[[int], str | None] | None = None,
    last_seen: int | None = None,
) -> tuple[int | None, list[tuple[int, str]]]:
    """Return (the entry the lines start after, the lines after it): the seat's last own
    entry when known, else the last entry seen, else the entry before the newest."""
    if not log:
        return None, []
    after: int | None = None
    if seat is not None and decided_by is not None:
        after = last_decided(seat, seq, decided_by)
    if after is None and last_seen is not None and last_seen < seq:
        after = last_seen
    if after is None:
        after = seq - 1
    # An own entry's lines say what the seat did; the story starts after them.
    return after, [(n, line) for n, line in entries(log) if after < n <= seq]
