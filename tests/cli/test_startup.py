"""A fresh ``arbiter verify GAME`` or ``arbiter submit`` imports only what its path needs.

Start-up is most of these commands' time (issue 25, item 4): the modules a path does not
use stay unloaded. Which modules a fresh process loads is behaviour, asserted here; how
long they take is measured in ``benchmarks/``, never here.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clikit import Cli, ok, subprocess_env

from arbiter.bots.selfplay import play
from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_move

ROOT = Path(__file__).resolve().parents[2]
# Validation libraries the paths below do without: a listed decision needs no schema
# (arbiter.core.table, _listed), and no state, move or decision passes through pydantic.
VALIDATION = ("jsonschema", "referencing", "jsonschema_specifications", "pydantic", "pydantic_core")


def imported(*args: Any) -> set[str]:
    """Run ``python -m arbiter ARGS...`` in a fresh process; return every module it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "arbiter", *map(str, args)],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "imported package" not in line
    }


def loaded(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


def test_verify_of_one_game_loads_no_validation_library() -> None:
    modules = imported("verify", ROOT / "examples" / "mottainai")
    assert "arbiter.core.replay" in modules  # the path ran
    for package in VALIDATION:
        assert not loaded(modules, package), package


@pytest.fixture(scope="module")
def mottainai_move(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A 2-player Mottainai game a few files in, and a signed move of the seat on turn."""
    work = tmp_path_factory.mktemp("startup")

    class Stop(Exception):
        pass

    def stop(files: int) -> None:
        if files >= 6:
            raise Stop

    with contextlib.suppress(Stop):
        play(work, "mottainai", 2, "startup", progress=stop, batch=False)
    game = GameDir(work / "game")
    seat = load_state(game.public_state)["prompt"]["seat"]
    state = load_state(game.seat_state(seat))
    move = work / "move.json"
    move.write_bytes(pretty(make_move(state, work / "keys" / seat, [state["legal"][0]])))
    return work / "game", move


def test_submit_loads_no_validation_library_and_no_rich(mottainai_move) -> None:
    game, move = mottainai_move
    modules = imported("submit", game, move)
    assert "arbiter.core.referee" in modules
    for package in (*VALIDATION, "rich"):
        assert not loaded(modules, package), package


def test_a_run_builds_only_the_command_it_runs(cli: Cli, monkeypatch) -> None:
    """Typer would build every command's options on each run; only the one run is built."""
    import typer.main

    built: list[str] = []
    build = typer.main.get_command_from_info

    def recording(info: Any, **kwargs: Any) -> Any:
        command = build(info, **kwargs)
        built.append(command.name)
        return command

    monkeypatch.setattr(typer.main, "get_command_from_info", recording)
    ok(cli("games"))
    assert built == ["games"]
    built.clear()
    ok(cli("--version"))
    assert built == []


def test_help_lists_every_command_in_registration_order(cli: Cli) -> None:
    import typer

    from arbiter.cli import main

    every = typer.Typer()
    every.callback()(lambda: None)
    for group in (main.keys, main.referee, main.player, main.life, main.leave, main.takeback,
                  main.orders, main.play, main.bot, main.inspect):
        group.register(every)
    for group in (main.replay, main.demo, main.mail, main.git, main.tournament, main.peer,
                  main.replay_page, main.notify, main.ratings, main.export_command):
        group.register(every)
    names = list(typer.main.get_command(every).commands)  # what Typer itself would list
    lines = ok(cli("--help")).out.splitlines()
    listed = [line.split()[0] for line in lines[lines.index("Commands:") + 1 :] if line.strip()]
    assert listed == names
