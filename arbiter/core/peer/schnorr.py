"""Proof of knowledge of a per-game secret key: the Schnorr NIZK of RFC 8235 §3, over
ristretto255, with the challenge from our transcript (``transcript``) in place of the
RFC's hash input (it binds the game, seat and message; RFC 8235 §3.3 asks for the
identity and "other information" to be in the hash for the same reason).

Prover, with X = x·G: pick v, V = v·G, c = H(G, V, X, context), r = v − c·x.
Verifier: V = r·G + c·X and X is not the identity. The proof is (V, r), 64 bytes.
Publishing it with each per-game key stops a rogue key (X' = x·G − ΣX_others): the
rogue player cannot prove knowledge of the discrete log of X'.
"""

from __future__ import annotations

from arbiter.core.errors import Tampered
from arbiter.core.peer import fresh, group
from arbiter.core.peer.transcript import Context, challenge

KIND = "schnorr-pok/1"


def _c(key: bytes, commitment: bytes, context: Context) -> bytes:
    return challenge(KIND, context, [(b"G", group.BASE), (b"V", commitment), (b"X", key)])


def prove(secret: bytes, context: Context, nonce: bytes | None = None) -> bytes:
    """Return the 64-byte proof that the prover knows ``secret`` for key ``secret``·G.
    ``nonce``: only for frozen test vectors (fresh from the CSPRNG otherwise)."""
    key = group.base(secret)
    v = nonce if nonce is not None else fresh.scalar()
    commitment = group.base(v)
    c = _c(key, commitment, context)
    return commitment + group.s_sub(v, group.s_mul(c, secret))


def verify(key: bytes, proof: bytes, context: Context) -> None:
    """Raise ``Tampered`` unless ``proof`` shows knowledge of the discrete log of ``key``."""
    group.point(key, "the per-game key")
    if key == group.IDENTITY:
        raise Tampered("the per-game key is the identity: it hides nothing")
    if len(proof) != 64:
        raise Tampered("the proof of knowledge of the per-game key is not 64 bytes")
    commitment = group.point(proof[:32], "the proof's commitment")
    r = group.scalar(proof[32:], "the proof's response")
    c = _c(key, commitment, context)
    if group.add(group.base(r), group.mul(c, key)) != commitment:
        raise Tampered("the proof of knowledge of the per-game key does not hold")
