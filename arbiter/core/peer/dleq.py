"""Equality of discrete logarithms: the Chaum–Pedersen protocol (Chaum and Pedersen,
"Wallet databases with observers", CRYPTO '92), made non-interactive with our transcript.
It proves a decryption share honest: D = x·A for the same x as the seat's key X = x·G.

Prover: pick w, T1 = w·G, T2 = w·A, c = H(G, X, A, D, T1, T2, context), s = w + c·x.
The proof is (c, s), 64 bytes. Verifier: T1 = s·G − c·X, T2 = s·A − c·D, and the
challenge recomputed from them equals c.
"""

from __future__ import annotations

from arbiter.core.errors import Tampered
from arbiter.core.peer import fresh, group
from arbiter.core.peer.transcript import Context, challenge

KIND = "chaum-pedersen/1"


def _c(key: bytes, a: bytes, d: bytes, t1: bytes, t2: bytes, context: Context) -> bytes:
    inputs = [(b"G", group.BASE), (b"X", key), (b"A", a), (b"D", d), (b"T1", t1), (b"T2", t2)]
    return challenge(KIND, context, inputs)


def share(
    secret: bytes, a: bytes, context: Context, nonce: bytes | None = None
) -> tuple[bytes, bytes]:
    """Return the decryption share x·A and its 64-byte proof. ``nonce``: test vectors only."""
    key = group.base(secret)
    d = group.mul(secret, a)
    w = nonce if nonce is not None else fresh.scalar()
    t1, t2 = group.base(w), group.mul(w, a)
    c = _c(key, a, d, t1, t2, context)
    return d, c + group.s_add(w, group.s_mul(c, secret))


def verify(key: bytes, a: bytes, d: bytes, proof: bytes, context: Context) -> None:
    """Raise ``Tampered`` unless ``d`` = x·``a`` for the x of ``key`` = x·G."""
    group.point(key, "the seat's per-game key")
    group.point(a, "the ciphertext's first half")
    group.point(d, "the decryption share")
    if len(proof) != 64:
        raise Tampered("the decryption share's proof is not 64 bytes")
    c = group.scalar(proof[:32], "the proof's challenge")
    s = group.scalar(proof[32:], "the proof's response")
    t1 = group.sub(group.base(s), group.mul(c, key))
    t2 = group.sub(group.mul(s, a), group.mul(c, d))
    if _c(key, a, d, t1, t2, context) != c:
        raise Tampered("the decryption share's proof does not hold: the share is wrong")
