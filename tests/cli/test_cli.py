"""The real ``arbiter`` command line: keys and the referee's commands.

In-process calls go through ``arbiter.cli.main.run`` (which maps domain errors to exit
codes and calls ``sys.exit``) or through Typer's ``CliRunner`` on the app; fixtures are in
conftest.py, helpers in clikit.py.
"""

from __future__ import annotations

import json
import stat
import subprocess
from pathlib import Path

import pytest
from clikit import SSH_KEYGEN, Cli, Game, error_line, new_game, ok
from helpers.tables import snapshot
from helpers.tools import needs

# -- keys -------------------------------------------------------------------------------------------


def test_keygen(cli: Cli, tmp_path: Path) -> None:
    result = ok(cli("keygen", "carol", "--dir", tmp_path))
    private, public = tmp_path / "carol", tmp_path / "carol.pub"
    assert str(private) in result.out and str(public) in result.out
    assert private.read_bytes().startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert public.read_text().startswith("ssh-ed25519 ") and public.read_text().endswith(" carol\n")
    # Never overwrites: a second run is a usage error and leaves the key alone.
    before = private.read_bytes()
    assert "already exists" in error_line(cli("keygen", "carol", "--dir", tmp_path), 2)
    assert private.read_bytes() == before


@needs("ssh-keygen")
def test_keygen_output_is_read_by_ssh_keygen(cli: Cli, tmp_path: Path) -> None:
    ok(cli("keygen", "carol", "--dir", tmp_path))
    assert SSH_KEYGEN is not None
    done = subprocess.run(
        [SSH_KEYGEN, "-y", "-f", str(tmp_path / "carol")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:2] == (tmp_path / "carol.pub").read_text().split()[:2]


# -- referee commands -----------------------------------------------------------------------------


def test_new_waits_for_joins(cli: Cli, tmp_path: Path, keys: Path) -> None:
    g = new_game(cli, tmp_path, keys)
    manifest = json.loads((g.root / "game.json").read_text())
    assert manifest["game"] == "g1" and manifest["join"] is True
    assert [s["seat"] for s in manifest["seats"]] == ["alice", "bob"]
    status = ok(cli("status", g.root, "--json")).json()
    assert status["status"] == "joining" and status["waiting_for"] == ["alice", "bob"]
    assert not (g.root / "reveal").exists()


def test_new_json(cli: Cli, tmp_path: Path, keys: Path) -> None:
    result = ok(
        cli(
            "new",
            tmp_path / "g2",
            "--game",
            "tally",
            "--seat",
            f"alice={keys / 'alice.pub'}",
            "--seat",
            f"bob={keys / 'bob.pub'}",
            "--option",
            "cards=20",
            "--id",
            "cup-7",
            "--json",
        )
    )
    info = result.json()
    assert info["game"] == "cup-7" and info["commitment"].startswith("sha256:")
    manifest = json.loads((tmp_path / "g2" / "game.json").read_text())
    assert manifest["options"] == {"cards": 20, "hand": 2}


def test_new_no_join_starts_at_once(cli: Cli, tmp_path: Path, keys: Path) -> None:
    g = new_game(cli, tmp_path, keys, "--no-join")
    status = ok(cli("status", g.root, "--json")).json()
    assert status["status"] == "playing" and status["prompt"]["seat"] == "alice"
    # A join file makes no sense for such a game.
    result = cli(
        "join",
        g.root / "game.json",
        "--seat",
        "alice",
        "--key",
        keys / "alice",
        "-o",
        tmp_path / "j.json",
    )
    assert "--no-join" in error_line(result, 2)


@pytest.mark.parametrize(
    "args, words",
    [
        (["--game", "nope"], "unknown game engine"),
        (["--option", "cards=many"], "must be an integer"),
        (["--option", "colour=red"], "unknown option"),
        (["--seat", "carol=not-a-key"], "public key"),
    ],
)
def test_new_usage_errors(
    cli: Cli, tmp_path: Path, keys: Path, args: list[str], words: str
) -> None:
    base = [
        "new",
        tmp_path / "g",
        "--seat",
        f"alice={keys / 'alice.pub'}",
        "--seat",
        f"bob={keys / 'bob.pub'}",
    ]
    if "--game" not in args:
        base += ["--game", "tally"]
    assert words in error_line(cli(*base, *args), 2)
    assert not (tmp_path / "g" / "game.json").exists()


def test_join_and_submit(game: Game, cli: Cli) -> None:
    status = ok(cli("status", game.root, "--json")).json()
    assert status["status"] == "playing" and status["seq"] == 2
    join = json.loads(next(game.files.glob("*join-alice.json")).read_text())
    assert join["format"] == "arbiter.join/2" and len(join["entropy"]) == 64


def test_submit_reports_each_file(game: Game, cli: Cli) -> None:
    path = game.move("alice", {"kind": "draw"})
    result = ok(cli("submit", game.root, path))
    assert f"accepted {path.name} as entry #3 (move by alice)" in result.out
    assert "alice draws a card" in result.out and "waiting for bob" in result.out
    again = game.move("bob", {"kind": "draw"})
    info = ok(cli("submit", game.root, again, "--json")).json()
    assert info[0]["seq"] == 4 and info[0]["seat"] == "bob" and info[0]["waiting_for"] == ["alice"]


def test_submit_rejection(game: Game, cli: Cli) -> None:
    path = game.move("alice", {"kind": "draw"})
    ok(cli("submit", game.root, path))
    before = snapshot(game.root)
    err = error_line(cli("submit", game.root, path), 9)
    assert "already accepted as entry #3" in err
    out_of_turn = game.move("alice", {"kind": "draw"}, force=True)
    err = error_line(cli("submit", game.root, out_of_turn), 11)
    assert "bob's turn" in err
    assert snapshot(game.root) == before


def test_submit_stops_at_the_first_rejection(game: Game, cli: Cli) -> None:
    good = game.move("alice", {"kind": "draw"})
    bad = game.files / "bad.json"
    bad.write_bytes(b'{"format": 1.5}')
    result = cli("submit", game.root, bad, good)
    assert "not an integer" in error_line(result, 3)
    assert ok(cli("status", game.root, "--json")).json()["seq"] == 2


def test_submit_missing_file(game: Game, cli: Cli) -> None:
    assert "not found" in error_line(cli("submit", game.root, game.files / "nope.json"), 17)


def test_submit_to_a_folder_that_is_not_a_game(cli: Cli, tmp_path: Path, game: Game) -> None:
    path = game.move("alice", {"kind": "draw"})
    assert "not a game folder" in error_line(cli("submit", tmp_path / "nowhere", path), 17)
