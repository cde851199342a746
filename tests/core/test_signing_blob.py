"""verify's own reading of an SSHSIG (issue 25): the armour, then the blob's fields by
offset, then the Ed25519 check. Each blob here is built by hand, so each field that
verify now parses itself has a test that changes just that field."""

from __future__ import annotations

import base64
import hashlib
import struct
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sshsig.sshsig import ssh_dearmor_sshsig

from arbiter.core import signing
from arbiter.core.errors import BadSignature
from arbiter.core.signing import (
    NAMESPACE_ENTROPY,
    NAMESPACE_MOVE,
    keygen,
    sign,
    signed_bytes,
    verify,
)

MOVE = {
    "format": "arbiter.move/1",
    "game": "g-0001",
    "seat": "alice",
    "after": "sha256:" + "0" * 64,
    "actions": [{"kind": "draw"}],
}
UNREADABLE = "signature is not a valid SSH signature: sign the file again"
MISMATCH = "signature does not match the content: the file was changed after signing; sign it again"


def string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def private(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest())


def key_blob(key: Ed25519PrivateKey) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return string(b"ssh-ed25519") + string(raw)


def key_line(key: Ed25519PrivateKey) -> str:
    return "ssh-ed25519 " + base64.b64encode(key_blob(key)).decode()


ALICE, BOB = private("alice"), private("bob")


def blob(
    obj: dict = MOVE,
    key: Ed25519PrivateKey = ALICE,
    namespace: bytes = NAMESPACE_MOVE.encode(),
    hash_algo: bytes = b"sha512",
    public: bytes | None = None,
    magic: bytes = b"SSHSIG\0\0\0\1",
    inner_algo: bytes = b"ssh-ed25519",
    cut: int = 0,
    extra: bytes = b"",
    inner_extra: bytes = b"",
) -> bytes:
    """An SSHSIG blob by ``key`` over ``obj``, each field of it changeable."""
    digest = hashlib.new(hash_algo.decode() if hash_algo != b"md5x" else "md5", signed_bytes(obj))
    message = b"SSHSIG" + b"".join(map(string, (namespace, b"", hash_algo, digest.digest())))
    raw = key.sign(message)
    inner = string(inner_algo) + string(raw[: len(raw) - cut]) + inner_extra
    pub = key_blob(key) if public is None else public
    return magic + b"".join(map(string, (pub, namespace, b"", hash_algo, inner))) + extra


def armor(data: bytes, width: int = 70, newline: str = "\n") -> str:
    text = base64.b64encode(data).decode()
    body = newline.join(text[i : i + width] for i in range(0, len(text), width))
    return f"-----BEGIN SSH SIGNATURE-----{newline}{body}{newline}-----END SSH SIGNATURE-----\n"


def check(signature: str, obj: dict = MOVE, key: str | None = None, **kwargs) -> None:
    verify({**obj, "signature": signature}, key or key_line(ALICE), NAMESPACE_MOVE, **kwargs)


def refused(signature: str, **kwargs) -> str:
    with pytest.raises(BadSignature) as caught:
        check(signature, **kwargs)
    return caught.value.message


def test_the_hand_built_blob_is_what_sign_makes(tmp_path: Path) -> None:
    priv, _pub = keygen("alice", tmp_path, seed=b"x")
    from cryptography.hazmat.primitives.serialization import load_ssh_private_key

    loaded = load_ssh_private_key(priv.read_bytes(), password=None)
    assert isinstance(loaded, Ed25519PrivateKey)
    assert sign(MOVE, priv, NAMESPACE_MOVE) == armor(blob(key=loaded))
    check(armor(blob(key=loaded)), key=key_line(loaded))


def test_a_signature_as_made_verifies() -> None:
    check(armor(blob()))


def test_a_sha256_signature_verifies_where_sha256_is_allowed() -> None:
    check(armor(blob(hash_algo=b"sha256")))
    assert refused(armor(blob(hash_algo=b"sha256")), hashes=(b"sha512",)) == (
        "signature uses another hash than sha512: sign it again with arbiter"
    )


def test_an_unknown_hash_algorithm_is_refused() -> None:
    assert refused(armor(blob(hash_algo=b"md5x"))) == (
        "signature uses another hash than sha512 or sha256: sign it again with arbiter"
    )


def test_changed_content_does_not_match() -> None:
    assert refused(armor(blob()), obj={**MOVE, "game": "g-0002"}) == MISMATCH


@pytest.mark.parametrize("cut", [1, 10, 40, 100, 150])
def test_a_truncated_blob_is_unreadable(cut: int) -> None:
    assert refused(armor(blob()[:-cut])) == UNREADABLE


def test_a_blob_with_bytes_after_its_fields_is_unreadable() -> None:
    assert refused(armor(blob(extra=b"\0"))) == UNREADABLE
    assert refused(armor(blob(extra=b"junk" * 10))) == UNREADABLE


@pytest.mark.parametrize(
    "magic", [b"SSHSIH\0\0\0\1", b"SSHSIG\0\0\0\2", b"SSHSIG\0\0\0\0", b"SSHSIG", b""]
)
def test_a_wrong_preamble_or_version_is_unreadable(magic: bytes) -> None:
    assert refused(armor(blob(magic=magic))) == UNREADABLE


def test_another_key_in_the_blob_is_named_by_its_fingerprint() -> None:
    message = refused(armor(blob(key=BOB)))
    assert message.startswith("signed by another key (SHA256:")
    assert message.endswith("sign with your own key")
    # The seat's key in the blob, the signature by another: the content check says so.
    assert refused(armor(blob(key=BOB, public=key_blob(ALICE)))) == MISMATCH


def test_the_seats_key_with_bytes_after_it_is_unreadable() -> None:
    assert refused(armor(blob(public=key_blob(ALICE) + b"\0"))) == UNREADABLE


def test_a_key_blob_that_is_no_key_is_unreadable() -> None:
    assert refused(armor(blob(public=string(b"ssh-ed25519") + string(b"short")))) == UNREADABLE
    assert refused(armor(blob(public=b"\0\0"))) == UNREADABLE


def test_an_unsupported_key_type_in_the_blob_is_named() -> None:
    ecdsa = string(b"ecdsa-sha2-nistp256") + string(b"nistp256") + string(b"\4" + b"\1" * 64)
    assert refused(armor(blob(public=ecdsa))) == (
        "signature uses an unsupported key type: sign with ssh-ed25519"
    )


def test_another_namespace_is_named() -> None:
    assert refused(armor(blob(namespace=b"arbiter-join"))) == (
        "signed for namespace 'arbiter-join', expected 'arbiter-move': "
        "sign it again with namespace arbiter-move"
    )


@pytest.mark.parametrize(
    "change",
    [
        {"inner_algo": b"ssh-rsa"},
        {"cut": 1},
        {"cut": 64},
        {"inner_extra": b"\0"},
    ],
)
def test_a_malformed_signature_field_is_unreadable(change: dict) -> None:
    assert refused(armor(blob(**change))) == UNREADABLE


# --- the armour ---------------------------------------------------------------------


def variants(data: bytes) -> list[str]:
    """Armours of one blob that ssh-keygen (or the sshsig package) also reads."""
    good = armor(data)
    return [
        good,
        good.rstrip("\n"),  # no newline after the end line
        armor(data, width=76),  # sshsig's own wrapping
        armor(data, width=10_000),  # one line
        armor(data, newline="\r\n"),
        good.replace("\n", "\n\n"),  # blank lines
        "\n" + good,  # a line before the begin line
        good + "trailing words\n",  # text after the end line
        good.replace("-----END SSH SIGNATURE-----\n", ""),  # no end line
    ]


@pytest.mark.parametrize("index", range(9))
def test_armour_variants_read_as_the_sshsig_package_reads_them(index: int) -> None:
    text = variants(blob())[index]
    assert signing._dearmor(text) == ssh_dearmor_sshsig(text)
    check(text)


@pytest.mark.parametrize(
    "text",
    [
        "-----BEGIN SSH SIGNATURE-----\n!!!!\n-----END SSH SIGNATURE-----\n",
        "-----BEGIN SSH SIGNATURE-----\nAAA\n-----END SSH SIGNATURE-----\n",
        "-----BEGIN SSH SIGNATURE-----\n-----END SSH SIGNATURE-----\n",
        "-----END SSH SIGNATURE-----\n" + armor(b"x" * 100),  # the end line comes first
        "-----BEGIN SSH SIGNATURE----- \nAAAA\n-----END SSH SIGNATURE-----\n",
        "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----x\n",
    ],
)
def test_bad_armour_is_unreadable(text: str) -> None:
    assert refused(text) == UNREADABLE


def test_base64_with_stray_characters_reads_leniently_as_before() -> None:
    good = armor(blob())
    lines = good.splitlines()
    text = "\n".join([lines[0], lines[1][:5] + "*" + lines[1][5:], *lines[2:]]) + "\n"
    assert signing._dearmor(text) == ssh_dearmor_sshsig(text) == blob()
    check(text)


# --- the seat's key, parsed once ------------------------------------------------------


def test_each_key_is_parsed_once_per_process() -> None:
    line = key_line(ALICE)
    assert signing._key(line) is signing._key(line)
    before = signing._key.cache_info().hits
    check(armor(blob()), key=line)
    assert signing._key.cache_info().hits == before + 1


def test_an_unusable_key_says_so_every_time() -> None:
    for _ in range(2):
        assert refused(armor(blob()), key="ssh-ed25519 AAAA").startswith(
            "the seat's public key is unusable (the ssh-ed25519 key is damaged"
        )


def test_expected_blobs_are_per_namespace() -> None:
    """A key verifies in one namespace, then a signature for another one is refused."""
    entropy = {"format": "arbiter.entropy/1", "game": "g", "manifest": "m", "seat": "alice"}
    signature = armor(blob(obj=entropy, namespace=NAMESPACE_ENTROPY.encode()))
    verify({**entropy, "signature": signature}, key_line(ALICE), NAMESPACE_ENTROPY)
    check(armor(blob()))
    assert refused(signature, obj=entropy).startswith("signed for namespace 'arbiter-entropy'")


@pytest.mark.parametrize(
    "line",
    [
        key_line(ALICE),
        key_line(BOB) + " bob@example",
        "  " + key_line(ALICE) + "\tcomment with words ",
    ],
)
def test_a_key_read_directly_is_the_key_normalise_gives(line: str) -> None:
    key = signing._key(line)
    assert not isinstance(key, str)
    assert key.line == signing._normalise(line)
    assert key.blob == key_blob(ALICE if "bob" not in line else BOB)
    assert key.parsed.openssh_str() == key.line


@pytest.mark.parametrize(
    "line",
    [
        key_line(ALICE)[:-4],  # base64 cut short
        key_line(ALICE).rstrip("="),  # padding missing
        "ssh-ed25519 " + base64.b64encode(key_blob(ALICE) + b"\0").decode(),  # a byte more
        "ssh-ed25519 " + base64.b64encode(string(b"ssh-rsa") + string(b"\1" * 32)).decode(),
    ],
)
def test_a_key_not_read_directly_is_judged_by_normalise(line: str) -> None:
    try:
        expected: str = signing._normalise(line)
    except signing.UsageError as exc:
        expected = exc.message
    key = signing._key(line)
    assert (key if isinstance(key, str) else key.line) == expected
