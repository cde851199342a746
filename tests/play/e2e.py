"""Whole games played through ``arbiter play`` by scripted players, one profile (XDG
folders) per player, whatever carries the files; the referee's side runs between turns.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from arbiter.core.rng import Rng
from arbiter.play import terminal

from .scripted import ScriptedPlayer

MAX_TURNS = 600


class Players:
    """Each seat's own XDG folders and a scripted person typing for it."""

    def __init__(self, tmp: Path, seats: list[str], monkeypatch: pytest.MonkeyPatch,
                 capsys: pytest.CaptureFixture[str], seed: str):
        self.tmp, self.monkeypatch, self.capsys = tmp, monkeypatch, capsys
        self.people = {
            seat: ScriptedPlayer(self._read, Rng(f"{seed}/{seat}".encode())) for seat in seats
        }

    def _read(self) -> str:
        return self.capsys.readouterr().out

    def be(self, seat: str) -> None:
        """Run the next commands as ``seat``: its folders, its typing."""
        home = self.tmp / "players" / seat
        self.monkeypatch.setenv("HOME", str(home))
        self.monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
        self.monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
        self.monkeypatch.setattr(terminal, "ask_line", self.people[seat])


def play_to_the_end(
    players: Players,
    cli: Callable[..., object],
    game: str,
    waiting: Callable[[], str | None],
    referee_round: Callable[[], None] = lambda: None,
    stop: int | None = None,
) -> int:
    """Let the seat the game waits for run ``arbiter play GAME`` until nobody is waited
    for (or ``stop`` runs); ``referee_round`` runs the desk after each player (mail, git).
    Returns the number of ``arbiter play`` runs."""
    for runs in range(MAX_TURNS):
        seat = waiting()
        if seat is None or runs == stop:
            return runs
        players.be(seat)
        ran = cli("play", game)
        assert ran.code == 0, (seat, ran.err, players.people[seat].seen[-2000:])  # type: ignore[attr-defined]
        referee_round()
    raise AssertionError("the game did not end")


def waiting_in(folder: Path) -> Callable[[], str | None]:
    """The seat the referee's public state waits for (a join first), or ``None``."""

    def waiting() -> str | None:
        state = json.loads((folder / "public" / "state.json").read_bytes())
        if state["status"] == "over":
            return None
        if state["status"] == "joining":
            return str(state["waiting_for"][0])
        return str(state["prompt"]["seat"])

    return waiting
