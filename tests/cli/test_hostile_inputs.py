"""Hostile input files and names through the real command line.

A player controls the files in a shared inbox and what their state file says; the
referee and other players run arbiter on them. Whatever they send: one line on stderr
with the documented exit code, no traceback, nothing quoted from a file behind a link,
no hang, no unbounded read, terminal text printed literally (no rich markup, no escape
sequences), and for ``submit`` a game folder that is byte-for-byte unchanged.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clikit import Cli, Game, Result, error_line, ok, subprocess_env
from helpers.tables import snapshot

HOSTILE_NAME = "m[@click=(]\x1b[31m[bold]"
SHOWN_NAME = "m[@click=(]\\x1b[31m[bold]"


def refused(result: Result, code: int, *absent: str) -> str:
    """Check a one-line refusal with ``code``: no traceback, nothing of ``absent``."""
    err = error_line(result, code)
    assert "Traceback" not in result.err and result.out == "", result
    for text in absent:
        assert text not in result.err and text not in result.out, text
    return err


def run(*args: Any, timeout: float = 60) -> Result:
    """Run ``python -m arbiter`` in a subprocess (for what could hang or eat memory)."""
    done = subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=timeout,
        check=False,
    )
    return Result(done.returncode, done.stdout, done.stderr)


def secret_text(game: Game) -> str:
    text = (game.root / "referee" / "secret").read_bytes().decode("ascii", "replace").strip()
    assert len(text) >= 16
    return text


# -- submit: what the move file is --------------------------------------------------------------


def test_submit_refuses_a_symlink_to_the_referee_secret(game: Game, cli: Cli) -> None:
    link = game.files / "move.json"
    link.symlink_to((game.root / "referee" / "secret").resolve())
    before = snapshot(game.root)
    err = refused(cli("submit", game.root, link), 3, secret_text(game)[:6])
    assert "move.json is a symlink" in err
    assert snapshot(game.root) == before


def test_submit_refuses_a_symlink_to_a_good_move(game: Game, cli: Cli) -> None:
    good = game.move("alice", {"kind": "draw"})
    link = game.files / "link.json"
    link.symlink_to(good)
    before = snapshot(game.root)
    assert "symlink" in refused(cli("submit", game.root, link), 3)
    assert snapshot(game.root) == before


def test_submit_refuses_a_directory(game: Game, cli: Cli) -> None:
    folder = game.files / "somedir"
    folder.mkdir()
    before = snapshot(game.root)
    assert "somedir is a directory: give a regular file" in refused(
        cli("submit", game.root, folder), 3
    )
    assert snapshot(game.root) == before


def test_submit_refuses_a_fifo_without_hanging(game: Game) -> None:
    fifo = game.files / "move.fifo"
    os.mkfifo(fifo)
    before = snapshot(game.root)
    assert "is a FIFO" in refused(run("submit", game.root, fifo, timeout=30), 3)
    assert snapshot(game.root) == before


def test_submit_refuses_a_device_without_reading_it(game: Game) -> None:
    before = snapshot(game.root)
    assert "/dev/zero is a device" in refused(run("submit", game.root, "/dev/zero"), 3)
    assert snapshot(game.root) == before


def test_submit_refuses_a_huge_file(game: Game, cli: Cli) -> None:
    huge = game.files / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(64 * 1024 * 1024)  # sparse: costs no disk
    before = snapshot(game.root)
    assert "larger than 1 MiB" in refused(cli("submit", game.root, huge), 3)
    assert snapshot(game.root) == before


def test_submit_parse_error_quotes_no_content(game: Game, cli: Cli) -> None:
    bad = game.files / "bad.json"
    bad.write_bytes(b'{"format": 31.41592653, "s3cr3t-key": 1, "s3cr3t-key": 2}')
    before = snapshot(game.root)
    err = refused(cli("submit", game.root, bad), 3, "31.4", "s3cr3t")
    assert "line 1 column 12" in err
    assert snapshot(game.root) == before


# -- submit: what the move file is called -------------------------------------------------------


def test_an_accepted_file_with_a_hostile_name_prints_literally(game: Game, cli: Cli) -> None:
    good = game.move("alice", {"kind": "draw"})
    hostile = game.files / f"{HOSTILE_NAME}.json"
    good.rename(hostile)
    result = ok(cli("submit", game.root, hostile))
    assert f"accepted {SHOWN_NAME}.json as entry #3" in result.out
    assert "\x1b" not in result.out and "Traceback" not in result.err


def test_a_refused_file_with_a_hostile_name_is_escaped(game: Game, cli: Cli) -> None:
    hostile = game.files / f"{HOSTILE_NAME}\r\n.json"
    hostile.write_bytes(b"{}")
    before = snapshot(game.root)
    err = refused(cli("submit", game.root, hostile), 4, "\x1b", "\r")
    assert SHOWN_NAME in err
    assert snapshot(game.root) == before


def test_a_missing_file_with_a_hostile_name_is_escaped(game: Game, cli: Cli) -> None:
    err = refused(cli("submit", game.root, game.files / f"{HOSTILE_NAME}.json"), 17, "\x1b")
    assert "not found" in err and SHOWN_NAME in err


# -- state files: show, moves, move ---------------------------------------------------------------


def hostile_state(game: Game, change: Any) -> Path:
    """Write alice's state file changed by ``change(state)`` next to the game."""
    state = json.loads(game.state("alice").read_text())
    change(state)
    path = game.files / "state.json"
    path.write_text(json.dumps(state))
    return path


def test_moves_prints_a_hint_with_markup_literally(game: Game, cli: Cli) -> None:
    def change(state: dict[str, Any]) -> None:
        state["prompt"]["detail"]["hint"] = "press [/] or [bold]x[/bold]\x1b[2J"

    result = ok(cli("moves", hostile_state(game, change)))
    assert "(press [/] or [bold]x[/bold]\\x1b[2J)" in result.out
    assert "\x1b" not in result.out


def test_show_prints_a_view_with_markup_literally(game: Game, cli: Cli) -> None:
    def change(state: dict[str, Any]) -> None:
        # Another engine version's view is shown as a plain tree (its engine would refuse
        # a view of the wrong shape: tests/fuzz/test_view_checks.py).
        state["engine"]["version"] = "0-other"
        state["view"] = {"[/]": {f"{HOSTILE_NAME}": "[bold]v\x07"}, "list": [{"[/x]": 1}]}
        state["seats"][0] = state["seat"] = state["prompt"]["seat"] = "al[/]ice\x1b"

    result = ok(cli("show", hostile_state(game, change)))
    assert "seen by al[/]ice\\x1b" in result.out and SHOWN_NAME in result.out
    assert "[/]" in result.out and "\x1b" not in result.out and "\x07" not in result.out


def test_show_refuses_a_symlinked_state_file(game: Game, cli: Cli) -> None:
    link = game.files / "state.json"
    link.symlink_to((game.root / "referee" / "secret").resolve())
    for command in ("show", "moves"):
        assert "is a symlink" in refused(cli(command, link), 3, secret_text(game)[:6])
    result = cli("move", link, "--key", game.keys / "alice", "-a", '{"kind": "draw"}', "-o", "x")
    assert "is a symlink" in refused(result, 3)


def test_show_refuses_a_fifo_without_hanging(game: Game) -> None:
    fifo = game.files / "state.fifo"
    os.mkfifo(fifo)
    assert "is a FIFO" in refused(run("show", fifo, timeout=30), 3)


def test_moves_refuses_a_state_file_that_contradicts_itself(game: Game, cli: Cli) -> None:
    def change(state: dict[str, Any]) -> None:
        state["prompt"] = None

    err = refused(cli("moves", hostile_state(game, change)), 4)
    assert "contradicts itself" in err


@pytest.fixture
def mottainai_state(cli: Cli, keys: Path, tmp_path: Path) -> Path:
    """Alice's state file at the start of a 2-seat Mottainai game (no joins)."""
    root = tmp_path / "mot"
    ok(
        cli(
            "new",
            root,
            "--game",
            "mottainai",
            "--seat",
            f"alice={keys / 'alice.pub'}",
            "--seat",
            f"bob={keys / 'bob.pub'}",
            "--no-join",
        )
    )
    return root / "players" / "alice" / "state.json"


def test_show_refuses_a_view_naming_an_unknown_card(mottainai_state: Path, cli: Cli) -> None:
    state = json.loads(mottainai_state.read_text())
    state["view"]["players"]["alice"]["hand"][0] = "no-such-card\x1b"
    path = mottainai_state.with_name("edited.json")
    path.write_text(json.dumps(state))
    err = refused(cli("show", path), 4, "no-such-card")
    # The view is checked against Mottainai's view schema before anything reads it.
    assert "players/alice/hand/0" in err
    refused(cli("show", path, "--json"), 4, "no-such-card")


def test_show_survives_any_one_changed_view_value(mottainai_state: Path, cli: Cli) -> None:
    """Every leaf of the view replaced in turn by an unknown name, a number or null."""
    base = json.loads(mottainai_state.read_text())
    paths: list[tuple[Any, ...]] = []

    def walk(value: Any, at: tuple[Any, ...]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*at, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*at, index))
        else:
            paths.append(at)

    walk(base["view"], ())
    path = mottainai_state.with_name("edited.json")
    for at in paths:
        for replacement in ("no-such-card", -1, None):
            state = json.loads(json.dumps(base))
            node = state["view"]
            for key in at[:-1]:
                node = node[key]
            node[at[-1]] = replacement
            path.write_text(json.dumps(state))
            result = cli("show", path)
            if result.code != 0:
                refused(result, 4)


def test_show_survives_a_result_naming_an_unknown_seat(game: Game, cli: Cli) -> None:
    def change(state: dict[str, Any]) -> None:
        state["engine"]["version"] = "0-other"  # its view is then not read by the engine
        state["status"], state["prompt"], state["legal"] = "over", None, None
        state["outcome"] = {
            "scores": {"alice": 3},
            "ranking": [["alice"], ["gh[/]ost\x1b"]],
            "winners": ["alice"],
            "breakdown": {},
            "tiebreak": None,
        }

    result = ok(cli("show", hostile_state(game, change)))
    assert "gh[/]ost\\x1b" in result.out and "\x1b" not in result.out


# -- keys and data files named on the command line ------------------------------------------------


def seats(keys: Path, alice: Path | str | None = None) -> list[str]:
    """``--seat`` arguments for alice and bob (alice's key file may be replaced)."""
    return ["--seat", f"alice={alice or keys / 'alice.pub'}", "--seat", f"bob={keys / 'bob.pub'}"]


def test_new_refuses_a_symlinked_public_key(cli: Cli, keys: Path, tmp_path: Path) -> None:
    link = tmp_path / "alice-link.pub"
    link.symlink_to(keys / "alice.pub")
    result = cli("new", tmp_path / "g", "--game", "tally", *seats(keys, link))
    assert "is a symlink" in refused(result, 2)
    assert not (tmp_path / "g").exists()


def test_new_refuses_a_device_as_public_key(keys: Path, tmp_path: Path) -> None:
    result = run("new", tmp_path / "g", "--game", "tally", *seats(keys, "/dev/zero"))
    assert "/dev/zero is a device" in refused(result, 2)


def test_new_refuses_a_fifo_as_card_table(cli: Cli, keys: Path, tmp_path: Path) -> None:
    ok(cli("keygen", "carol", "--dir", keys))
    fifo = tmp_path / "cards.json"
    os.mkfifo(fifo)
    seats = [
        arg for seat in ("alice", "bob", "carol") for arg in ("-s", f"{seat}={keys / seat}.pub")
    ]
    result = run(
        "new", tmp_path / "g", "--game", "motcoin", *seats, "-o", f"cards={fifo}", timeout=30
    )
    assert "card table" in refused(result, 2) and "is a FIFO" in result.err
    assert not (tmp_path / "g").exists()


def test_move_refuses_a_symlinked_key(game: Game, cli: Cli) -> None:
    link = game.files / "alias"
    link.symlink_to(game.keys / "alice")
    out = game.files / "move.json"
    result = cli("move", game.state("alice"), "--key", link, "-a", '{"kind": "draw"}', "-o", out)
    assert "key file" in refused(result, 2) and "is a symlink" in result.err
    assert not out.exists()


# -- the operating system's refusals --------------------------------------------------------------


def test_an_os_error_on_a_given_path_is_one_line(cli: Cli, keys: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_bytes(b"")
    result = cli("new", blocker / "g1", "--game", "tally", *seats(keys))
    assert "Not a directory" in refused(result, 17)
