"""A verifiable re-encryption shuffle: the proof of Terelius and Wikström ("Proofs of
restricted shuffles", AFRICACRYPT 2010), written from the pseudo-code of Haenni, Locher,
Koenig and Dubuis ("Pseudo-code algorithms for verifiable re-encryption mix-nets",
Financial Cryptography 2017 workshops: GenShuffle, GenPermutationCommitment,
GenCommitmentChain, GenProof, CheckProof), in additive notation over ristretto255.

A shuffler takes the deck e_1..e_N, picks a permutation ψ and randomisers s_i, and outputs
e~_i = e_{ψ(i)} re-encrypted by s_i under the joint key X. The proof shows that e~ is a
re-encryption of a permutation of e, and reveals nothing about ψ: no card can be dropped,
duplicated or swapped for one the shuffler encrypted itself.

Differences from the pseudo-code, none of which touches the argument:
- ciphertexts are (A, B) = (r·G, M + r·X), so Haenni's (a, b) are our (B, A);
- the generators h, h_1..h_N are hash-derived (``group.hash_to_point``), so nobody knows
  a discrete log between them;
- the challenges u_i hash a digest of the statement (deck, output, permutation commitment,
  key) with i, and the main challenge c hashes the statement, the commitment chain and t;
  both go through ``transcript`` and so are bound to the game, seat and message;
- a deck of no cards is shuffled too (N = 0: the chain is empty and ends at ĉ_0 = h, the
  empty product û is 1; docs/peer-review.md, finding 3).

``verify`` is its own trust boundary (docs/peer-review.md, finding 4): it checks the key and
every scalar of the proof itself, not only ``Proof.from_bytes``, and every point it computes
with goes through ``group``'s arithmetic, which refuses an invalid encoding.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arbiter.core.errors import Tampered
from arbiter.core.peer import fresh, group
from arbiter.core.peer.elgamal import Ciphertext, reencrypt
from arbiter.core.peer.transcript import Context, challenge, encode

KIND_U = "tw-shuffle/1:u"
KIND_C = "tw-shuffle/1:c"
GENERATORS = b"arbiter-peer/1 shuffle generator"


@dataclass(frozen=True)
class Proof:
    """What a shuffler publishes beside its output deck: 3N+5 points, 2N+4 scalars."""

    commitments: tuple[bytes, ...]
    """The permutation commitment c_1..c_N."""
    chain: tuple[bytes, ...]
    """The commitment chain ĉ_1..ĉ_N."""
    t: tuple[bytes, ...]
    """t_1, t_2, t_3, t_41, t_42, then t̂_1..t̂_N."""
    s: tuple[bytes, ...]
    """s_1..s_4, then ŝ_1..ŝ_N, then s'_1..s'_N."""

    def to_bytes(self) -> bytes:
        return b"".join([*self.commitments, *self.chain, *self.t, *self.s])

    @classmethod
    def from_bytes(cls, data: bytes, n: int) -> Proof:
        if len(data) != 32 * (3 * n + 5 + 2 * n + 4):
            raise Tampered(
                f"a shuffle proof of {n} cards has {(5 * n + 9) * 32} bytes, not {len(data)}"
            )
        parts = [data[i : i + 32] for i in range(0, len(data), 32)]
        points = [group.point(p, "a point of the shuffle proof") for p in parts[: 3 * n + 5]]
        scalars = [group.scalar(s, "a scalar of the shuffle proof") for s in parts[3 * n + 5 :]]
        return cls(
            tuple(points[:n]), tuple(points[n : 2 * n]), tuple(points[2 * n :]), tuple(scalars)
        )


def generators(n: int) -> tuple[bytes, list[bytes]]:
    """h (the chain's base) and h_1..h_N."""
    h = group.hash_to_point(GENERATORS, b"h")
    return h, [
        group.hash_to_point(GENERATORS, b"h" + i.to_bytes(4, "big")) for i in range(1, n + 1)
    ]


def _deck_bytes(deck: Sequence[Ciphertext]) -> bytes:
    return b"".join(a + b for a, b in deck)


def _u(
    context: Context,
    deck: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    commitments: Sequence[bytes],
    key: bytes,
) -> list[bytes]:
    statement = encode(KIND_U, context, [
        (b"X", key), (b"e", _deck_bytes(deck)), (b"e~", _deck_bytes(out)), (b"c", b"".join(commitments)),
    ])  # fmt: skip
    digest = hashlib.sha512(statement).digest()
    return [group.hash_to_scalar(digest + i.to_bytes(4, "big")) for i in range(1, len(deck) + 1)]


def _c(
    context: Context,
    deck: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    key: bytes,
    commitments: Sequence[bytes],
    chain: Sequence[bytes],
    t: Sequence[bytes],
) -> bytes:
    return challenge(KIND_C, context, [
        (b"X", key), (b"e", _deck_bytes(deck)), (b"e~", _deck_bytes(out)),
        (b"c", b"".join(commitments)), (b"c^", b"".join(chain)), (b"t", b"".join(t)),
    ])  # fmt: skip


def _sum_mul(pairs: Sequence[tuple[bytes, bytes]]) -> bytes:
    """Σ s_i·P_i."""
    out = group.IDENTITY
    for s, p in pairs:
        out = group.add(out, group.mul(s, p))
    return out


def permutation(n: int, draw: Callable[[], bytes]) -> list[int]:
    """A uniform permutation ψ of 0..n−1 (Fisher–Yates, indices from ``draw``'s scalars)."""
    psi = list(range(n))
    for i in range(n - 1, 0, -1):
        j = group.to_int(draw()) % (i + 1)  # ℓ ≈ 2^252: the bias is below 2^-240
        psi[i], psi[j] = psi[j], psi[i]
    return psi


def shuffle(
    deck: Sequence[Ciphertext],
    key: bytes,
    context: Context,
    draw: Callable[[], bytes] = fresh.scalar,
) -> tuple[list[Ciphertext], Proof]:
    """Re-encrypt and permute ``deck`` under ``key``; return the new deck and its proof.
    ``draw``: the source of secret scalars (fresh ones; test vectors pass a fixed one)."""
    n = len(deck)
    psi = permutation(n, draw)
    randomisers = [draw() for _ in range(n)]
    out = [reencrypt(deck[psi[i]], key, randomisers[i]) for i in range(n)]
    return out, prove(deck, out, psi, randomisers, key, context, draw)


def arrange(
    deck: Sequence[Ciphertext],
    psi: Sequence[int],
    key: bytes,
    context: Context,
    draw: Callable[[], bytes] = fresh.scalar,
) -> tuple[list[Ciphertext], Proof]:
    """As ``shuffle``, with the permutation chosen by the mover (card ``psi[i]`` to place
    ``i``): a holder putting its cards in the order it sees them before they change hands
    (docs/peer-mottainai.md §3.7). The proof is the same and hides ``psi`` just as well."""
    n = len(deck)
    if sorted(psi) != list(range(n)):
        raise ValueError("psi is not a permutation of the deck's places")
    randomisers = [draw() for _ in range(n)]
    out = [reencrypt(deck[psi[i]], key, randomisers[i]) for i in range(n)]
    return out, prove(deck, out, psi, randomisers, key, context, draw)


def prove(
    deck: Sequence[Ciphertext], out: Sequence[Ciphertext], psi: Sequence[int],
    randomisers: Sequence[bytes], key: bytes, context: Context, draw: Callable[[], bytes],
) -> Proof:  # fmt: skip
    n = len(deck)
    h, hs = generators(n)
    # GenPermutationCommitment: c_{ψ(i)} = r_{ψ(i)}·G + h_i.
    r = [b""] * n
    commitments = [b""] * n
    for i in range(n):
        j = psi[i]
        r[j] = draw()
        commitments[j] = group.add(group.base(r[j]), hs[i])
    u = _u(context, deck, out, commitments, key)
    u_t = [u[psi[i]] for i in range(n)]  # ũ_i = u_{ψ(i)}
    # GenCommitmentChain: ĉ_0 = h, ĉ_i = r̂_i·G + ũ_i·ĉ_{i−1}.
    r_hat = [draw() for _ in range(n)]
    chain: list[bytes] = []
    previous = h
    for i in range(n):
        previous = group.add(group.base(r_hat[i]), group.mul(u_t[i], previous))
        chain.append(previous)
    w1, w2, w3, w4 = draw(), draw(), draw(), draw()
    w_hat = [draw() for _ in range(n)]
    w_prime = [draw() for _ in range(n)]
    t1 = group.base(w1)
    t2 = group.base(w2)
    t3 = group.add(group.base(w3), _sum_mul(list(zip(w_prime, hs, strict=True))))
    # Our (A, B) are Haenni's (b, a): t_41 over the B halves with X, t_42 over A with G.
    t41 = group.sub(_sum_mul([(w_prime[i], out[i][1]) for i in range(n)]), group.mul(w4, key))
    t42 = group.sub(_sum_mul([(w_prime[i], out[i][0]) for i in range(n)]), group.base(w4))
    before = [h, *chain[:-1]]
    t_hat = [group.add(group.base(w_hat[i]), group.mul(w_prime[i], before[i])) for i in range(n)]
    t = (t1, t2, t3, t41, t42, *t_hat)
    c = _c(context, deck, out, key, commitments, chain, t)
    mul, sub = group.s_mul, group.s_sub
    r_bar = group.from_int(sum(group.to_int(x) for x in r))
    # v_N = 1, v_{i−1} = ũ_i·v_i: r̂ = Σ r̂_i·v_i.
    v = [b""] * n
    if n:
        v[n - 1] = group.from_int(1)
    for i in range(n - 1, 0, -1):
        v[i - 1] = mul(u_t[i], v[i])
    r_chain = group.from_int(sum(group.to_int(mul(r_hat[i], v[i])) for i in range(n)))
    r_u = group.from_int(sum(group.to_int(mul(r[j], u[j])) for j in range(n)))
    r_tilde = group.from_int(sum(group.to_int(mul(randomisers[i], u_t[i])) for i in range(n)))
    s = (
        sub(w1, mul(c, r_bar)),
        sub(w2, mul(c, r_chain)),
        sub(w3, mul(c, r_u)),
        sub(w4, mul(c, r_tilde)),
        *(sub(w_hat[i], mul(c, r_hat[i])) for i in range(n)),
        *(sub(w_prime[i], mul(c, u_t[i])) for i in range(n)),
    )
    return Proof(tuple(commitments), tuple(chain), t, s)


def verify(
    deck: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    key: bytes,
    proof: Proof,
    context: Context,
) -> None:
    """Raise ``Tampered`` unless ``out`` is a re-encryption of a permutation of ``deck``."""
    n = len(deck)
    if len(out) != n or len(proof.commitments) != n or len(proof.chain) != n:
        raise Tampered(f"the shuffled deck has {len(out)} cards, not the {n} it was given")
    if len(proof.t) != n + 5 or len(proof.s) != 2 * n + 4:
        raise Tampered("the shuffle proof has the wrong number of parts")
    group.point(key, "the shuffle's key")
    for a, b in [*deck, *out]:
        group.point(a, "a card of the deck")
        group.point(b, "a card of the deck")
    for value in proof.s:
        group.scalar(value, "a scalar of the shuffle proof")
    h, hs = generators(n)
    u = _u(context, deck, out, proof.commitments, key)
    c = _c(context, deck, out, key, proof.commitments, proof.chain, proof.t)
    s1, s2, s3, s4 = proof.s[:4]
    s_hat, s_prime = proof.s[4 : 4 + n], proof.s[4 + n :]
    # c̄ = Σc_i − Σh_i; û = Πu_i; ĉ = ĉ_N − û·h; c' = Σ u_i·c_i; a' = Σ u_i·A_i; b' = Σ u_i·B_i.
    c_bar = group.IDENTITY
    for ci, hi in zip(proof.commitments, hs, strict=True):
        c_bar = group.add(c_bar, group.sub(ci, hi))
    u_prod = group.from_int(1)
    for ui in u:
        u_prod = group.s_mul(u_prod, ui)
    c_hat = group.sub(proof.chain[-1] if n else h, group.mul(u_prod, h))
    c_u = _sum_mul(list(zip(u, proof.commitments, strict=True)))
    a_u = _sum_mul([(u[i], deck[i][0]) for i in range(n)])
    b_u = _sum_mul([(u[i], deck[i][1]) for i in range(n)])
    t1 = group.add(group.mul(c, c_bar), group.base(s1))
    t2 = group.add(group.mul(c, c_hat), group.base(s2))
    t3 = group.add(
        group.add(group.mul(c, c_u), group.base(s3)), _sum_mul(list(zip(s_prime, hs, strict=True)))
    )
    t41 = group.sub(
        group.add(group.mul(c, b_u), _sum_mul([(s_prime[i], out[i][1]) for i in range(n)])),
        group.mul(s4, key),
    )
    t42 = group.sub(
        group.add(group.mul(c, a_u), _sum_mul([(s_prime[i], out[i][0]) for i in range(n)])),
        group.base(s4),
    )
    before = [h, *proof.chain[:-1]]
    t_hat = [
        group.add(
            group.add(group.mul(c, proof.chain[i]), group.base(s_hat[i])),
            group.mul(s_prime[i], before[i]),
        )
        for i in range(n)
    ]
    if (t1, t2, t3, t41, t42, *t_hat) != proof.t:
        raise Tampered(
            "the shuffle proof does not hold: the deck is not a re-encrypted permutation"
        )
