"""Helpers of the duplicate tests: a round's games joined by every player, dealt by the
organiser, played out by seeded random bots (each planning a turn as a player would) and
revealed with their group's secret, through the real path."""

from __future__ import annotations

import hashlib
from pathlib import Path

from arbiter.bots.selfplay import _plan_batch
from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_join, make_move
from arbiter.core.referee import _rebuild, submit
from arbiter.core.rng import Rng


def join_all(game: Path, keys: dict[str, Path]) -> None:
    gd = GameDir(game)
    for seat in load_state(gd.public_state)["seats"]:
        submit(game, pretty(make_join(gd.manifest, seat, keys[seat])), f"join-{seat}.json")


def play(game: Path, keys: dict[str, Path], seed: str, *, limit: int = 5000) -> dict:
    """Play a dealt game to its end; return its public outcome."""
    gd = GameDir(game)
    shadow = _rebuild(gd)[2].table  # the referee's table at the head: bots plan on it
    choices = Rng(hashlib.sha256(f"duplicate tests\x00{seed}".encode()).digest())
    for count in range(limit):
        public = load_state(gd.public_state)
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seat"]
        state = load_state(gd.seat_state(seat))
        seq = state["seq"] + 1
        actions = _plan_batch(shadow, seat, seq, choices.choice(state["legal"]), choices)
        submit(game, pretty(make_move(state, keys[seat], actions)), f"{count:05d}-{seat}.json")
        shadow.move(seq, seat, actions)
    else:
        raise AssertionError(f"{game} did not end in {limit} decisions")
    final = load_state(gd.public_state)
    assert final["status"] == "over", final["status"]
    return dict(final["outcome"])
