"""Each table's status as the public site shows it, read from the game's public files.

One consistent snapshot per game (``GameDir.consistent``, as ``arbiter status`` reads):
``game.json``, ``public/state.json``, the chain's entries and whether it is revealed.
The waiting seat's deadline is the one ``arbiter status --json`` prints (its ``deadline``
member), computed by the same function, so the site and the status command never
disagree about a clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.spectate.delay import Entry

DEADLINE_FIELDS = ("seat", "due", "final", "policy", "overdue", "timeout_owed")
"""What the site shows of ``arbiter status --json``'s ``deadline``: the waiting seat and
its clock. Not ``since`` (the last entry's time) nor a clocked game's banks: the site
says who must play by when, not what happened lately."""


@dataclass
class Snapshot:
    """A game's public status at one moment."""

    status: str
    """``joining``, ``playing`` or ``over``."""
    waiting: list[str]
    """The seats the game waits for: those still to join, or the prompted seat."""
    deadline: dict[str, Any] | None
    """``DEADLINE_FIELDS`` of the waiting seat's clock, in a game with deadlines."""
    revealed: bool
    entries: list[Entry] = field(default_factory=list)


def snapshot(folder: Path) -> Snapshot:
    """Read a game folder's public status (a published copy will do)."""
    from arbiter.core.gamedir import GameDir

    gd = GameDir(folder)
    gd.require()
    return gd.consistent(lambda: _read(gd))


def _read(gd: Any) -> Snapshot:
    from arbiter.core.chain import iter_chain
    from arbiter.core.ledger import load_manifest, read_json
    from arbiter.core.schemas import validate
    from arbiter.core.waiting import waiting_clock  # what `arbiter status` shows

    manifest, manifest_digest, _ = load_manifest(gd)
    state = read_json(gd.public_state, "public/state.json")
    validate("state", state, "public/state.json")
    entries = [
        Entry(e["seq"], e.get("time"), e["hash"]) for e in iter_chain(gd.chain, manifest_digest)
    ]
    clock = waiting_clock(manifest, state, entries[-1].time)
    return Snapshot(
        status=state["status"],
        waiting=list(state["waiting_for"]),
        deadline=None if clock is None else {k: clock[k] for k in DEADLINE_FIELDS},
        revealed=gd.reveal_record.is_file(),
        entries=entries,
    )
