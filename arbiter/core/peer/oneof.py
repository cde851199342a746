"""A card is one of a set, without saying which: a disjunction of Chaum–Pedersen
statements by the technique of Cramer, Damgård and Schoenmakers ("Proofs of partial
knowledge and simplified design of witness hiding protocols", CRYPTO '94).

The seat holds (A, B) with B = M + x·A for its key X = x·G, and claims M is one of
M_1..M_k (say, "a card of another material"). For each i the statement is
DLEQ(G, X; A, B − M_i). The seat answers the true one and simulates the others: for
i ≠ t pick c_i, z_i and set T_i = (z_i·G − c_i·X, z_i·A − c_i·(B − M_i)); for t pick w and
set T_t = (w·G, w·A); c = H(everything, T); c_t = c − Σ_{i≠t} c_i; z_t = w + c_t·x. The proof
is (c_1..c_k, z_1..z_k); the verifier recomputes every T_i and checks Σc_i = H(…).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arbiter.core.errors import Tampered
from arbiter.core.peer import fresh, group
from arbiter.core.peer.elgamal import Ciphertext
from arbiter.core.peer.transcript import Context, challenge

KIND = "one-of/1"


def _c(
    key: bytes,
    held: Ciphertext,
    options: Sequence[bytes],
    ts: Sequence[tuple[bytes, bytes]],
    context: Context,
) -> bytes:
    inputs = [(b"X", key), (b"A", held[0]), (b"B", held[1]), (b"M", b"".join(options))]
    inputs += [(f"T{i}".encode(), t1 + t2) for i, (t1, t2) in enumerate(ts)]
    return challenge(KIND, context, inputs)


def prove(
    held: Ciphertext, secret: bytes, options: Sequence[bytes], context: Context,
    draw: Callable[[], bytes] = fresh.scalar,
) -> bytes:  # fmt: skip
    """Prove the held card is among ``options`` (raises ValueError if it is not)."""
    a, b = held
    key = group.base(secret)
    message = group.sub(b, group.mul(secret, a))
    if message not in options:
        raise ValueError("the held card is not among the options: nothing true to prove")
    t_index = list(options).index(message)
    cs: list[bytes] = []
    zs: list[bytes] = []
    ts: list[tuple[bytes, bytes]] = []
    w = draw()
    for i, m in enumerate(options):
        if i == t_index:
            cs.append(b"")
            zs.append(b"")
            ts.append((group.base(w), group.mul(w, a)))
            continue
        ci, zi = draw(), draw()
        d = group.sub(b, m)
        ts.append(
            (
                group.sub(group.base(zi), group.mul(ci, key)),
                group.sub(group.mul(zi, a), group.mul(ci, d)),
            )
        )
        cs.append(ci)
        zs.append(zi)
    c = _c(key, held, options, ts, context)
    rest = group.from_int(sum(group.to_int(ci) for i, ci in enumerate(cs) if i != t_index))
    cs[t_index] = group.s_sub(c, rest)
    zs[t_index] = group.s_add(w, group.s_mul(cs[t_index], secret))
    return b"".join(cs) + b"".join(zs)


def verify(
    held: Ciphertext, key: bytes, options: Sequence[bytes], proof: bytes, context: Context
) -> None:
    """Raise ``Tampered`` unless the card under ``key`` is one of ``options``."""
    k = len(options)
    if len(proof) != 64 * k:
        raise Tampered(f"the claim over {k} cards has the wrong size")
    for p in (*held, key, *options):
        group.point(p, "a point of the claim")
    cs = [group.scalar(proof[32 * i : 32 * i + 32], "a challenge of the claim") for i in range(k)]
    zs = [
        group.scalar(proof[32 * (k + i) : 32 * (k + i) + 32], "a response of the claim")
        for i in range(k)
    ]
    a, b = held
    ts = []
    for ci, zi, m in zip(cs, zs, options, strict=True):
        d = group.sub(b, m)
        ts.append(
            (
                group.sub(group.base(zi), group.mul(ci, key)),
                group.sub(group.mul(zi, a), group.mul(ci, d)),
            )
        )
    total = group.from_int(sum(group.to_int(ci) for ci in cs))
    if _c(key, held, options, ts, context) != total:
        raise Tampered("the claim does not hold: the card is not one of those it names")
