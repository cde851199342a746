"""The real ``arbiter`` command line, driven in-process (and a few times as a subprocess).

In-process calls go through ``arbiter.cli.main.run`` (which maps domain errors to exit
codes and calls ``sys.exit``) or through Typer's ``CliRunner`` on the app.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.tables import from_template, snapshot
from typer.testing import CliRunner

from arbiter.cli.main import app, run
from arbiter.core.canonical import pretty
from arbiter.core.signing import signed_bytes

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


# -- a game made through the CLI ------------------------------------------------------------------


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

    def move(self, seat: str, *actions: dict[str, Any]) -> Path:
        path = self.out(seat)
        args: list[Any] = ["move", self.state(seat), "--key", self.keys / seat, "-o", path]
        for action in actions:
            args += ["--action", json.dumps(action)]
        ok(self.cli(*args))
        return path

    def turn(self) -> str:
        return str(ok(self.cli("status", self.root, "--json")).json()["prompt"]["seat"])


@pytest.fixture
def keys(cli: Cli, tmp_path: Path) -> Path:
    directory = tmp_path / "keys"
    for seat in ("alice", "bob"):
        ok(cli("keygen", seat, "--dir", directory))
    return directory


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


@pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen (OpenSSH) is not installed")
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
    assert join["format"] == "arbiter.join/1" and len(join["entropy"]) == 64


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
    out_of_turn = game.move("alice", {"kind": "draw"})
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


# -- player commands ------------------------------------------------------------------------------


def test_status_human(game: Game, cli: Cli) -> None:
    out = ok(cli("status", game.root)).out
    assert "game g1" in out and "tally 1" in out and "alice, bob" in out
    assert "status: playing after entry #2" in out
    assert "waiting for alice: turn" in out
    assert "revealed: not yet" in out


def test_moves_json_is_ready_to_use(game: Game, cli: Cli) -> None:
    legal = ok(cli("moves", game.state("alice"), "--json")).json()
    state = json.loads(game.state("alice").read_text())
    assert legal == state["legal"] and {"kind": "draw"} in legal
    # Every listed decision can be passed back to `move` as is.
    for action in legal:
        text = json.dumps(action)
        path = game.out("check")
        result = ok(
            cli(
                "move",
                game.state("alice"),
                "--key",
                game.keys / "alice",
                "--action",
                text,
                "-o",
                path,
            )
        )
        assert "warning" not in result.err
    # Not your turn: an empty list.
    assert ok(cli("moves", game.state("bob"), "--json")).json() == []


def test_moves_human(game: Game, cli: Cli) -> None:
    out = ok(cli("moves", game.state("alice"))).out
    assert "legal decision(s) for alice" in out
    assert '--action \'{"kind": "draw"}\'' in out
    assert "not your turn: alice decides" in ok(cli("moves", game.state("bob"))).out


def test_move_builds_a_signed_file(game: Game, cli: Cli) -> None:
    state = json.loads(game.state("alice").read_text())
    path = game.move("alice", {"kind": "draw"})
    move = json.loads(path.read_text())
    assert move["format"] == "arbiter.move/1" and move["seat"] == "alice"
    assert move["after"] == state["head"] and move["actions"] == [{"kind": "draw"}]
    assert move["signature"].startswith("-----BEGIN SSH SIGNATURE-----\n")
    # Never overwrites an existing file.
    result = cli(
        "move",
        game.state("alice"),
        "--key",
        game.keys / "alice",
        "--action",
        '{"kind": "draw"}',
        "-o",
        path,
    )
    assert "already exists" in error_line(result, 2)


def test_move_batch(game: Game, cli: Cli) -> None:
    card = json.loads(game.state("alice").read_text())["view"]["hand"][0]
    path = game.move("alice", {"kind": "play", "card": card}, {"kind": "draw"})
    assert len(json.loads(path.read_text())["actions"]) == 2
    result = ok(cli("submit", game.root, path, "--json")).json()
    assert result[0]["seq"] == 3 and len(result[0]["summary"]) == 2
    public = json.loads(game.state().read_text())
    assert public["view"]["tallies"]["alice"] == [card] and public["prompt"]["seat"] == "bob"


def test_move_warns_but_signs(game: Game, cli: Cli) -> None:
    path = game.out("bob")
    result = ok(
        cli(
            "move",
            game.state("bob"),
            "--key",
            game.keys / "bob",
            "--action",
            '{"kind": "draw"}',
            "-o",
            path,
        )
    )
    assert "warning" in result.err and "alice's turn" in result.err
    assert path.is_file()


@pytest.mark.parametrize(
    "action, words",
    [("{", "not valid JSON"), ("[1]", "JSON object"), ('{"kind": 1.5}', "integer")],
)
def test_move_bad_action(game: Game, cli: Cli, action: str, words: str) -> None:
    path = game.out("alice")
    result = cli(
        "move", game.state("alice"), "--key", game.keys / "alice", "--action", action, "-o", path
    )
    assert words in error_line(result, 2)
    assert not path.exists()


def test_move_with_another_seats_key(game: Game, cli: Cli) -> None:
    path = game.out("alice")
    result = cli(
        "move",
        game.state("alice"),
        "--key",
        game.keys / "bob",
        "--action",
        '{"kind": "draw"}',
        "-o",
        path,
    )
    # Either refused up front, or signed and then refused by the referee.
    if result.code == 0:
        assert "another key" in error_line(cli("submit", game.root, path), 7)
    else:
        error_line(result, 2)


def test_show_human(game: Game, cli: Cli) -> None:
    out = ok(cli("show", game.state("alice"))).out
    hand = json.loads(game.state("alice").read_text())["view"]["hand"]
    assert "seen by alice" in out and "your turn" in out
    assert "hand" in out and all(str(card) in out for card in hand)
    spectator = ok(cli("show", game.state())).out
    assert "seen by spectator" in spectator and "alice's turn" in spectator


def test_show_json(game: Game, cli: Cli) -> None:
    shown = ok(cli("show", game.state("bob"), "--json")).json()
    assert shown == json.loads(game.state("bob").read_text())


def test_show_rejects_a_non_state_file(game: Game, cli: Cli) -> None:
    result = cli("show", game.root / "game.json")
    assert result.code == 4, result


# -- reveal and verify ----------------------------------------------------------------------------


def test_reveal_refused_before_the_end(game: Game, cli: Cli) -> None:
    before = snapshot(game.root)
    err = error_line(cli("reveal", game.root), 17)
    assert "--force" in err
    assert snapshot(game.root) == before


def test_reveal_force_and_verify(game: Game, cli: Cli) -> None:
    info = ok(cli("reveal", game.root, "--force", "--json")).json()
    assert info["forced"] is True
    assert "before the game was over" in (game.root / "public" / "log.md").read_text()
    status = ok(cli("status", game.root, "--json")).json()
    assert status["revealed"] is True
    out = ok(cli("verify", game.root)).out
    assert "replayed and every published byte matches" in out
    report = ok(cli("verify", game.root, "--json")).json()
    assert report["ok"] is True and report["revealed"] and report["replayed"]
    # No more moves once revealed.
    path = game.move("alice", {"kind": "draw"})
    assert "revealed" in error_line(cli("submit", game.root, path), 10)


def test_verify_before_reveal(game: Game, cli: Cli) -> None:
    out = ok(cli("verify", game.root)).out
    assert "public files consistent" in out
    report = ok(cli("verify", game.root, "--json")).json()
    assert report["ok"] and not report["revealed"] and report["entries"] == 3


def test_verify_failure_exit_code(game: Game, cli: Cli) -> None:
    log = game.root / "public" / "log.md"
    log.write_text(log.read_text().replace("alice joined.", "alice joined!"))
    err = error_line(cli("verify", game.root), 16)
    assert "#1" in err
    err = error_line(cli("verify", game.root, "--json"), 16)


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


@pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen (OpenSSH) is not installed")
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
        legal = ok(cli("moves", g.state(seat), "--json")).json()
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
