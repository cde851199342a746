"""`arbiter demo --seed S` plays the same game again, as the line it prints says: every
byte of the chain and of game.json is the same (the creation time follows from the seed
too, since game.json's digest feeds every join's entropy)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from arbiter.cli.main import app


def test_the_same_seed_plays_the_same_game(tmp_path: Path) -> None:
    played = []
    for name in ("first", "again"):
        folder = tmp_path / name
        done = CliRunner().invoke(app, ["demo", str(folder), "--game", "momiji", "--seed", "same"])
        assert done.exit_code == 0, done.output
        assert "--seed same" in done.output and "same game again" in done.output
        played.append(folder / "game")
    for name in ("chain.jsonl", "game.json", "public/log.md"):
        assert (played[0] / name).read_bytes() == (played[1] / name).read_bytes(), name
