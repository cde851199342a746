"""Seats the mail desk plays with a bot: private to the referee, in ``referee/bots.json``.

``arbiter mail bot GAME SEAT --level greedy --key KEY`` records that the desk plays SEAT
(a seat of game.json, so the bot's key is the one registered there) with a bot level and
seed. After every entry, when the game waits for a bot seat, the desk reads that seat's
state file — nothing else — lets the bot decide (``arbiter.bots.levels.decide``), signs
the move with the seat's key and submits it like any player's file (docs/bots.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arbiter.core.canonical import parse_strict, pretty
from arbiter.core.errors import Tampered, UnknownSeat, UsageError
from arbiter.core.gamedir import GameDir
from arbiter.core.ledger import load_manifest
from arbiter.core.safeio import open_nofollow_read

FORMAT = "arbiter.mail-bots/1"
LEVELS = ("random", "greedy", "search")


@dataclass(frozen=True)
class BotSeat:
    level: str
    key: Path
    seed: str


def path(gd: GameDir) -> Path:
    return gd.referee / "bots.json"


def load(gd: GameDir) -> dict[str, BotSeat]:
    """Return seat -> bot for the seats the desk plays."""
    try:
        data = open_nofollow_read(path(gd), 64 * 1024)
    except FileNotFoundError:
        return {}
    record = parse_strict(data, "referee/bots.json")
    seats = record.get("seats") if isinstance(record, dict) else None
    if not isinstance(record, dict) or record.get("format") != FORMAT or not isinstance(seats, dict):
        raise Tampered("referee/bots.json is damaged: set the bot seats again")
    try:
        return {
            str(seat): BotSeat(str(v["level"]), Path(str(v["key"])), str(v["seed"]))
            for seat, v in seats.items()
        }
    except (KeyError, TypeError):
        raise Tampered("referee/bots.json is damaged: set the bot seats again") from None


def store(root: Path, seat: str, level: str, key: Path, seed: str) -> BotSeat:
    """Record that the desk plays ``seat`` with a bot (under the lock); return it."""
    from arbiter.core.signing import public_key_of

    if level not in LEVELS:
        raise UsageError(f"--level must be one of {', '.join(LEVELS)}, not {level!r}")
    gd = GameDir(root)
    gd.require()
    with gd.locked():
        manifest, _, _ = load_manifest(gd)
        keys = {s["seat"]: s["key"] for s in manifest["seats"]}
        if seat not in keys:
            raise UnknownSeat(
                f"seat {seat!r} is not in game {manifest['game']} (seats: {', '.join(keys)})"
            )
        key = key.expanduser().resolve()
        if public_key_of(key).split()[:2] != keys[seat].split()[:2]:
            raise UsageError(f"{key} is not the key registered for seat {seat}: use that seat's key")
        bots = load(gd)
        bots[seat] = BotSeat(level, key, seed)
        body = {
            "format": FORMAT,
            "seats": {
                s: {"level": b.level, "key": str(b.key), "seed": b.seed}
                for s, b in sorted(bots.items())
            },
        }
        gd.write(path(gd), pretty(body))
        return bots[seat]
