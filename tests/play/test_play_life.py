"""``arbiter play`` and the life of a long game (issue 27): a seat proposes to end the
game from its session, the other answers from its own even though it is not its turn,
and a seat resigns; the files go through the desk transport to the referee."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arbiter.play import terminal

from .kit import real_game


def _typing(monkeypatch: pytest.MonkeyPatch, tmp: Path, seat: str, typed: list[str]) -> list[str]:
    """Be ``seat`` (its own profile folders) typing ``typed`` line by line; the prompts
    seen are returned in the list given back."""
    home = tmp / "players" / seat
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    lines: Iterator[str] = iter(typed)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(terminal, "ask_line", ask)
    return prompts


def _public(root: Path) -> dict:
    return json.loads((root / "public" / "state.json").read_bytes())


def test_propose_and_accept_from_two_sessions(tmp_path, cli, monkeypatch) -> None:
    table = real_game(tmp_path, "momiji", 2, game_id="play-life")
    for seat in table.seats:
        _typing(monkeypatch, tmp_path, seat, [])
        added = cli("play", "add", table.root / "game.json", "--seat", seat,
                    "--key", table.keys[seat], "--via", "desk")
        assert added.code == 0, added.err
    first = _public(table.root)["prompt"]["seat"]
    other = next(s for s in table.seats if s != first)
    _typing(monkeypatch, tmp_path, first, ["propose", "y", "q"])
    ran = cli("play", "play-life")
    assert ran.code == 0, ran.err
    assert "signed and sent" in ran.out
    assert _public(table.root)["pending"]["seat"] == first
    # The other seat is not to move, but an answer is due: its session asks for it.
    prompts = _typing(monkeypatch, tmp_path, other, ["a"])
    ran = cli("play", "play-life")
    assert ran.code == 0, ran.err
    assert any("proposal to end the game?" in p for p in prompts)
    assert f"{first} proposes to end the game now, scored as it stands." in ran.out
    public = _public(table.root)
    assert public["status"] == "over" and public["outcome"] is not None


def test_resign_from_a_session(tmp_path, cli, monkeypatch) -> None:
    table = real_game(tmp_path, "momiji", 2, game_id="play-resign")
    first = _public(table.root)["prompt"]["seat"]
    _typing(monkeypatch, tmp_path, first, [])
    added = cli("play", "add", table.root / "game.json", "--seat", first,
                "--key", table.keys[first], "--via", "desk")
    assert added.code == 0, added.err
    # "n" at the question signs nothing; then "resign" again and "y".
    _typing(monkeypatch, tmp_path, first, ["resign", "n", "resign", "y"])
    ran = cli("play", "play-resign")
    assert ran.code == 0, ran.err
    assert "nothing signed" in ran.out
    public = _public(table.root)
    assert public["status"] == "over"
    assert public["outcome"]["ranking"][-1] == [first]
