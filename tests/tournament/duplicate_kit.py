"""Helpers of the duplicate tests: a round's games joined by every player, then (once the
organiser dealt them) played out by seeded random bots through the real path."""

from __future__ import annotations

from pathlib import Path

from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_join
from arbiter.core.referee import _rebuild, submit
from tournament.kit import play_on


def join_all(game: Path, keys: dict[str, Path]) -> None:
    gd = GameDir(game)
    for seat in load_state(gd.public_state)["seats"]:
        submit(game, pretty(make_join(gd.manifest, seat, keys[seat])), f"join-{seat}.json")


def play(game: Path, keys: dict[str, Path], seed: str) -> dict:
    """Play a dealt game to its end; return its public outcome."""
    gd = GameDir(game)
    shadow = _rebuild(gd)[2].table  # the referee's table at the head: bots plan on it
    play_on(game, keys, shadow, f"duplicate tests\x00{seed}")
    final = load_state(gd.public_state)
    assert final["status"] == "over", final["status"]
    return dict(final["outcome"])
