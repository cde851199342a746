"""The player's commands on sealed files: ``show``, ``moves`` and ``move --seal``."""

from __future__ import annotations

import json

from cli.clikit import arbiter
from helpers.sealed import sealed_started

from arbiter.core import sealing


def test_show_and_moves_open_a_sealed_state_file(tmp_path):
    table = sealed_started(tmp_path, 2)
    seat = table.turn()
    path = table.gd.sealed_state(seat)
    shown = arbiter("show", path, "--key", table.keys[seat], "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == table.state(seat)
    listed = arbiter("moves", path, "--identity", table.keys[seat], "--json")
    assert [c["action"] for c in json.loads(listed.stdout)] == table.state(seat)["legal"]
    rendered = arbiter("show", path, "-k", table.keys[seat])
    assert rendered.returncode == 0 and seat in rendered.stdout
    missing = arbiter("show", path)
    assert missing.returncode == 2 and "is sealed: pass your key" in missing.stderr
    agent = arbiter("show", path, "--key", f"{table.keys[seat]}.pub")
    assert agent.returncode == 2 and "cannot decrypt" in agent.stderr


def test_move_seal_writes_a_file_only_the_referee_opens(tmp_path):
    table = sealed_started(tmp_path, 2)
    seat = table.turn()
    other = next(s for s in table.seats if s != seat)
    action = json.dumps(table.state(seat)["legal"][0])
    out = tmp_path / "move.json"
    made = arbiter(
        "move", table.gd.sealed_state(seat), "--key", table.keys[seat], "-a", action,
        "-o", out, "--seal",
    )
    assert made.returncode == 0, made.stderr
    sealed = tmp_path / "move.json.age"
    assert not out.exists() and sealed.is_file()
    data = sealed.read_bytes()
    assert sealing.recipients(data, "m") == [
        ("ssh-ed25519", sealing.key_tag(table.manifest()["referee"]))
    ]
    # padded: a move's size does not tell which card it names
    assert len(data) > sealing.padded_size(1)
    done = arbiter("submit", table.root, sealed, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["seat"] == seat
    again = arbiter(
        "move", table.gd.sealed_state(other), "--key", table.keys[other], "-a", action,
        "-o", tmp_path / "x.json.age", "--seal", "--manifest", tmp_path / "nowhere.json",
        "--force",  # not other's turn: only the missing game.json is looked at here
    )
    assert again.returncode == 17, again.stderr  # the named game.json does not exist


def test_move_seal_refuses_another_games_manifest(tmp_path):
    table = sealed_started(tmp_path, 2)
    seat = table.turn()
    other_game = tmp_path / "other.json"
    manifest = table.manifest() | {"game": "another-game"}
    other_game.write_text(json.dumps(manifest))
    result = arbiter(
        "move", table.gd.sealed_state(seat), "--key", table.keys[seat],
        "-a", json.dumps(table.state(seat)["legal"][0]),
        "-o", tmp_path / "m.json", "--seal", "--manifest", other_game,
    )
    assert result.returncode == 2 and "is not the game.json of game sealed-test" in result.stderr
    assert not (tmp_path / "m.json.age").exists()


def test_the_mail_desk_refuses_a_sealed_game(tmp_path):
    table = sealed_started(tmp_path, 2)
    before = table.snapshot()
    result = arbiter("mail", "seat", table.root, "alice", "alice@example.org")
    assert result.returncode == 2 and "sealed" in result.stderr
    assert table.snapshot() == before


def test_status_says_the_game_is_sealed(tmp_path):
    table = sealed_started(tmp_path, 2)
    result = arbiter("status", table.root, "--json")
    assert json.loads(result.stdout)["sealed"] is True
    assert "· sealed" in arbiter("status", table.root).stdout
