"""Interop with the real ``age`` CLI (Debian's package): players and referees need not
trust arbiter's own age code to read a sealed file or to seal a move."""

from __future__ import annotations

import json
import subprocess

import pytest
from helpers.sealed import sealed_started
from helpers.tables import make_keys
from helpers.tools import needs

from arbiter.core import sealing
from arbiter.core.canonical import pretty
from arbiter.core.player import load_state
from arbiter.core.replay import SeatKey, verify

pytestmark = needs("age", "sealed files must open with the age CLI")


def _age(*args: object, data: bytes | None = None) -> bytes:
    done = subprocess.run(["age", *map(str, args)], input=data, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def test_age_cli_decrypts_a_seats_files_with_its_ssh_key(tmp_path):
    table = sealed_started(tmp_path, 2)
    table.step()
    for seat in table.seats:
        out = _age("-d", "-i", table.keys[seat], table.gd.sealed_state(seat))
        # what age prints is the state file, padded with trailing newlines only
        assert json.loads(out) == table.state(seat)
        assert sealing.unpad(out) == pretty(table.state(seat))
        log = _age("-d", "-i", table.keys[seat], table.gd.sealed_log(seat)).decode()
        assert log.startswith("# Tally (test game) — game sealed-test") and f"(what {seat} saw)" in log
    done = subprocess.run(
        ["age", "-d", "-i", table.keys["bob"], table.gd.sealed_state("alice")],
        capture_output=True, check=False,
    )
    assert done.returncode != 0  # bob's key does not open alice's file


def test_a_move_sealed_by_the_age_cli_is_accepted(tmp_path):
    """A player may seal with age itself: ``age -R referee.pub``."""
    table = sealed_started(tmp_path, 2)
    seat = table.turn()
    move = table.move_file(seat, [table.state(seat)["legal"][0]])
    referee = tmp_path / "referee.pub"
    referee.write_text(table.manifest()["referee"] + "\n")
    sealed = _age("-R", referee, data=pretty(move))
    accepted = table.submit_bytes(sealed, "move.json.age")
    assert (accepted.kind, accepted.seat) == ("move", seat)


def test_rsa_seats_are_sealed_and_opened_too(tmp_path):
    keys = make_keys(tmp_path / "keys", ["alice"])
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", tmp_path / "keys" / "bob"],
        check=True,
    )
    keys["bob"] = tmp_path / "keys" / "bob"
    table = sealed_started(tmp_path, 2, keys=keys)
    data = table.gd.sealed_state("bob").read_bytes()
    assert sealing.recipients(data, "bob")[0][0] == "ssh-rsa"
    assert json.loads(_age("-d", "-i", keys["bob"], table.gd.sealed_state("bob")))["seat"] == "bob"
    assert load_state(table.gd.sealed_state("bob"), keys["bob"])["seat"] == "bob"
    verify(table.root, seat_key=SeatKey("bob", keys["bob"]))


@pytest.mark.parametrize("seat", ["alice"])
def test_a_passphrase_key_gets_a_clear_message(tmp_path, seat):
    table = sealed_started(tmp_path, 2)
    protected = tmp_path / "protected"
    protected.write_bytes(table.keys[seat].read_bytes())
    protected.chmod(0o600)
    subprocess.run(["ssh-keygen", "-q", "-p", "-N", "pw", "-P", "", "-f", protected], check=True)
    from arbiter.core.errors import UsageError

    with pytest.raises(UsageError, match="passphrase"):
        load_state(table.gd.sealed_state(seat), protected)
