"""``arbiter demo --bots`` mixes levels through the real referee path."""

from __future__ import annotations

from pathlib import Path

from arbiter.bots.selfplay import play
from arbiter.core.replay import verify


def test_mixed_levels_play_a_verified_game(tmp_path: Path) -> None:
    run = play(tmp_path / "g", "tally", 3, "mixed", levels=["random", "greedy", "search"])
    assert run.status == "over"
    assert verify(run.game).entries == run.files + 1


def test_the_same_seed_plays_the_same_game(tmp_path: Path) -> None:
    runs = [play(tmp_path / f"g{i}", "tally", 2, "same", levels=["greedy", "search"]) for i in (1, 2)]
    first, second = (r.game / "chain.jsonl" for r in runs)
    assert first.read_bytes() == second.read_bytes()
