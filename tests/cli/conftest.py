"""Fixtures of the CLI tests: an in-process ``arbiter``, keys, and a started game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from clikit import Cli, Game, Result, new_game, ok
from helpers.tables import from_template

from arbiter.cli.main import run


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run ``arbiter ARGS...`` in-process; return its exit code, stdout and stderr."""

    def invoke(*args: Any) -> Result:
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        code = info.value.code
        return Result(0 if code is None else int(code), out, err)

    return invoke


@pytest.fixture
def keys(cli: Cli, tmp_path: Path) -> Path:
    directory = tmp_path / "keys"
    for seat in ("alice", "bob"):
        ok(cli("keygen", seat, "--dir", directory))
    return directory


@pytest.fixture
def game(cli: Cli, tmp_path: Path) -> Game:
    """A started 2-seat tally game: keys made, created, joined and submitted via the CLI.

    Built once through the CLI and copied for each test (see ``helpers.tables.from_template``).
    """

    def build(base: Path) -> None:
        for seat in ("alice", "bob"):
            ok(cli("keygen", seat, "--dir", base / "keys"))
        g = new_game(cli, base, base / "keys")
        joins = []
        for seat in ("alice", "bob"):
            path = g.out(f"join-{seat}")
            ok(
                cli(
                    "join", g.root / "game.json", "--seat", seat, "--key", g.keys / seat, "-o", path
                )
            )
            joins.append(path)
        ok(cli("submit", g.root, *joins))

    from_template("cli-game", tmp_path, build)
    return Game(tmp_path / "g1", tmp_path / "keys", tmp_path / "files", cli, count=2)
