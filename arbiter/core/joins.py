"""Unsteerable joins: a player's entropy is a function of their key and the exact game.json.

A version-2 join carries ``entropy_signature``, an SSHSIG (namespace ``arbiter-entropy``,
hash sha512) by the seat's key over the statement ``{"format": "arbiter.entropy/1",
"game", "manifest", "seat"}``, and ``entropy`` = SHA-256("arbiter-entropy/1" ‖ 0x00 ‖
the signature's binary SSHSIG). Ed25519 and RSA PKCS#1 v1.5 signatures are
deterministic, so an honest player's software makes one join per game: a referee who
asks again gets the same file and cannot shop among several (docs/rng.md §2).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from arbiter.core.errors import BadSignature
from arbiter.core.formats import ENTROPY_FORMAT

ENTROPY_LABEL = b"arbiter-entropy/1\x00"


def statement(game: str, seat: str, manifest_digest: str) -> dict[str, Any]:
    """Return the object whose signature yields ``seat``'s entropy for this game."""
    return {"format": ENTROPY_FORMAT, "game": game, "manifest": manifest_digest, "seat": seat}


def entropy_of(signature: str) -> bytes:
    """Return the 32 bytes of entropy an armored entropy signature yields."""
    from arbiter.core.signing import signature_blob

    return hashlib.sha256(ENTROPY_LABEL + signature_blob(signature)).digest()


def sign_entropy(game: str, seat: str, manifest_digest: str, key: Path) -> tuple[str, bytes]:
    """Sign the entropy statement with ``key``; return the signature and its entropy."""
    from arbiter.core.signing import NAMESPACE_ENTROPY, sign

    signature = sign(statement(game, seat, manifest_digest), key, NAMESPACE_ENTROPY)
    return signature, entropy_of(signature)


def check(join: dict[str, Any], public_key: str) -> None:
    """Raise ``BadSignature`` unless a version-2 join's entropy is the one its key gives."""
    from arbiter.core.signing import NAMESPACE_ENTROPY, verify

    signed = statement(join["game"], join["seat"], join["manifest"])
    signed["signature"] = join["entropy_signature"]
    try:
        # sha512 only: with sha256 allowed too, a player would have two possible joins.
        verify(signed, public_key, NAMESPACE_ENTROPY, hashes=(b"sha512",))
    except BadSignature as exc:
        raise BadSignature(f"entropy_signature: {exc.message}") from None
    if entropy_of(join["entropy_signature"]).hex() != join["entropy"]:
        raise BadSignature(
            "the join's entropy is not the one its entropy_signature gives: "
            "make the join again with `arbiter join`"
        )
