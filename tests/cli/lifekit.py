"""A game of a real engine played through the in-process CLI, for the tests of a long
game's life (issue 27): keys for each seat and a substitute (dave), bots for the moves."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from clikit import Cli, ok


class Table:
    """A game of a real engine played through the in-process CLI."""

    def __init__(self, cli: Cli, base: Path, engine: str, seats: list[str], *extra: Any):
        self.cli, self.base, self.seats = cli, base, seats
        self.keys = base / "keys"
        for seat in [*seats, "dave"]:
            ok(cli("keygen", seat, "--dir", self.keys))
        self.root = base / "g"
        self.files = base / "files"
        self.files.mkdir()
        self.count = 0
        args: list[Any] = ["new", self.root, "--game", engine, "--no-join", *extra]
        for seat in seats:
            args += ["--seat", f"{seat}={self.keys / (seat + '.pub')}"]
        ok(cli(*args))

    def out(self, name: str) -> Path:
        self.count += 1
        return self.files / f"{self.count:03d}-{name}.json"

    def state(self, seat: str | None = None) -> Path:
        return self.root / ("public" if seat is None else f"players/{seat}") / "state.json"

    def read(self, seat: str | None = None) -> dict[str, Any]:
        return dict(json.loads(self.state(seat).read_text()))

    def sign(self, command: str, seat: str, *args: Any, key: str | None = None) -> Path:
        path = self.out(f"{command}-{seat}")
        ok(
            self.cli(
                command, self.state(seat), "--key", self.keys / (key or seat), *args, "-o", path
            )
        )
        return path

    def submit(self, path: Path) -> str:
        return ok(self.cli("submit", self.root, path)).out

    def bot_move(self, seed: int, key: str | None = None) -> str:
        seat = self.read()["prompt"]["seat"]
        path = self.out(f"move-{seat}")
        key_path = self.keys / (key or seat)
        ok(
            self.cli(
                "bot",
                self.state(seat),
                "--key",
                key_path,
                "-o",
                path,
                "-l",
                "random",
                "--seed",
                seed,
            )
        )
        self.submit(path)
        return str(seat)

    def first_move(self) -> str:
        """The prompted seat takes its first listed decision (``arbiter move --pick 1``)."""
        seat = self.read()["prompt"]["seat"]
        path = self.out(f"move-{seat}")
        key_path = self.keys / seat
        ok(self.cli("move", self.state(seat), "--key", key_path, "--pick", "1", "-o", path))
        self.submit(path)
        return str(seat)

    def play_out(self, keys: dict[str, str] | None = None, limit: int = 400) -> list[str]:
        """Bots play every turn to the end (``keys``: a seat's substitute key name)."""
        deciders = []
        for n in range(limit):
            public = self.read()
            if public["status"] != "playing":
                return deciders
            seat = public["prompt"]["seat"]
            deciders.append(self.bot_move(n, key=(keys or {}).get(seat)))
        raise AssertionError("the game did not end")

    def chain(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in (self.root / "chain.jsonl").read_text().splitlines()]

    def verify(self) -> str:
        ok(self.cli("reveal", self.root, "--force"))
        return ok(self.cli("verify", self.root)).out


def snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "lock"
    }
