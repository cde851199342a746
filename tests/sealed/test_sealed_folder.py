"""A sealed game's folder: only age files per seat, a byte-stable heal, a signed index
that ``arbiter verify`` checks without keys, and a seat's own check with its key."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from helpers.sealed import sealed_started
from helpers.tables import snapshot

from arbiter.core import sealing
from arbiter.core.canonical import pretty
from arbiter.core.errors import UsageError, VerificationFailed, WrongGame
from arbiter.core.referee import repair, reveal
from arbiter.core.replay import SeatKey, verify
from arbiter.core.signing import NAMESPACE_SEALED, sign


def _arbiter(*args: object) -> subprocess.CompletedProcess[str]:
    from cli.clikit import arbiter

    return arbiter(*args)


def test_each_seat_gets_age_files_only(tmp_path):
    table = sealed_started(tmp_path, 2)
    table.step()
    gd = table.gd
    for seat in table.seats:
        assert not gd.seat_state(seat).exists() and not gd.seat_log(seat).exists()
        for path in (gd.sealed_state(seat), gd.sealed_log(seat)):
            data = path.read_bytes()
            # nothing before the age header: the entry number is in the public chain
            assert data.startswith(sealing.MAGIC + b"-> ssh-ed25519 ")
            assert sealing.recipients(data, path.name) == [
                ("ssh-ed25519", sealing.key_tag(table.manifest()["seats"][table.seats.index(seat)]["key"]))
            ]
            assert os.stat(path).st_mode & 0o777 == 0o644
    manifest = table.manifest()
    assert manifest["sealed"] is True
    index = json.loads(gd.sealed_index.read_text())
    assert index["seq"] == table.state()["seq"] and index["head"] == table.state()["head"]
    assert sorted(index["files"]) == sorted(
        f"players/{s}/{n}" for s in table.seats for n in ("log.md.age", "state.json.age")
    )
    assert "sealed.json" in os.listdir(gd.referee)  # the private record
    report = verify(table.root)
    assert any(line.startswith("sealed files: 4 at the chain head") for line in report.checks)


def test_a_seat_opens_only_its_own_files(tmp_path):
    table = sealed_started(tmp_path, 2)
    alice = table.state("alice")
    assert alice["seat"] == "alice" and alice["view"] is not None
    with pytest.raises(UsageError, match="not sealed to"):
        from arbiter.core.player import load_state

        load_state(table.gd.sealed_state("alice"), table.keys["bob"])
    with pytest.raises(UsageError, match="is sealed: pass your key"):
        load_state(table.gd.sealed_state("alice"))


def test_heal_leaves_a_sound_sealed_folder_byte_for_byte(tmp_path):
    table = sealed_started(tmp_path, 2)
    table.step()
    before = snapshot(table.root)
    assert repair(table.root) == []
    assert snapshot(table.root) == before


def test_heal_reseals_a_lost_file_and_removes_a_plain_one(tmp_path):
    table = sealed_started(tmp_path, 2)
    table.step()
    gd = table.gd
    state = table.state("bob")
    gd.sealed_state("bob").unlink()
    gd.seat_log("alice").write_text("alice's hand in plain text\n")
    with pytest.raises(VerificationFailed):
        verify(table.root)
    fixed = repair(table.root)
    assert gd.sealed_state("bob") in fixed and gd.seat_log("alice") in fixed
    assert gd.sealed_index in fixed  # the new file's digest is signed again
    assert not gd.seat_log("alice").exists()
    assert table.state("bob") == state
    verify(table.root)
    before = snapshot(table.root)
    assert repair(table.root) == []
    assert snapshot(table.root) == before


def test_a_swapped_sealed_file_fails_verify(tmp_path):
    table = sealed_started(tmp_path, 2)
    gd = table.gd
    gd.sealed_state("bob").write_bytes(gd.sealed_state("alice").read_bytes())
    with pytest.raises(VerificationFailed, match="players/bob/state.json.age is not the file"):
        verify(table.root)


def test_a_file_sealed_to_a_second_key_fails_verify(tmp_path):
    """A referee who adds a recipient (say, a friend of alice's) to bob's file is caught
    from the header alone, even when the index is re-signed to match."""
    table = sealed_started(tmp_path, 2)
    gd = table.gd
    keys = {s["seat"]: s["key"] for s in table.manifest()["seats"]}
    plain = table.state("bob")
    gd.sealed_state("bob").write_bytes(
        sealing.seal(sealing.pad(pretty(plain)), [keys["bob"], keys["alice"]])
    )
    _resign_index(table)
    with pytest.raises(VerificationFailed, match="not sealed to bob's key alone"):
        verify(table.root)


def test_an_edited_or_stale_index_fails_verify(tmp_path):
    table = sealed_started(tmp_path, 2)
    gd = table.gd
    old = gd.sealed_index.read_bytes()
    index = json.loads(old)
    index["seq"] = 0
    gd.sealed_index.write_bytes(pretty(index))
    with pytest.raises(VerificationFailed, match="signature"):
        verify(table.root)
    gd.sealed_index.write_bytes(old)
    table.step()  # the head moves on
    gd.sealed_index.write_bytes(old)
    with pytest.raises(VerificationFailed, match="not of the head"):
        verify(table.root)


def test_a_seat_holder_catches_a_wrong_view_the_index_signs(tmp_path):
    """The referee could seal a wrong view and sign it: only the seat can tell, with its
    key, and its check names the file."""
    table = sealed_started(tmp_path, 2)
    table.step()
    gd = table.gd
    keys = {s["seat"]: s["key"] for s in table.manifest()["seats"]}
    wrong = table.state("bob")
    wrong["seq"] = 0
    gd.sealed_state("bob").write_bytes(sealing.seal(sealing.pad(pretty(wrong)), [keys["bob"]]))
    _resign_index(table)
    verify(table.root)  # without bob's key nothing can tell
    with pytest.raises(VerificationFailed, match="state.json.age is at entry #0"):
        verify(table.root, seat_key=SeatKey("bob", table.keys["bob"]))
    report = verify(table.root, seat_key=SeatKey("alice", table.keys["alice"]))
    assert any("alice's sealed files" in line for line in report.checks)


def test_after_reveal_a_seat_checks_its_files_against_the_replay(tmp_path):
    table = sealed_started(tmp_path, 2)
    table.play_to_end()
    reveal(table.root)
    report = verify(table.root, seat_key=SeatKey("alice", table.keys["alice"]))
    assert report.replayed
    assert "logs: public, alice identical to the replay" in report.checks
    assert "state files: public, alice identical to the replay" in report.checks
    # a log sealed with one changed line is caught at that entry
    gd = table.gd
    keys = {s["seat"]: s["key"] for s in table.manifest()["seats"]}
    log = sealing.unpad(sealing.unseal(gd.sealed_log("alice").read_bytes(), table.keys["alice"], "log"))
    lines = log.decode().split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("- `#3`"))
    lines[index] = lines[index] + " (edited)"
    gd.sealed_log("alice").write_bytes(
        sealing.seal(sealing.pad("\n".join(lines).encode()), [keys["alice"]])
    )
    _resign_index(table)
    verify(table.root)
    with pytest.raises(VerificationFailed, match="log.md.age differs at entry #3"):
        verify(table.root, seat_key=SeatKey("alice", table.keys["alice"]))


def test_verify_cli_opens_a_seat_with_its_key(tmp_path):
    table = sealed_started(tmp_path, 2)
    ok = _arbiter("verify", table.root, "--seat", "bob", "--key", table.keys["bob"], "--json")
    assert ok.returncode == 0, ok.stderr
    assert any("bob's sealed files" in line for line in json.loads(ok.stdout)["checks"])
    wrong = _arbiter("verify", table.root, "--seat", "bob", "--key", table.keys["alice"])
    assert wrong.returncode == 2 and "not sealed to" in wrong.stderr
    half = _arbiter("verify", table.root, "--seat", "bob")
    assert half.returncode == 2 and "go together" in half.stderr


def test_a_move_sealed_to_another_referee_is_refused(tmp_path):
    table = sealed_started(tmp_path, 2)
    seat = table.turn()
    move = table.move_file(seat, [table.state(seat)["legal"][0]])
    stranger = table.manifest()["seats"][0]["key"]  # alice's key: not the referee's
    data = sealing.seal(sealing.pad(pretty(move)), [stranger])
    from helpers.tables import expect_rejection

    exc = expect_rejection(table, WrongGame, 5, table.submit_bytes, data, "m.json.age")
    assert "sealed to another key" in exc.message
    # the same move, plain, is accepted: submit takes sealed and plain files alike
    assert table.submit_bytes(pretty(move), "m.json").kind == "move"


def test_new_refuses_keys_age_cannot_seal_to(tmp_path):
    ecdsa = (
        "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxk"
        "ZMy7opKgwFB9nkt5YRrYMjNuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg="
    )
    from helpers.tables import make_keys

    keys = make_keys(tmp_path / "keys", ["alice"])
    result = _arbiter(
        "new", tmp_path / "g", "--game", "tally", "--seat", f"alice={keys['alice']}.pub",
        "--seat", f"bob={ecdsa}", "--sealed",
    )
    assert result.returncode in (2, 7), result.stderr
    assert not (tmp_path / "g").exists()
    mail = _arbiter(
        "new", tmp_path / "h", "--game", "tally", "--seat", f"alice={keys['alice']}.pub",
        "--sealed", "--email", "alice=alice@example.org",
    )
    assert mail.returncode == 2 and "--sealed" in mail.stderr
    assert not (tmp_path / "h").exists()


def _resign_index(table) -> None:
    """Re-sign public/sealed.json for the files now on disk, as a dishonest referee could."""
    from arbiter.core.canonical import sha256_hex

    gd = table.gd
    index = json.loads(gd.sealed_index.read_text())
    index.pop("signature")
    for name in index["files"]:
        index["files"][name] = sha256_hex((gd.root / name).read_bytes())
    index["signature"] = sign(index, gd.referee_key, NAMESPACE_SEALED)
    gd.sealed_index.write_bytes(pretty(index))


def test_sealed_index_schema_is_committed():
    assert Path(__file__).parents[2].joinpath("schemas", "sealed-index.schema.json").is_file()
