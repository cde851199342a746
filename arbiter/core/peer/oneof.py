"""A card is one of a set, without saying which: a disjunction of Chaum–Pedersen
statements by the technique of Cramer, Damgård and Schoenmakers ("Proofs of partial
knowledge and simplified design of witness hiding protocols", CRYPTO '94).

The seat holds (A, B) with B = M + x·A for its key X = x·G, and claims M is one of
M_1..M_k (say, "a card of another material"). For each i the statement is
DLEQ(G, X; A, B − M_i). The seat answers the true one and simulates the others: for
i ≠ t pick c_i, z_i and set T_i = (z_i·G − c_i·X, z_i·A − c_i·(B − M_i)); for t pick w and
set T_t = (w·G, w·A); c = H(everything, T); c_t = c − Σ_{i≠t} c_i; z_t = w + c_t·x. The proof
is (c_1..c_k, z_1..z_k); the verifier recomputes every T_i and checks Σc_i = H(…).

Two claims about a hand are built from it (docs/peer-mottainai.md §3.4):

- **some-of** ("at least one of these held cards is one of M_1..M_k"): the same disjunction
  over every pair (card i, face j), DLEQ(G, X; A_i, B_i − M_j) — one true branch;
- **none-of** ("none of them is among F"): for each held card a one-of over the faces of
  its deck that are not in F.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arbiter.core.errors import Tampered
from arbiter.core.peer import fresh, group
from arbiter.core.peer.elgamal import Ciphertext
from arbiter.core.peer.transcript import Context, challenge

KIND = "one-of/1"
SOME_KIND = "some-of/1"

Branch = tuple[bytes, bytes]
"""One statement of a disjunction, (A, D): "D = x·A for the X = x·G of the prover"."""


def _t(key: bytes, branch: Branch, c: bytes, z: bytes) -> tuple[bytes, bytes]:
    """The commitments a branch's (c, z) imply: (z·G − c·X, z·A − c·D)."""
    a, d = branch
    return group.sub(group.base(z), group.mul(c, key)), group.sub(group.mul(z, a), group.mul(c, d))


def _prove(
    branches: Sequence[Branch],
    true: int,
    secret: bytes,
    hash_ts: Callable[[list[tuple[bytes, bytes]]], bytes],
    draw: Callable[[], bytes],
) -> bytes:
    """The disjunction: simulate every branch but ``true``, answer that one."""
    key = group.base(secret)
    cs: list[bytes] = []
    zs: list[bytes] = []
    ts: list[tuple[bytes, bytes]] = []
    w = draw()
    for i, branch in enumerate(branches):
        if i == true:
            cs.append(b"")
            zs.append(b"")
            ts.append((group.base(w), group.mul(w, branch[0])))
            continue
        ci, zi = draw(), draw()
        ts.append(_t(key, branch, ci, zi))
        cs.append(ci)
        zs.append(zi)
    c = hash_ts(ts)
    rest = group.from_int(sum(group.to_int(ci) for i, ci in enumerate(cs) if i != true))
    cs[true] = group.s_sub(c, rest)
    zs[true] = group.s_add(w, group.s_mul(cs[true], secret))
    return b"".join(cs) + b"".join(zs)


def _verify(
    branches: Sequence[Branch],
    key: bytes,
    proof: bytes,
    hash_ts: Callable[[list[tuple[bytes, bytes]]], bytes],
    what: str,
) -> bool:
    """Whether the disjunction's proof holds (its size checked by the caller)."""
    k = len(branches)
    cs = [group.scalar(proof[32 * i : 32 * i + 32], f"a challenge of {what}") for i in range(k)]
    zs = [
        group.scalar(proof[32 * (k + i) : 32 * (k + i) + 32], f"a response of {what}")
        for i in range(k)
    ]
    ts = [_t(key, branch, ci, zi) for branch, ci, zi in zip(branches, cs, zs, strict=True)]
    total = group.from_int(sum(group.to_int(ci) for ci in cs))
    return hash_ts(ts) == total


def _ts_fields(ts: Sequence[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    return [(f"T{i}".encode(), t1 + t2) for i, (t1, t2) in enumerate(ts)]


def _c(
    key: bytes,
    held: Ciphertext,
    options: Sequence[bytes],
    ts: Sequence[tuple[bytes, bytes]],
    context: Context,
) -> bytes:
    inputs = [(b"X", key), (b"A", held[0]), (b"B", held[1]), (b"M", b"".join(options))]
    return challenge(KIND, context, inputs + _ts_fields(ts))


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
    branches = [(a, group.sub(b, m)) for m in options]
    return _prove(
        branches,
        list(options).index(message),
        secret,
        lambda ts: _c(key, held, options, ts, context),
        draw,
    )


def verify(
    held: Ciphertext, key: bytes, options: Sequence[bytes], proof: bytes, context: Context
) -> None:
    """Raise ``Tampered`` unless the card under ``key`` is one of ``options``."""
    k = len(options)
    if len(proof) != 64 * k:
        raise Tampered(f"the claim over {k} cards has the wrong size")
    for p in (*held, key, *options):
        group.point(p, "a point of the claim")
    a, b = held
    branches = [(a, group.sub(b, m)) for m in options]
    if not _verify(
        branches, key, proof, lambda ts: _c(key, held, options, ts, context), "the claim"
    ):
        raise Tampered("the claim does not hold: the card is not one of those it names")


def _some_c(
    key: bytes,
    held: Sequence[Ciphertext],
    faces: Sequence[bytes],
    ts: Sequence[tuple[bytes, bytes]],
    context: Context,
) -> bytes:
    inputs = [(b"X", key), (b"F", b"".join(faces))]
    inputs += [(f"H{i}".encode(), a + b) for i, (a, b) in enumerate(held)]
    return challenge(SOME_KIND, context, inputs + _ts_fields(ts))


def _some_branches(held: Sequence[Ciphertext], faces: Sequence[bytes]) -> list[Branch]:
    return [(a, group.sub(b, m)) for a, b in held for m in faces]


def prove_some(
    held: Sequence[Ciphertext], secret: bytes, faces: Sequence[bytes], context: Context,
    draw: Callable[[], bytes] = fresh.scalar,
) -> bytes:  # fmt: skip
    """Prove that at least one of the ``held`` cards is one of ``faces``, without saying
    which card or which face (raises ValueError if none is)."""
    if not held or not faces:
        raise ValueError("a claim of presence needs cards and faces")
    true = None
    for i, (a, b) in enumerate(held):
        message = group.sub(b, group.mul(secret, a))
        if message in faces:
            true = i * len(faces) + list(faces).index(message)
            break
    if true is None:
        raise ValueError("no held card is among the faces: nothing true to prove")
    key = group.base(secret)
    return _prove(
        _some_branches(held, faces),
        true,
        secret,
        lambda ts: _some_c(key, held, faces, ts, context),
        draw,
    )


def verify_some(
    held: Sequence[Ciphertext],
    key: bytes,
    faces: Sequence[bytes],
    proof: bytes,
    context: Context,
) -> None:
    """Raise ``Tampered`` unless one of the cards under ``key`` is one of ``faces``."""
    k = len(held) * len(faces)
    if not k or len(proof) != 64 * k:
        raise Tampered(f"the claim of presence over {len(held)} cards has the wrong size")
    for p in (*(x for c in held for x in c), key, *faces):
        group.point(p, "a point of the claim of presence")
    branches = _some_branches(held, faces)
    hash_ts = lambda ts: _some_c(key, held, faces, ts, context)  # noqa: E731
    if not _verify(branches, key, proof, hash_ts, "the claim of presence"):
        raise Tampered("the claim of presence does not hold: no card is one of those it names")


def prove_none(
    held: Sequence[Ciphertext], secret: bytes, others: Sequence[bytes], context: Context,
    draw: Callable[[], bytes] = fresh.scalar,
) -> bytes:  # fmt: skip
    """Prove that none of the ``held`` cards is among the faces asked about: each is one
    of ``others``, the faces of its deck that are not (a one-of per card)."""
    return b"".join(prove(card, secret, others, context, draw) for card in held)


def verify_none(
    held: Sequence[Ciphertext],
    key: bytes,
    others: Sequence[bytes],
    proof: bytes,
    context: Context,
) -> None:
    """Raise ``Tampered`` unless every card under ``key`` is one of ``others``."""
    size = 64 * len(others)
    if len(proof) != size * len(held):
        raise Tampered(f"the claim of absence over {len(held)} cards has the wrong size")
    for i, card in enumerate(held):
        try:
            verify(card, key, others, proof[i * size : (i + 1) * size], context)
        except Tampered as wrong:
            raise Tampered(
                f"the claim of absence does not hold for card {i + 1}: {wrong}"
            ) from None
