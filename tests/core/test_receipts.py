"""Referee receipts (docs/receipts.md): proof that the referee accepted a file as entry N."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.tables import Table, started

from arbiter.core import chain as chainlib
from arbiter.core.errors import VerificationFailed
from arbiter.core.replay import verify
from arbiter.core.signing import NAMESPACE_RECEIPT
from arbiter.core.signing import verify as verify_signature

SMALL = {"cards": "4", "hand": "1"}


@pytest.fixture
def table(tmp_path: Path) -> Table:
    table = started(tmp_path, options=SMALL)
    table.step()
    table.step()
    return table


def test_every_accepted_file_gets_a_signed_receipt(table: Table) -> None:
    manifest = table.manifest()
    entries = [json.loads(line) for line in table.gd.chain.read_bytes().splitlines()]
    for entry in entries[1:]:
        receipt = json.loads(table.gd.receipt(entry["seq"]).read_bytes())
        assert receipt["hash"] == entry["hash"] and receipt["digest"] == entry["digest"]
        assert (receipt["seat"], receipt["kind"]) == (entry["seat"], entry["kind"])
        verify_signature(receipt, manifest["referee"], NAMESPACE_RECEIPT)
    assert not table.gd.receipt(0).exists()


def test_submit_returns_the_receipt_path(table: Table) -> None:
    accepted = table.step()
    assert accepted.receipt == table.gd.receipt(accepted.seq) and accepted.receipt.is_file()


def test_receipts_are_deterministic(table: Table) -> None:
    """A receipt rewritten after a crash is the same file (Ed25519 signs deterministically)."""
    path = table.gd.receipt(3)
    before = path.read_bytes()
    path.unlink()
    from arbiter.core.referee import repair

    assert path in repair(table.root)
    assert path.read_bytes() == before


def test_verify_accepts_receipts_of_the_published_chain(table: Table) -> None:
    report = verify(table.root, receipts=[table.gd.receipt(1), table.gd.receipt(4)])
    assert any("entry #4" in line for line in report.checks)


def keep(table: Table, seq: int, dest: Path) -> Path:
    """Return a copy of entry ``seq``'s receipt, as the player keeps it."""
    dest.mkdir(exist_ok=True)
    return Path(shutil.copy(table.gd.receipt(seq), dest / f"{seq}.json"))


def test_a_dropped_last_move_is_caught_by_its_receipt(table: Table, tmp_path: Path) -> None:
    """Without receipts a referee could drop the last move and nobody could tell."""
    from arbiter.core.referee import repair

    held = keep(table, 4, tmp_path / "mine")
    lines = table.gd.chain.read_bytes().splitlines(keepends=True)
    table.gd.chain.write_bytes(b"".join(lines[:-1]))
    repair(table.root)  # every published file now consistently ends at entry #3
    verify(table.root)  # the public files alone cannot tell
    with pytest.raises(VerificationFailed, match=r"no entry #4: it was dropped"):
        verify(table.root, receipts=[held])


def test_a_replaced_move_is_caught_by_its_receipt(table: Table, tmp_path: Path) -> None:
    held = keep(table, 4, tmp_path / "mine")
    entries = [json.loads(line) for line in table.gd.chain.read_bytes().splitlines()]
    last = entries[-1]
    other = chainlib.make_entry(4, last["kind"], last["seat"], last["prev"], "sha256:" + "e" * 64, last["summary"])
    lines = table.gd.chain.read_bytes().splitlines(keepends=True)
    table.gd.chain.write_bytes(b"".join(lines[:-1]) + chainlib.line(other))
    with pytest.raises(VerificationFailed, match=r"another file as entry #4"):
        verify(table.root, receipts=[held])


def test_a_receipt_not_signed_by_the_referee_proves_nothing(table: Table, tmp_path: Path) -> None:
    held = keep(table, 4, tmp_path / "mine")
    receipt = json.loads(held.read_bytes())
    from arbiter.core.canonical import pretty
    from arbiter.core.signing import sign

    receipt.pop("signature")
    receipt["signature"] = sign(receipt, table.keys["alice"], NAMESPACE_RECEIPT)
    held.write_bytes(pretty(receipt))
    with pytest.raises(VerificationFailed, match=r"receipt 4\.json: signed by another key"):
        verify(table.root, receipts=[held])


def test_a_receipt_for_another_game(table: Table, tmp_path: Path) -> None:
    held = keep(table, 4, tmp_path / "mine")
    receipt = json.loads(held.read_bytes())
    receipt["game"] = "another-game"
    held.write_bytes(json.dumps(receipt).encode())
    with pytest.raises(VerificationFailed, match="another-game"):
        verify(table.root, receipts=[held])


def test_cli_prints_the_receipt_and_verify_takes_it(table: Table, tmp_path: Path) -> None:
    seat = table.turn()
    legal = table.state(seat)["legal"]
    move = tmp_path / "move.json"
    from arbiter.core.canonical import pretty

    move.write_bytes(pretty(table.move_file(seat, [legal[0]])))
    env_cmd = [sys.executable, "-m", "arbiter"]
    import os

    env = dict(os.environ, ARBITER_ENGINES="tally=testgame:TallyEngine",
               PYTHONPATH=os.pathsep.join([str(Path(__file__).parents[1]), str(Path(__file__).parents[2])]))
    done = subprocess.run([*env_cmd, "submit", str(table.root), str(move)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert f"receipt for {seat}: {table.gd.receipt(5)}" in done.stdout
    done = subprocess.run([*env_cmd, "verify", str(table.root), "--receipt", str(table.gd.receipt(5))],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "receipt 5.json: entry #5" in done.stdout


def test_referee_key_given_by_path(tmp_path: Path) -> None:
    """`arbiter new --referee-key KEY`: one key for all of a referee's games, not copied."""
    from helpers.tables import make_keys

    from arbiter.core.referee import new_game
    from arbiter.core.signing import keygen, public_key_of

    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    mine = keygen("referee", tmp_path / "mine")[0]
    root = tmp_path / "game"
    manifest = new_game(root, "tally", [(s, f"{k}.pub") for s, k in keys.items()], SMALL,
                        created="x", referee_key=mine)
    assert manifest["referee"] == public_key_of(mine)
    assert not (root / "referee" / "key").exists()
    table = Table(root, keys, ["alice", "bob"], tmp_path / "out")
    accepted = table.submit_obj(table.join_file("alice"))
    receipt = json.loads(accepted.receipt.read_bytes())
    verify_signature(receipt, manifest["referee"], NAMESPACE_RECEIPT)


def test_the_referee_key_must_not_be_a_players(tmp_path: Path) -> None:
    from helpers.tables import make_keys

    from arbiter.core.errors import UsageError
    from arbiter.core.referee import new_game

    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    with pytest.raises(UsageError, match="a player's key"):
        new_game(tmp_path / "game", "tally", [(s, f"{k}.pub") for s, k in keys.items()], {},
                 created="x", referee_key=keys["alice"])
    assert not (tmp_path / "game").exists()


def test_a_missing_referee_key_refuses_the_file_before_it_is_accepted(tmp_path: Path) -> None:
    """The receipt is signed before the commit: no file is accepted without one."""
    from helpers.tables import expect_rejection, make_keys

    from arbiter.core.errors import NotReady
    from arbiter.core.referee import new_game
    from arbiter.core.signing import keygen

    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    mine = keygen("referee", tmp_path / "mine")[0]
    root = tmp_path / "game"
    new_game(root, "tally", [(s, f"{k}.pub") for s, k in keys.items()], SMALL, created="x",
             referee_key=mine)
    table = Table(root, keys, ["alice", "bob"], tmp_path / "out")
    join = table.join_file("alice")
    mine.rename(mine.with_name("moved"))
    exc = expect_rejection(table, NotReady, 17, table.submit_obj, join)
    assert "referee key" in exc.message and "restore it" in exc.message
    mine.with_name("moved").rename(mine)
    table.submit_obj(join)
