"""The ristretto255 group (RFC 9496) and its scalars, through libsodium (``rbcl``).

Points and scalars are immutable byte strings of 32 bytes: a point in its canonical
encoding, a scalar little-endian and reduced modulo the group order
ℓ = 2^252 + 27742317777372353535851937790883648493. Every point read from a message goes
through ``point``, which refuses a non-canonical or invalid encoding.

The arithmetic fails closed as well (docs/peer-review.md, finding 1): libsodium refuses to
decode an invalid encoding and rbcl then returns 32 zero bytes, the identity's encoding, as
if the sum or product were the identity. ``add``, ``sub`` and ``mul`` check their inputs
whenever the result is the identity (the only result such an input yields), so a point that
skipped ``point`` raises ``Tampered`` instead of silently counting as zero. The check costs
nothing on the common path, where the result is never the identity.
"""

from __future__ import annotations

import hashlib

import rbcl

from arbiter.core.errors import Tampered

ORDER = 2**252 + 27742317777372353535851937790883648493
IDENTITY = bytes(32)
BASE = bytes.fromhex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76")
"""The generator G (RFC 9496 §4.4, ristretto255's canonical base point)."""


def point(data: bytes, what: str = "a point") -> bytes:
    """Return ``data`` if it is a canonical ristretto255 encoding, else raise ``Tampered``."""
    if len(data) != 32 or not rbcl.crypto_core_ristretto255_is_valid_point(data):
        raise Tampered(f"{what} is not a valid ristretto255 element")
    return bytes(data)


def scalar(data: bytes, what: str = "a scalar") -> bytes:
    """Return ``data`` if it is a canonical scalar (32 bytes, little-endian, < ℓ)."""
    if len(data) != 32 or int.from_bytes(data, "little") >= ORDER:
        raise Tampered(f"{what} is not a canonical scalar")
    return bytes(data)


def from_int(n: int) -> bytes:
    return (n % ORDER).to_bytes(32, "little")


def to_int(s: bytes) -> int:
    return int.from_bytes(s, "little")


def _operands(*points: bytes) -> None:
    """Raise ``Tampered`` unless every operand is a valid encoding (an invalid one makes
    libsodium fail, and rbcl then hands back the identity's encoding)."""
    for p in points:
        point(p, "an operand of the group arithmetic")


def add(p: bytes, q: bytes) -> bytes:
    out = rbcl.crypto_core_ristretto255_add(p, q)
    if out == IDENTITY:
        _operands(p, q)
    return out


def sub(p: bytes, q: bytes) -> bytes:
    out = rbcl.crypto_core_ristretto255_sub(p, q)
    if out == IDENTITY:
        _operands(p, q)
    return out


def mul(s: bytes, p: bytes) -> bytes:
    """s·P (the identity for s = 0 or P the identity)."""
    if p == IDENTITY:
        return IDENTITY
    out = rbcl.crypto_scalarmult_ristretto255_allow_scalar_zero(s, p)
    if out == IDENTITY:
        _operands(p)
    return out


def base(s: bytes) -> bytes:
    """s·G."""
    return rbcl.crypto_scalarmult_ristretto255_base_allow_scalar_zero(s)


def s_add(a: bytes, b: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_scalar_add(a, b)


def s_sub(a: bytes, b: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_scalar_sub(a, b)


def s_mul(a: bytes, b: bytes) -> bytes:
    return rbcl.crypto_core_ristretto255_scalar_mul(a, b)


def hash_to_point(label: bytes, data: bytes) -> bytes:
    """A point nobody knows the discrete log of: RFC 9496's element derivation from 64
    bytes, applied to SHA-512(label ‖ 0x00 ‖ data)."""
    return rbcl.crypto_core_ristretto255_from_hash(hashlib.sha512(label + b"\x00" + data).digest())


def hash_to_scalar(data: bytes) -> bytes:
    """SHA-512 of ``data`` reduced modulo ℓ (64 bytes, so the bias is negligible)."""
    return rbcl.crypto_core_ristretto255_scalar_reduce(hashlib.sha512(data).digest())
