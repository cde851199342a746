"""ElGamal over ristretto255, additive notation, under a joint key (docs/peer.md §4.1).

A ciphertext of the point M under key X is (A, B) = (r·G, M + r·X) (ElGamal 1985).
Re-encryption adds (s·G, s·X); it changes both halves and keeps M. With the joint key
X = ΣX_i of the seats' per-game keys (Barnett–Smart 2003), M = B − Σ x_i·A: every seat's
decryption share x_i·A is needed, each proven with ``dleq``.
"""

from __future__ import annotations

from arbiter.core.peer import group

Ciphertext = tuple[bytes, bytes]


def encrypt(message: bytes, key: bytes, r: bytes) -> Ciphertext:
    return group.base(r), group.add(message, group.mul(r, key))


def reencrypt(ciphertext: Ciphertext, key: bytes, s: bytes) -> Ciphertext:
    a, b = ciphertext
    return group.add(a, group.base(s)), group.add(b, group.mul(s, key))


def open_with(ciphertext: Ciphertext, shares: list[bytes]) -> bytes:
    """M = B − ΣD_i: the point under the ciphertext, once every seat's share D_i = x_i·A is in."""
    out = ciphertext[1]
    for share in shares:
        out = group.sub(out, share)
    return out


def joint_key(keys: list[bytes]) -> bytes:
    out = group.IDENTITY
    for key in keys:
        out = group.add(out, key)
    return out
