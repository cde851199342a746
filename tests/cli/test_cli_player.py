"""The real ``arbiter`` command line: the player's commands, reveal and verify."""

from __future__ import annotations

import json

import pytest
from clikit import Cli, Game, error_line, ok
from helpers.tables import snapshot

# -- player commands ------------------------------------------------------------------------------


def test_status_human(game: Game, cli: Cli) -> None:
    out = ok(cli("status", game.root)).out
    assert "game g1" in out and "tally 1" in out and "alice, bob" in out
    assert "status: playing after entry #2" in out
    assert "waiting for alice: turn" in out
    assert "revealed: not yet" in out


def test_moves_json_is_ready_to_use(game: Game, cli: Cli) -> None:
    listed = ok(cli("moves", game.state("alice"), "--json")).json()
    state = json.loads(game.state("alice").read_text())
    # Numbered from 1 in the state file's order; each carries its decision as JSON.
    assert [c["number"] for c in listed] == list(range(1, len(listed) + 1))
    legal = [c["action"] for c in listed]
    assert legal == state["legal"] and {"kind": "draw"} in legal
    assert all(c["kind"] == c["action"]["kind"] and c["label"] for c in listed)
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


def test_move_refuses_unless_forced(game: Game, cli: Cli) -> None:
    path = game.out("bob")
    args = ["move", game.state("bob"), "--key", game.keys / "bob", "-a", '{"kind": "draw"}']
    assert "alice's turn" in error_line(cli(*args, "-o", path), 11)
    assert not path.exists()
    result = ok(cli(*args, "-o", path, "--force"))
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
