"""The real ``arbiter`` command line: read-only helpers, the command itself, whole games."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from clikit import SSH_KEYGEN, Cli, Game, arbiter, new_game, ok
from helpers.tools import needs
from typer.testing import CliRunner

from arbiter.cli.main import app
from arbiter.core.canonical import pretty
from arbiter.core.signing import signed_bytes

# -- read-only helpers ------------------------------------------------------------------------------


def test_games(cli: Cli) -> None:
    rows = ok(cli("games", "--json")).json()
    tally = next(row for row in rows if row["name"] == "tally")
    assert tally["seats"] == [2, 4]
    assert {o["name"] for o in tally["options"]} == {"cards", "hand"}
    assert "tally" in ok(cli("games")).out


def test_signed_bytes(game: Game) -> None:
    path = game.move("alice", {"kind": "draw"})
    move = json.loads(path.read_text())
    result = CliRunner().invoke(app, ["signed-bytes", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout_bytes
    assert out == signed_bytes(move)
    assert b"signature" not in out and not out.endswith(b"\n")


@needs("ssh-keygen")
@pytest.mark.parametrize("kind", ["move", "join"])
def test_signed_bytes_verify_with_ssh_keygen(game: Game, tmp_path: Path, kind: str) -> None:
    """The docs/signing.md recipe, with Python standing in for jq."""
    assert SSH_KEYGEN is not None
    if kind == "move":
        path, namespace = game.move("alice", {"kind": "draw"}), "arbiter-move"
    else:
        path, namespace = next(game.files.glob("*join-alice.json")), "arbiter-join"
    done = arbiter("signed-bytes", path)
    assert done.returncode == 0, done.stderr
    data = done.stdout.encode()
    assert data == signed_bytes(json.loads(path.read_text()))
    obj = json.loads(path.read_text())
    sig = tmp_path / "file.sig"
    sig.write_text(obj["signature"])
    manifest = json.loads((game.root / "game.json").read_text())
    allowed = tmp_path / "allowed_signers"
    allowed.write_text(
        "".join(
            f'{s["seat"]} namespaces="arbiter-move,arbiter-join" {s["key"]}\n'
            for s in manifest["seats"]
        )
    )

    def check(identity: str, ns: str, payload: bytes) -> int:
        return subprocess.run(
            [
                SSH_KEYGEN,
                "-Y",
                "verify",
                "-f",
                str(allowed),
                "-I",
                identity,
                "-n",
                ns,
                "-s",
                str(sig),
            ],
            input=payload,
            capture_output=True,
            check=False,
        ).returncode

    assert check("alice", namespace, data) == 0
    assert check("bob", namespace, data) != 0
    other = "arbiter-join" if namespace == "arbiter-move" else "arbiter-move"
    assert check("alice", other, data) != 0
    assert check("alice", namespace, data.replace(b"alice", b"alicf")) != 0


# -- the command itself -------------------------------------------------------------------------------


def test_python_m_arbiter_help() -> None:
    done = arbiter("--help")
    assert done.returncode == 0, done.stderr
    for command in (
        "keygen",
        "new",
        "join",
        "submit",
        "status",
        "moves",
        "move",
        "show",
        "reveal",
        "verify",
        "games",
        "signed-bytes",
        "demo",
    ):
        assert command in done.stdout
    short = arbiter("submit", "-h")
    assert short.returncode == 0 and "Judge join and move files" in short.stdout


def test_usage_error_exits_2(cli: Cli) -> None:
    done = arbiter("submit")
    assert done.returncode == 2 and "Usage" in done.stderr
    assert cli("no-such-command").code == 2
    assert cli("status", "--no-such-option", ".").code == 2


def test_rejection_in_a_subprocess(game: Game) -> None:
    """The documented exit code and the one stderr line reach the shell."""
    join = next(game.files.glob("*join-bob.json"))
    done = arbiter("submit", game.root, join)
    assert done.returncode == 9, done
    assert done.stderr.startswith("arbiter: error: ") and done.stderr.count("\n") == 1
    assert done.stdout == ""


def test_no_arguments_shows_help() -> None:
    runner = CliRunner()
    result = runner.invoke(app, [])
    assert "Usage" in result.output


def test_cli_runner_status_and_games(game: Game) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["status", str(game.root), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["status"] == "playing"
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    assert any(row["name"] == "tally" for row in json.loads(result.stdout))


# -- a whole game -------------------------------------------------------------------------------------


def test_full_game_through_the_cli(cli: Cli, tmp_path: Path, keys: Path) -> None:
    g = new_game(cli, tmp_path, keys)
    for seat in ("alice", "bob"):
        path = g.out(f"join-{seat}")
        ok(cli("join", g.root / "game.json", "--seat", seat, "--key", keys / seat, "-o", path))
        ok(cli("submit", g.root, path))
    files = 0
    while True:
        status = ok(cli("status", g.root, "--json")).json()
        if status["status"] != "playing":
            break
        seat = status["prompt"]["seat"]
        legal = [c["action"] for c in ok(cli("moves", g.state(seat), "--json")).json()]
        plays = [a for a in legal if a["kind"] == "play"]
        if {"kind": "draw"} in legal:
            actions = [*plays[:1], {"kind": "draw"}]  # a batch that stops at the barrier
        elif plays:
            actions = plays[:1]
        else:
            actions = [{"kind": "end"}]
        path = g.move(seat, *actions)
        ok(cli("submit", g.root, path))
        files += 1
        assert files < 100, "the game did not end"
    assert status["status"] == "over" and status["winners"]
    ok(cli("reveal", g.root))
    report = ok(cli("verify", g.root, "--json")).json()
    assert report["replayed"] and report["status"] == "over"
    assert report["signatures"] == files + 2
    assert "Winner" in (g.root / "public" / "log.md").read_text()
    ok(cli("verify", g.root))


@pytest.mark.slow
def test_short_game_in_subprocesses(tmp_path: Path) -> None:
    """The installed entry point, end to end: keys, new --no-join, moves, reveal, verify.

    Marked slow (a dozen interpreter start-ups); the same path runs in-process above.
    """
    for seat in ("alice", "bob"):
        assert arbiter("keygen", seat, "--dir", tmp_path / "keys").returncode == 0
    root = tmp_path / "g"
    done = arbiter(
        "new",
        root,
        "--game",
        "tally",
        "--no-join",
        "--option",
        "cards=4",
        "--option",
        "hand=1",
        "--seat",
        f"alice={tmp_path / 'keys/alice.pub'}",
        "--seat",
        f"bob={tmp_path / 'keys/bob.pub'}",
    )
    assert done.returncode == 0, done.stderr
    for n in range(10):
        public = json.loads((root / "public/state.json").read_text())
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seat"]
        state = json.loads((root / f"players/{seat}/state.json").read_text())
        view = state["view"]
        if view["deck"]:
            actions = [{"kind": "draw"}]
        else:
            actions = [{"kind": "play", "card": c} for c in view["hand"][:2]]
            if len(view["hand"]) > 2 or view["played"]:
                actions.append({"kind": "end"})
        path = tmp_path / f"m{n}.json"
        args: list[Any] = [
            "move",
            root / f"players/{seat}/state.json",
            "--key",
            tmp_path / "keys" / seat,
        ]
        for action in actions:
            args += ["--action", json.dumps(action)]
        done = arbiter(*args, "-o", path)
        assert done.returncode == 0, done.stderr
        done = arbiter("submit", root, path)
        assert done.returncode == 0, done.stderr
    assert json.loads((root / "public/state.json").read_text())["status"] == "over"
    assert arbiter("reveal", root).returncode == 0
    done = arbiter("verify", root)
    assert done.returncode == 0, done.stderr
    assert "every published byte matches" in done.stdout


def test_pretty_is_what_the_cli_writes(game: Game) -> None:
    """Files the CLI writes are the stable pretty form (sorted keys, fixed indent)."""
    path = game.move("alice", {"kind": "draw"})
    assert path.read_bytes() == pretty(json.loads(path.read_text()))
