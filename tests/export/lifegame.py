"""Tally games with the life of a long game in them, played through the in-process CLI
(as tests/cli/test_life_everything.py plays them): a clock the test sets, keys for every
seat and two substitutes, and signed files of each kind submitted to the referee."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli.clikit import Cli, ok

SPARE = ("dave", "erin")
"""Keys for substitutes (a handover, an appointment)."""


class LifeGame:
    """A tally game at ``base/g`` and the referee's clock (``ARBITER_NOW``), in hours."""

    def __init__(
        self,
        cli: Cli,
        base: Path,
        monkeypatch: pytest.MonkeyPatch,
        seats: tuple[str, ...],
        *terms: Any,
    ):
        self.cli, self.monkeypatch, self.seats = cli, monkeypatch, seats
        self.hours = 0
        self.tick(0)
        self.keys, self.root, self.files = base / "keys", base / "g", base / "files"
        self.files.mkdir()
        for name in (*seats, *SPARE):
            ok(cli("keygen", name, "--dir", self.keys))
        args: list[Any] = ["new", self.root, "--game", "tally", "--no-join", "--option", "cards=40"]
        for seat in seats:
            args += ["--seat", f"{seat}={self.keys / seat}.pub"]
        ok(cli(*args, *terms))
        self.holder = {seat: seat for seat in seats}  # whose key each seat signs with
        self.count = 0

    def tick(self, hours: int) -> None:
        self.hours += hours
        day, hour = divmod(self.hours, 24)
        self.monkeypatch.setenv("ARBITER_NOW", f"2026-06-{1 + day:02d}T{hour:02d}:00:00Z")

    def public(self) -> dict[str, Any]:
        return dict(json.loads((self.root / "public" / "state.json").read_text()))

    def state(self, seat: str) -> Path:
        return self.root / "players" / seat / "state.json"

    def view(self, seat: str) -> dict[str, Any]:
        return dict(json.loads(self.state(seat).read_text())["view"])

    def send(self, command: str, seat: str, *extra: Any) -> str:
        """Sign a file of ``command`` for ``seat`` and submit it; return what submit says."""
        self.count += 1
        path = self.files / f"{self.count:03d}-{command}-{seat}.json"
        key = self.keys / self.holder[seat]
        ok(self.cli(command, self.state(seat), "--key", key, *extra, "-o", path))
        return ok(self.cli("submit", self.root, path)).out

    def turn(self, seat: str) -> str:
        """``seat`` plays its lowest card, then draws (or ends when the deck is empty)."""
        view = self.view(seat)
        last = {"kind": "draw"} if view["deck"] else {"kind": "end"}
        first = [{"kind": "play", "card": min(view["hand"])}] if view["hand"] else []
        actions = [a for action in [*first, last] for a in ("--action", json.dumps(action))]
        return self.send("move", seat, *actions)

    def play_out(self) -> None:
        """Whoever is prompted takes its first legal decision, until the game is over."""
        for _ in range(300):
            if self.public()["status"] != "playing":
                return
            self.tick(1)
            seat = self.public()["prompt"]["seat"]
            legal = json.loads(self.state(seat).read_text())["legal"]
            self.send("move", seat, "--action", json.dumps(legal[0]))
        raise AssertionError("the game did not end")

    def kinds(self) -> list[str]:
        return [
            json.loads(line)["kind"]
            for line in (self.root / "chain.jsonl").read_text().splitlines()
        ]
