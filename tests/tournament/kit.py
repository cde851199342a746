"""Helpers of the tournament tests: a players file with fixed keys, and games played out
by seeded random bots through the real path (joins, signed moves, referee, reveal)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from helpers.tables import make_keys

from arbiter.bots.selfplay import _plan_batch, _shadow
from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_join, make_move
from arbiter.core.referee import reveal, submit
from arbiter.core.rng import Rng

_KEYS: dict[str, Path] = {}


def players_file(tmp: Path, names: list[str], *, header: str = "") -> tuple[Path, dict[str, Path]]:
    """Write ``tmp/players.txt`` for ``names`` (keys under ``tmp/keys``); return it and the
    private keys by name."""
    keys = make_keys(tmp / "keys", names)
    lines = [header] if header else []
    for name in names:
        public = Path(str(keys[name]) + ".pub").read_text().split()
        lines.append(f"{name} {public[0]} {public[1]} player {name}")
    path = tmp / "players.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, keys


def play_out(game: Path, keys: dict[str, Path], seed: str, *, limit: int = 5000) -> dict:
    """Join every seat, play random legal decisions (one a file) until the game is over,
    reveal it; return the public outcome."""
    gd = GameDir(game)
    seats = list(load_state(gd.public_state)["seats"])
    # The referee's table lets a bot plan a whole turn up to the next barrier, as a player
    # would send it (arbiter.bots.selfplay does the same): fewer files, a faster test.
    shadow = _shadow(gd, bytes.fromhex(gd.secret.read_text().strip()))
    for seat in seats:
        join = make_join(gd.manifest, seat, keys[seat])
        submit(game, pretty(join), f"join-{seat}.json")
        shadow.join(seat, bytes.fromhex(join["entropy"]))
    play_on(game, keys, shadow, f"tournament tests\x00{seed}", limit)
    reveal(game)
    final = load_state(gd.public_state)
    assert final["status"] == "over", final["status"]
    return dict(final["outcome"])


def play_on(game: Path, keys: dict[str, Path], shadow: Any, seed: str, limit: int = 5000) -> None:
    """Play random legal decisions, a turn up to its barrier a file, until the game is over
    (``shadow``: the referee's table at the head, which the bots plan on)."""
    gd = GameDir(game)
    choices = Rng(hashlib.sha256(seed.encode()).digest())
    for count in range(limit):
        public = load_state(gd.public_state)
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seat"]
        state = load_state(gd.seat_state(seat))
        seq = state["seq"] + 1
        actions = _plan_batch(shadow, seat, seq, choices.choice(state["legal"]), choices)
        move = make_move(state, keys[seat], actions)
        submit(game, pretty(move), f"{count:05d}-{seat}.json")
        shadow.move(seq, seat, actions)
    else:
        raise AssertionError(f"{game} did not end in {limit} decisions")
