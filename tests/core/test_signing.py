"""SSHSIG signing and verification, including interop with OpenSSH's ssh-keygen."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers.tools import needs

from arbiter.core import signing
from arbiter.core.errors import BadSignature, UsageError
from arbiter.core.signing import (
    NAMESPACE_JOIN,
    NAMESPACE_MOVE,
    allowed_signers,
    keygen,
    read_public_key,
    sign,
    signed_bytes,
    verify,
)

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = needs("ssh-keygen", "interop tests need it")

MOVE = {
    "format": "arbiter.move/1",
    "game": "g-0001",
    "seat": "alice",
    "after": "sha256:" + "0" * 64,
    "actions": [{"kind": "draw"}, {"kind": "play", "card": "kite"}],
}


def ssh_keygen(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    assert SSH_KEYGEN is not None
    return subprocess.run(
        [SSH_KEYGEN, *args], input=stdin, capture_output=True, check=False, timeout=60
    )


def ssh_keygen_sign(key: Path, data: bytes, workdir: Path, namespace: str = NAMESPACE_MOVE) -> str:
    message = workdir / "message.bytes"
    message.write_bytes(data)
    done = ssh_keygen("-Y", "sign", "-f", str(key), "-n", namespace, str(message))
    assert done.returncode == 0, done.stderr
    signature = workdir / "message.bytes.sig"
    text = signature.read_text()
    message.unlink()
    signature.unlink()
    return text


def signed(obj: dict, key: Path, namespace: str = NAMESPACE_MOVE) -> dict:
    return {**obj, "signature": sign(obj, key, namespace)}


def pub_line(pub: Path) -> str:
    return pub.read_text().strip()


@pytest.fixture
def alice(tmp_path: Path) -> tuple[Path, Path]:
    return keygen("alice", tmp_path / "keys")


@pytest.fixture
def bob(tmp_path: Path) -> tuple[Path, Path]:
    return keygen("bob", tmp_path / "keys")


def assert_one_line(error: Exception) -> str:
    message = str(error)
    assert message and "\n" not in message
    return message


# --- signed bytes ------------------------------------------------------------------


def test_signed_bytes_drops_the_signature_and_is_canonical() -> None:
    obj = {"b": [1, 2], "a": {"y": 1, "x": "é"}, "signature": "anything"}
    assert signed_bytes(obj) == '{"a":{"x":"é","y":1},"b":[1,2]}'.encode()
    assert signed_bytes(obj) == signed_bytes({"a": {"x": "é", "y": 1}, "b": [1, 2]})
    assert "signature" in obj  # the caller's object is left alone


# --- keygen ------------------------------------------------------------------------


def test_keygen_writes_openssh_files(tmp_path: Path) -> None:
    private, public = keygen("alice", tmp_path / "new" / "dir")
    assert private == tmp_path / "new" / "dir" / "alice"
    assert public == tmp_path / "new" / "dir" / "alice.pub"
    assert private.read_text().startswith("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    assert private.stat().st_mode & 0o777 == 0o600
    algo, blob, comment = public.read_text().split(" ")
    assert (algo, comment) == ("ssh-ed25519", "alice\n")
    assert blob.startswith("AAAAC3NzaC1lZDI1NTE5")


def test_keygen_uses_the_given_comment(tmp_path: Path) -> None:
    _, public = keygen("k", tmp_path, comment="alice at\nthe desk")
    assert public.read_text().endswith(" alice at the desk\n")


@needs_ssh_keygen
def test_keygen_private_key_is_accepted_by_ssh_keygen(alice: tuple[Path, Path]) -> None:
    private, public = alice
    done = ssh_keygen("-y", "-f", str(private))
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().split()[:2] == public.read_text().split()[:2]


def test_keygen_refuses_to_overwrite(alice: tuple[Path, Path]) -> None:
    private, public = alice
    before = private.read_bytes(), public.read_bytes()
    with pytest.raises(UsageError, match="already exists") as caught:
        keygen("alice", private.parent)
    assert_one_line(caught.value)
    assert (private.read_bytes(), public.read_bytes()) == before


def test_keygen_refuses_when_only_the_pub_exists(tmp_path: Path) -> None:
    (tmp_path / "carol.pub").write_text("old\n")
    with pytest.raises(UsageError, match="carol.pub already exists"):
        keygen("carol", tmp_path)
    assert not (tmp_path / "carol").exists()


@pytest.mark.parametrize("name", ["", "..", "a/b", "-f"])
def test_keygen_refuses_names_that_are_not_plain_file_names(tmp_path: Path, name: str) -> None:
    with pytest.raises(UsageError, match="not a plain file name"):
        keygen(name, tmp_path)


# --- public keys ---------------------------------------------------------------------


def test_read_public_key_drops_the_comment(alice: tuple[Path, Path]) -> None:
    _, public = alice
    algo, blob, _ = public.read_text().split()
    assert read_public_key(public.read_text()) == f"{algo} {blob}"
    assert read_public_key(f"  {algo} {blob}  ") == f"{algo} {blob}"


def test_read_public_key_reads_a_pub_file(alice: tuple[Path, Path]) -> None:
    _, public = alice
    assert read_public_key(str(public)) == " ".join(public.read_text().split()[:2])


def test_read_public_key_accepts_rsa() -> None:
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key()
    line = key.public_bytes(ser.Encoding.OpenSSH, ser.PublicFormat.OpenSSH).decode()
    assert read_public_key(line + " bob@host") == line


def test_read_public_key_refuses_a_private_key(alice: tuple[Path, Path]) -> None:
    private, _ = alice
    with pytest.raises(UsageError, match="is a private key: give its public half") as caught:
        read_public_key(str(private))
    assert "PRIVATE" not in assert_one_line(caught.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "neither a public key line nor a readable .pub file"),
        ("/no/such/key.pub", "neither a public key line nor a readable .pub file"),
        ("ssh-ed25519 not!base64", "key is damaged"),
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA==", "key is damaged"),
        ("ecdsa-sha2-nistp256 AAAAE2VjZHNh", "ecdsa-sha2-nistp256 keys are not supported"),
        ("ssh-dss AAAAB3NzaC1kc3M=", "ssh-dss keys are not supported"),
    ],
)
def test_read_public_key_refuses_bad_input(text: str, reason: str) -> None:
    with pytest.raises(UsageError, match=reason) as caught:
        read_public_key(text)
    assert_one_line(caught.value)


def test_read_public_key_refuses_a_key_whose_name_lies(alice: tuple[Path, Path]) -> None:
    _, public = alice
    blob = public.read_text().split()[1]
    with pytest.raises(UsageError, match="key is damaged"):
        read_public_key(f"ssh-rsa {blob}")


# --- sign and verify -----------------------------------------------------------------


def test_sign_then_verify(alice: tuple[Path, Path]) -> None:
    private, public = alice
    move = signed(MOVE, private)
    assert move["signature"].startswith("-----BEGIN SSH SIGNATURE-----\n")
    assert move["signature"].endswith("-----END SSH SIGNATURE-----\n")
    verify(move, pub_line(public), NAMESPACE_MOVE)
    # Re-signing an already signed object covers the same bytes: the old field is ignored.
    assert sign(move, private, NAMESPACE_MOVE) == move["signature"]


def test_sign_in_process_never_runs_ssh_keygen(
    alice: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unencrypted Ed25519 key must sign in process")

    monkeypatch.setattr(signing.subprocess, "run", refuse)
    verify(signed(MOVE, alice[0]), pub_line(alice[1]), NAMESPACE_MOVE)


def test_sign_with_a_missing_key_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not found: create one with 'arbiter keygen'"):
        sign(MOVE, tmp_path / "nope", NAMESPACE_MOVE)


def test_verify_rejects_another_key(alice: tuple[Path, Path], bob: tuple[Path, Path]) -> None:
    move = signed(MOVE, bob[0])
    with pytest.raises(BadSignature, match="signed by another key") as caught:
        verify(move, pub_line(alice[1]), NAMESPACE_MOVE)
    message = assert_one_line(caught.value)
    assert "sign with your own key" in message
    assert caught.value.exit_code == 7


def test_verify_rejects_another_namespace(alice: tuple[Path, Path]) -> None:
    join = signed(MOVE, alice[0], NAMESPACE_JOIN)
    with pytest.raises(BadSignature) as caught:
        verify(join, pub_line(alice[1]), NAMESPACE_MOVE)
    assert assert_one_line(caught.value).startswith(
        "signed for namespace 'arbiter-join', expected 'arbiter-move'"
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m.update(seat="bob"),
        lambda m: m["actions"].append({"kind": "pass"}),
        lambda m: m.update(extra=1),
        lambda m: m.pop("after"),
    ],
)
def test_verify_rejects_content_changed_after_signing(alice: tuple[Path, Path], change) -> None:
    move = signed({**MOVE, "actions": list(MOVE["actions"])}, alice[0])
    change(move)
    with pytest.raises(BadSignature) as caught:
        verify(move, pub_line(alice[1]), NAMESPACE_MOVE)
    assert assert_one_line(caught.value) == (
        "signature does not match the content: the file was changed after signing; sign it again"
    )


@pytest.mark.parametrize("value", [None, 42, "", "   ", ["sig"]])
def test_verify_rejects_a_missing_signature(alice: tuple[Path, Path], value: object) -> None:
    move = dict(MOVE) if value is None else {**MOVE, "signature": value}
    with pytest.raises(BadSignature, match="signature is missing"):
        verify(move, pub_line(alice[1]), NAMESPACE_MOVE)


def test_verify_rejects_garbage(alice: tuple[Path, Path]) -> None:
    good = signed(MOVE, alice[0])["signature"]
    lines = good.splitlines()
    garbage = [
        "hello",
        "-----BEGIN SSH SIGNATURE-----\n!!!!\n-----END SSH SIGNATURE-----\n",
        "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n",
        "\n".join(lines[:2] + lines[-1:]),  # truncated body
        good.replace("U1NIU0lH", "U1NIU0lI", 1),  # wrong magic
        "-----BEGIN SSH SIGNATURE-----\nü\n-----END SSH SIGNATURE-----\n",
    ]
    for text in garbage:
        with pytest.raises(BadSignature, match="not a valid SSH signature") as caught:
            verify({**MOVE, "signature": text}, pub_line(alice[1]), NAMESPACE_MOVE)
        assert_one_line(caught.value)


def test_verify_rejects_an_unusable_seat_key(alice: tuple[Path, Path]) -> None:
    move = signed(MOVE, alice[0])
    with pytest.raises(BadSignature, match="seat's public key is unusable"):
        verify(move, "ssh-ed25519 AAAA", NAMESPACE_MOVE)
    with pytest.raises(BadSignature, match="seat's public key is unusable"):
        verify(move, str(alice[1]), NAMESPACE_MOVE)  # a path is not a manifest key


def test_messages_never_carry_the_private_key(alice: tuple[Path, Path], bob) -> None:
    secret = "".join(alice[0].read_text().splitlines()[1:-1])
    move = signed(MOVE, alice[0])
    for public, namespace in ((bob[1], NAMESPACE_MOVE), (alice[1], NAMESPACE_JOIN)):
        with pytest.raises(BadSignature) as caught:
            verify(move, pub_line(public), namespace)
        assert secret[:20] not in str(caught.value)


# --- allowed_signers -----------------------------------------------------------------


def test_allowed_signers_lists_each_seat(alice: tuple[Path, Path], bob) -> None:
    text = allowed_signers([("alice", pub_line(alice[1])), ("bob", pub_line(bob[1]))])
    a, b = (" ".join(p.read_text().split()[:2]) for p in (alice[1], bob[1]))
    assert text == (
        f'alice namespaces="arbiter-move,arbiter-join" {a}\n'
        f'bob namespaces="arbiter-move,arbiter-join" {b}\n'
    )
    only_moves = allowed_signers([("alice", a)], namespaces=(NAMESPACE_MOVE,))
    assert only_moves == f'alice namespaces="arbiter-move" {a}\n'


@pytest.mark.parametrize("seat", ["", "a b", "*", "a,b", '"x"', "!bob"])
def test_allowed_signers_refuses_seats_that_are_patterns(alice, seat: str) -> None:
    with pytest.raises(UsageError, match="cannot be a principal"):
        allowed_signers([(seat, pub_line(alice[1]))])


# --- interop with ssh-keygen ---------------------------------------------------------


@needs_ssh_keygen
def test_ssh_keygen_signature_is_accepted(alice: tuple[Path, Path], tmp_path: Path) -> None:
    text = ssh_keygen_sign(alice[0], signed_bytes(MOVE), tmp_path)
    verify({**MOVE, "signature": text}, pub_line(alice[1]), NAMESPACE_MOVE)


@needs_ssh_keygen
def test_in_process_and_ssh_keygen_signatures_are_identical(
    alice: tuple[Path, Path], tmp_path: Path
) -> None:
    for namespace in (NAMESPACE_MOVE, NAMESPACE_JOIN):
        theirs = ssh_keygen_sign(alice[0], signed_bytes(MOVE), tmp_path, namespace)
        assert sign(MOVE, alice[0], namespace) == theirs


@needs_ssh_keygen
def test_ssh_keygen_accepts_our_signature(
    alice: tuple[Path, Path], bob: tuple[Path, Path], tmp_path: Path
) -> None:
    signers = tmp_path / "allowed_signers"
    signers.write_text(allowed_signers([("alice", pub_line(alice[1])), ("bob", pub_line(bob[1]))]))
    move = signed(MOVE, alice[0])
    (tmp_path / "move.sig").write_text(move["signature"])
    data = signed_bytes(move)

    def check(seat: str, namespace: str) -> subprocess.CompletedProcess[bytes]:
        args = ["-f", str(signers), "-I", seat, "-n", namespace, "-s", str(tmp_path / "move.sig")]
        return ssh_keygen("-Y", "verify", *args, stdin=data)

    good = check("alice", NAMESPACE_MOVE)
    assert good.returncode == 0, good.stderr
    assert b'Good "arbiter-move" signature for alice' in good.stdout
    assert check("bob", NAMESPACE_MOVE).returncode != 0
    assert check("alice", NAMESPACE_JOIN).returncode != 0
    novalidate = ssh_keygen(
        "-Y", "check-novalidate", "-n", NAMESPACE_MOVE, "-s", str(tmp_path / "move.sig"),
        stdin=data,
    )  # fmt: skip
    assert novalidate.returncode == 0, novalidate.stderr
    changed = ssh_keygen(
        "-Y", "check-novalidate", "-n", NAMESPACE_MOVE, "-s", str(tmp_path / "move.sig"),
        stdin=data + b" ",
    )  # fmt: skip
    assert changed.returncode != 0


@pytest.fixture
def askpass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Make ssh-keygen read its passphrase from a script instead of a terminal."""

    def use(passphrase: str) -> None:
        script = tmp_path / "askpass.sh"
        script.write_text(f"#!/bin/sh\necho '{passphrase}'\n")
        script.chmod(0o700)
        monkeypatch.setenv("SSH_ASKPASS", str(script))
        monkeypatch.setenv("SSH_ASKPASS_REQUIRE", "force")
        monkeypatch.setenv("DISPLAY", os.environ.get("DISPLAY", ":0"))

    return use


@pytest.fixture
def locked_key(tmp_path: Path) -> tuple[Path, Path]:
    key = tmp_path / "locked"
    done = ssh_keygen("-q", "-t", "ed25519", "-N", "secretpw", "-C", "locked", "-f", str(key))
    assert done.returncode == 0, done.stderr
    return key, tmp_path / "locked.pub"


@needs_ssh_keygen
def test_passphrase_key_signs_through_ssh_keygen(
    locked_key: tuple[Path, Path], askpass, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    askpass("secretpw")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    calls: list[list[str]] = []
    real_run = subprocess.run

    def spy(command: list[str], **kwargs):
        calls.append(command)
        return real_run(command, **kwargs)

    monkeypatch.setattr(signing.subprocess, "run", spy)
    move = signed(MOVE, locked_key[0])
    assert [c[1:3] for c in calls] == [["-Y", "sign"]]
    verify(move, read_public_key(str(locked_key[1])), NAMESPACE_MOVE)
    # Same key material, deterministic Ed25519: ssh-keygen signs the same bytes identically.
    assert move["signature"] == ssh_keygen_sign(locked_key[0], signed_bytes(MOVE), tmp_path)
    assert list(scratch.iterdir()) == []  # the temporary message and .sig are gone


@needs_ssh_keygen
def test_wrong_passphrase_fails_without_echoing_it(locked_key: tuple[Path, Path], askpass) -> None:
    askpass("wrong-guess")
    with pytest.raises(UsageError, match="ssh-keygen could not sign with") as caught:
        sign(MOVE, locked_key[0], NAMESPACE_MOVE)
    message = assert_one_line(caught.value)
    assert "wrong-guess" not in message and "secretpw" not in message


@needs_ssh_keygen
def test_rsa_key_signs_through_ssh_keygen(tmp_path: Path) -> None:
    key = tmp_path / "rsa"
    done = ssh_keygen("-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(key))
    assert done.returncode == 0, done.stderr
    move = signed(MOVE, key)
    public = read_public_key(str(tmp_path / "rsa.pub"))
    assert public.startswith("ssh-rsa ")
    verify(move, public, NAMESPACE_MOVE)
    with pytest.raises(BadSignature, match="does not match the content"):
        verify({**move, "seat": "bob"}, public, NAMESPACE_MOVE)


@needs_ssh_keygen
@needs("ssh-agent")
def test_pub_path_signs_with_the_agent(
    alice: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    socket = tmp_path / "agent.sock"
    agent = subprocess.Popen(
        ["ssh-agent", "-D", "-a", str(socket)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        for _ in range(100):
            if socket.exists():
                break
            try:
                agent.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                continue
            reason = agent.stderr.read().decode().strip() if agent.stderr else ""
            # CI installs and runs it: there, not starting is a failure, not a skip.
            stop = pytest.fail if os.environ.get("CI") else pytest.skip
            stop(f"ssh-agent could not start: {reason}")
        monkeypatch.setenv("SSH_AUTH_SOCK", str(socket))
        added = subprocess.run(["ssh-add", str(alice[0])], capture_output=True, check=False)
        assert added.returncode == 0, added.stderr
        # Move the private key away so only the agent can have made the signature.
        alice[0].rename(tmp_path / "elsewhere")
        move = signed(MOVE, alice[1])
        verify(move, pub_line(alice[1]), NAMESPACE_MOVE)
    finally:
        agent.send_signal(signal.SIGTERM)
        agent.wait(timeout=10)


@needs_ssh_keygen
def test_pub_path_without_an_agent_is_a_usage_error(
    alice: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    alice[0].unlink()
    with pytest.raises(UsageError, match="ssh-keygen could not sign with") as caught:
        sign(MOVE, alice[1], NAMESPACE_MOVE)
    assert_one_line(caught.value)


def test_importing_signing_loads_no_crypto_library() -> None:
    code = (
        "import sys, arbiter.core.signing\n"
        "print(sorted({'cryptography', 'sshsig'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert done.stdout.decode().strip() == "[]"
