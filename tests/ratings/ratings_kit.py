"""Helpers of the ratings tests: tally games between fixed players, played to the end by
seeded random bots through the real path (joins, signed moves, the referee, the reveal)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.tables import make_keys

from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_join, make_move
from arbiter.core.referee import new_game, reveal, submit
from arbiter.core.rng import Rng

ORDER = ["r-tie", "a-north", "r-west", "r-east"]
"""The rating order the archive's times give (conftest.py)."""

PEOPLE = ("ann", "ben", "cat", "dan")
"""The players: each has one key and may sit under other seat names in other games."""


def people_keys(folder: Path) -> dict[str, Path]:
    """One fixed key pair per person (the same bytes on every run); person -> private key."""
    return make_keys(folder, PEOPLE)


def _derive(seed: str, label: str) -> bytes:
    return hashlib.sha256(f"ratings tests\x00{seed}\x00{label}".encode()).digest()


def play(
    folder: Path,
    game_id: str,
    seats: list[tuple[str, Path]],
    seed: str,
    *,
    created: str,
    now: str | None = None,
    finish: bool = True,
    reveal_at_end: bool = True,
) -> dict[str, Any]:
    """Create a tally game at ``folder`` with ``seats`` (seat id, private key), join every
    seat and play random legal decisions (one a file) until it is over; reveal it.

    ``now``: the game has deadlines and every entry is stamped with this time (``created``
    stamps the genesis entry); ``None``: no deadlines, so the chain records no time.
    ``finish=False`` stops after the joins. Returns the public state at the end.
    """
    new_game(
        folder,
        "tally",
        [(seat, str(key) + ".pub") for seat, key in seats],
        {},
        join=True,
        game_id=game_id,
        created=created,
        secret=_derive(seed, "secret"),
        referee_seed=_derive(seed, "referee"),
        deadline=7 * 86400 if now is not None else None,
    )
    gd = GameDir(folder)
    for count, (seat, key) in enumerate(seats):
        send(folder, make_join(gd.manifest, seat, key), now, f"join-{count}")
    if finish:
        play_on(folder, dict(seats), seed, now=now)
        if reveal_at_end:
            reveal(folder)
    return load_state(gd.public_state)


def play_on(
    folder: Path, keys: dict[str, Path], seed: str, *, now: str | None = None, limit: int = 2000
) -> None:
    """Play random legal decisions (one a file) until the game is over."""
    gd = GameDir(folder)
    choices = Rng(_derive(seed, "bots"))
    for count in range(limit):
        public = load_state(gd.public_state)
        if public["status"] != "playing":
            return
        seat = public["prompt"]["seat"]
        state = load_state(gd.seat_state(seat))
        send(folder, make_move(state, keys[seat], [choices.choice(state["legal"])]), now, count)
    raise AssertionError(f"{folder} did not end in {limit} decisions")


def send(folder: Path, obj: dict[str, Any], now: str | None, name: object) -> None:
    """Submit a signed file to the referee (stamped ``now`` in a game with deadlines)."""
    submit(folder, pretty(obj), f"{name}.json", now)


def state_of(folder: Path, seat: str | None = None) -> dict[str, Any]:
    gd = GameDir(folder)
    return load_state(gd.public_state if seat is None else gd.seat_state(seat))


@dataclass
class Result:
    code: int
    out: str
    err: str


Cli = Callable[..., Result]


def error_line(result: Result, code: int) -> str:
    """Check a domain error: its exit code and exactly one stderr line."""
    assert result.code == code, result
    assert result.err.startswith("arbiter: error: "), result.err
    assert result.err.endswith("\n") and result.err.count("\n") == 1, result.err
    return result.err
