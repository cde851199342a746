"""Unsteerable joins (docs/rng.md §2): one key and one game.json give exactly one join."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers.tables import Table, create, expect_rejection, make_keys
from helpers.tools import needs

from arbiter.core.canonical import digest, pretty
from arbiter.core.errors import BadSignature, SchemaViolation
from arbiter.core.joins import entropy_of
from arbiter.core.player import make_join
from arbiter.core.referee import new_game
from arbiter.core.replay import verify
from arbiter.core.signing import NAMESPACE_JOIN, sign

SSH_KEYGEN = shutil.which("ssh-keygen")


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    import sys

    return subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)], capture_output=True, text=True
    )


def test_two_join_runs_write_byte_identical_files(tmp_path: Path) -> None:
    table = create(tmp_path)
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    for out in (first, second):
        done = cli("join", table.gd.manifest, "--seat", "alice", "--key", table.keys["alice"], "-o", out)
        assert done.returncode == 0, done.stderr
    assert first.read_bytes() == second.read_bytes()
    join = json.loads(first.read_bytes())
    assert join["format"] == "arbiter.join/2"
    assert join["entropy"] == entropy_of(join["entropy_signature"]).hex()


def test_another_key_or_another_manifest_changes_the_entropy(tmp_path: Path) -> None:
    table = create(tmp_path / "a")
    alice = table.join_file("alice")["entropy"]
    assert table.join_file("bob")["entropy"] != alice
    # The same keys, a game.json that differs only in its creation time.
    other = tmp_path / "b"
    new_game(
        other,
        "tally",
        [(s, str(table.keys[s]) + ".pub") for s in table.seats],
        {},
        game_id="tally-test",
        created="2026-01-02T00:00:00Z",
        referee_seed=b"tests: the referee",
    )
    assert make_join(other / "game.json", "alice", table.keys["alice"])["entropy"] != alice


@needs("ssh-keygen")
def test_rsa_keys_join_deterministically_through_ssh_keygen(tmp_path: Path) -> None:
    """RSA signatures (PKCS#1 v1.5, rsa-sha2-512) are deterministic too."""
    assert SSH_KEYGEN is not None
    key = tmp_path / "rsa"
    subprocess.run([SSH_KEYGEN, "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(key)], check=True)
    ed = make_keys(tmp_path / "keys", ["bob"])["bob"]
    root = tmp_path / "game"
    new_game(root, "tally", [("alice", f"{key}.pub"), ("bob", f"{ed}.pub")], {}, created="x")
    one = make_join(root / "game.json", "alice", key)
    two = make_join(root / "game.json", "alice", key)
    assert one == two
    table = Table(root, {"alice": key, "bob": ed}, ["alice", "bob"], tmp_path / "out")
    table.submit_obj(one)


def forged(table: Table, seat: str, entropy: str) -> dict:
    """A join whose entropy the player chose, correctly signed otherwise."""
    join = {k: v for k, v in table.join_file(seat).items() if k != "signature"}
    join["entropy"] = entropy
    join["signature"] = sign(join, table.keys[seat], NAMESPACE_JOIN)
    return join


def test_a_join_with_chosen_entropy_is_refused(tmp_path: Path) -> None:
    table = create(tmp_path)
    exc = expect_rejection(table, BadSignature, 7, table.submit_obj, forged(table, "alice", "ab" * 32))
    assert "entropy" in exc.message and "arbiter join" in exc.message


@needs("ssh-keygen")
def test_a_sha256_entropy_signature_is_refused(tmp_path: Path) -> None:
    """With sha256 allowed beside sha512 a player would have two possible joins."""
    from arbiter.core.joins import entropy_of, statement
    from arbiter.core.signing import NAMESPACE_ENTROPY, signed_bytes

    table = create(tmp_path)
    manifest_digest = digest(table.manifest())
    message = tmp_path / "statement"
    message.write_bytes(signed_bytes(statement("tally-test", "alice", manifest_digest)))
    subprocess.run(
        [SSH_KEYGEN, "-Y", "sign", "-O", "hashalg=sha256", "-f", str(table.keys["alice"]),
         "-n", NAMESPACE_ENTROPY, str(message)],
        check=True, capture_output=True,
    )
    proof = (tmp_path / "statement.sig").read_text()
    join = {
        "format": "arbiter.join/2", "game": "tally-test", "seat": "alice",
        "manifest": manifest_digest, "entropy": entropy_of(proof).hex(), "entropy_signature": proof,
    }
    join["signature"] = sign(join, table.keys["alice"], NAMESPACE_JOIN)
    exc = expect_rejection(table, BadSignature, 7, table.submit_obj, join)
    assert "sha512" in exc.message


def test_verify_refuses_a_revealed_game_whose_join_entropy_was_chosen(tmp_path: Path) -> None:
    """A referee who accepted a steered join is caught by anyone after the reveal."""
    from arbiter.core.referee import reveal

    table = create(tmp_path, options={"cards": "4", "hand": "1"})
    table.submit_obj(table.join_file("alice"))
    table.submit_obj(table.join_file("bob"))
    reveal(table.root, force=True)
    signed = table.gd.reveal_signed
    lines = signed.read_bytes().splitlines(keepends=True)
    bad = forged(table, "alice", "cd" * 32)
    # Rewrite the record, the chain digest and hashes as a dishonest referee would.
    from arbiter.core import chain as chainlib
    from arbiter.core.canonical import canonical

    lines[0] = canonical(bad) + b"\n"
    entries = [json.loads(line) for line in table.gd.chain.read_bytes().splitlines()]
    entries[1]["digest"] = digest(bad)
    prev = None
    out = b""
    for entry in entries:
        rebuilt = chainlib.make_entry(
            entry["seq"], entry["kind"], entry["seat"], prev, entry["digest"], entry["summary"]
        )
        out += chainlib.line(rebuilt)
        prev = rebuilt["hash"]
    signed.write_bytes(b"".join(lines))
    table.gd.chain.write_bytes(out)
    with pytest.raises(Exception, match="entropy"):
        verify(table.root)


def test_join_refuses_a_manifest_naming_a_randomized_key_type(tmp_path: Path) -> None:
    table = create(tmp_path)
    manifest = table.manifest()
    manifest["seats"][0]["key"] = "ecdsa-sha2-nistp256 AAAAE2VjZHNh"
    path = tmp_path / "edited.json"
    path.write_bytes(pretty(manifest))
    with pytest.raises(SchemaViolation) as info:
        make_join(path, "alice", table.keys["alice"])
    assert "seats/0/key" in info.value.message and "ssh-ed25519|ssh-rsa" in info.value.message
