"""`arbiter new` refuses a game that cannot be set up, before anything is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.core.errors import UsageError
from arbiter.core.referee import new_game
from arbiter.core.signing import keygen


def _keys(tmp_path: Path, names: list[str]) -> list[tuple[str, str]]:
    return [(name, str(keygen(name, tmp_path / "keys")[1])) for name in names]


def test_team_play_needs_four_seats_and_nothing_is_written(tmp_path: Path) -> None:
    seats = _keys(tmp_path, ["alice", "bob", "carol"])
    with pytest.raises(UsageError) as caught:
        new_game(tmp_path / "g", "mottainai", seats, {"teams": "yes"}, created="2026-01-01T00:00:00Z")
    assert "4 players" in caught.value.message
    assert not (tmp_path / "g").exists()


def test_seat_range_and_unknown_option_are_refused(tmp_path: Path) -> None:
    seats = _keys(tmp_path, ["alice"])
    with pytest.raises(UsageError, match="2–5 players"):
        new_game(tmp_path / "g", "mottainai", seats, {}, created="2026-01-01T00:00:00Z")
    seats = _keys(tmp_path, ["bob", "carol"])
    with pytest.raises(UsageError, match="unknown option"):
        new_game(tmp_path / "h", "mottainai", seats, {"colour": "red"}, created="2026-01-01T00:00:00Z")
    assert not (tmp_path / "g").exists() and not (tmp_path / "h").exists()


def test_an_existing_folder_is_never_overwritten(tmp_path: Path) -> None:
    seats = _keys(tmp_path, ["alice", "bob"])
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match="not empty"):
        new_game(tmp_path / "g", "mottainai", seats, {}, created="2026-01-01T00:00:00Z")
    assert (tmp_path / "g" / "notes.txt").read_text() == "mine"
