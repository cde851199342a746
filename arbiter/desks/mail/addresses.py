"""Seats' mail addresses: private to the referee, stored in ``referee/addresses.json``.

An address only says where to send a seat's files; it never decides who may move (the
signature does). So it is kept out of every published file.
"""

from __future__ import annotations

from email.utils import getaddresses
from pathlib import Path

from arbiter.core.canonical import parse_strict, pretty
from arbiter.core.errors import Tampered, UnknownSeat, UsageError
from arbiter.core.gamedir import GameDir
from arbiter.core.ledger import load_manifest
from arbiter.core.safeio import open_nofollow_read

FORMAT = "arbiter.addresses/1"


def path(gd: GameDir) -> Path:
    return gd.referee / "addresses.json"


def load(gd: GameDir) -> dict[str, str]:
    """Return seat -> address for the seats that have one."""
    try:
        data = open_nofollow_read(path(gd), 64 * 1024)
    except FileNotFoundError:
        return {}
    record = parse_strict(data, "referee/addresses.json")
    seats = record.get("seats") if isinstance(record, dict) else None
    if record.get("format") != FORMAT or not isinstance(seats, dict):
        raise Tampered("referee/addresses.json is damaged: set the addresses again")
    return {str(k): str(v) for k, v in seats.items()}


def normalise(address: str) -> str:
    """Return the bare address of ``address`` or raise ``UsageError``."""
    found = getaddresses([address])
    if len(found) != 1 or "@" not in found[0][1] or any(c in found[0][1] for c in " \r\n<>"):
        raise UsageError(f"{address[:60]!r} is not one mail address: give e.g. alice@example.org")
    return found[0][1]


def store(root: Path, seat: str, address: str) -> str:
    """Record ``seat``'s address in the game at ``root`` (under the lock); return it."""
    gd = GameDir(root)
    gd.require()
    with gd.locked():
        manifest, _, _ = load_manifest(gd)
        if manifest.get("sealed", False):
            raise UsageError(
                "this game is sealed for a shared repository (its seats' files are age files): "
                "the mail desk plays unsealed games, which it sends to each seat alone"
            )
        seats = [s["seat"] for s in manifest["seats"]]
        if seat not in seats:
            raise UnknownSeat(f"seat {seat!r} is not in game {manifest['game']} (seats: {', '.join(seats)})")
        bare = normalise(address)
        known = load(gd)
        known[seat] = bare
        gd.write(path(gd), pretty({"format": FORMAT, "seats": dict(sorted(known.items()))}))
        return bare
