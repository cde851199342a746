"""Helpers shared by the CLI tests (fixtures live in conftest.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
SSH_KEYGEN = shutil.which("ssh-keygen")


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


Cli = Callable[..., Result]


def ok(result: Result) -> Result:
    assert result.code == 0, result
    return result


def error_line(result: Result, code: int) -> str:
    """Check a domain error: its exit code and exactly one stderr line."""
    assert result.code == code, result
    assert result.err.startswith("arbiter: error: "), result.err
    assert result.err.endswith("\n") and result.err.count("\n") == 1, result.err
    return result.err


def subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    env["ARBITER_ENGINES"] = "tally=testgame:TallyEngine"
    env["COLUMNS"] = "200"
    return env


def arbiter(*args: Any, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m arbiter ARGS...`` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        cwd=cwd,
        timeout=120,
        check=False,
    )


@dataclass
class Game:
    root: Path
    keys: Path
    files: Path
    cli: Cli
    count: int = 0

    def state(self, seat: str | None = None) -> Path:
        return self.root / ("public" if seat is None else f"players/{seat}") / "state.json"

    def out(self, name: str) -> Path:
        self.count += 1
        return self.files / f"{self.count:03d}-{name}.json"

    def move(self, seat: str, *actions: dict[str, Any], force: bool = False) -> Path:
        """Sign a move file; ``force``: one the referee will refuse (``move --force``)."""
        path = self.out(seat)
        args: list[Any] = ["move", self.state(seat), "--key", self.keys / seat, "-o", path]
        for action in actions:
            args += ["--action", json.dumps(action)]
        ok(self.cli(*args, *(["--force"] if force else [])))
        return path

    def turn(self) -> str:
        return str(ok(self.cli("status", self.root, "--json")).json()["prompt"]["seat"])


def new_game(cli: Cli, tmp_path: Path, keys: Path, *extra: Any) -> Game:
    root = tmp_path / "g1"
    ok(
        cli(
            "new",
            root,
            "--game",
            "tally",
            "--seat",
            f"alice={keys / 'alice.pub'}",
            "--seat",
            f"bob={keys / 'bob.pub'}",
            *extra,
        )
    )
    files = tmp_path / "files"
    files.mkdir()
    return Game(root, keys, files, cli)


def new_peer_game(
    cli: Cli, tmp_path: Path, name: str, engine: str, seats: list[str], *terms: Any
) -> Path:
    """A new peer game (``arbiter peer new``) in ``tmp_path/name``, the seats' keys made in
    ``tmp_path/keys``; the caller points ARBITER_PEER_HOME at a folder of the test's."""
    keys = tmp_path / "keys"
    for seat in seats:
        ok(cli("keygen", seat, "--dir", keys))
    root = tmp_path / name
    named = [arg for s in seats for arg in ("--seat", f"{s}={keys / s}.pub")]
    made = ok(cli("peer", "new", root, "--game", engine, *named, *terms))
    assert f"peer game {name}: {engine} for {', '.join(seats)}" in made.out
    return root


def _snapshot(root: Path) -> dict[str, str]:
    import hashlib

    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}  # fmt: skip


def caught_by_everyone(
    cli: Cli, root: Path, keys: Path, seats: list[str], forged: dict[str, Any], reason: str
) -> None:
    """A cheat's forged message, signed with its own SSH key and put in the shared folder:
    every other player's next ``peer play`` stops at it (exit 15) with a one-line reason
    naming the file, the seat and the round, writes nothing, and ``arbiter verify`` names
    the same file."""
    from arbiter.core import signing
    from arbiter.core.canonical import canonical
    from arbiter.peer import folder as files

    cheat = forged["seat"]
    signed = {**forged, "signature": signing.sign(forged, keys / cheat, files.NAMESPACE)}
    name = f"{forged['round']:06d}-{cheat}.json"
    (root / "messages" / name).write_bytes(canonical(signed) + b"\n")
    before = _snapshot(root)
    for seat in seats:
        if seat != cheat:
            caught = cli("peer", "play", root, "--seat", seat, "--key", keys / seat, "--bot")
            line = error_line(caught, 15)
            assert f"messages/{name}: {cheat}'s message of round {forged['round']}" in line
            assert reason in line, line
    assert _snapshot(root) == before, "no command wrote anything after the cheat"
    assert f"messages/{name}" in error_line(cli("verify", root), 15)
