"""Proofs of knowledge for linear relations between points: Maurer's unified sigma
protocol ("Unifying zero-knowledge proofs of knowledge", AFRICACRYPT 2009), made
non-interactive with our transcript.

The statement is a set of equations Y_k = Σ_j x_j·P_{k,j} over secret scalars x_j. The
prover picks r_j, commits T_k = Σ_j r_j·P_{k,j}, takes c = H(statement, T) and answers
z_j = r_j + c·x_j. The proof is (c, z_1..z_m); the verifier recomputes
T_k = Σ_j z_j·P_{k,j} − c·Y_k and the challenge. Schnorr (``schnorr``) and Chaum–Pedersen
(``dleq``) are its two simplest cases; the peer protocol uses it for the rest, such as a
card moved from a seat's hand back into the deck (``returned``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arbiter.core.errors import Tampered
from arbiter.core.peer import fresh, group
from arbiter.core.peer.transcript import Context, challenge


@dataclass(frozen=True)
class Equation:
    """Y = Σ_j x_j·bases[j]; a base may be the identity where x_j does not appear."""

    result: bytes
    bases: tuple[bytes, ...]


def _combine(scalars: Sequence[bytes], bases: Sequence[bytes]) -> bytes:
    out = group.IDENTITY
    for s, p in zip(scalars, bases, strict=True):
        if p != group.IDENTITY:
            out = group.add(out, group.mul(s, p))
    return out


def _c(
    kind: str,
    equations: Sequence[Equation],
    commitments: Sequence[bytes],
    context: Context,
    bound: Sequence[tuple[bytes, bytes]],
) -> bytes:
    inputs = list(bound)
    for k, eq in enumerate(equations):
        label = f"eq{k}".encode()
        inputs.append((label + b".Y", eq.result))
        inputs.append((label + b".P", b"".join(eq.bases)))
        inputs.append((label + b".T", commitments[k]))
    return challenge(kind, context, inputs)


def prove(
    kind: str, equations: Sequence[Equation], secrets: Sequence[bytes], context: Context,
    draw: Callable[[], bytes] = fresh.scalar, bound: Sequence[tuple[bytes, bytes]] = (),
) -> bytes:  # fmt: skip
    """Return (c, z_1..z_m) as bytes for a statement the prover knows ``secrets`` of.
    ``bound``: further public inputs (label, bytes) the statement is about, hashed into
    the challenge before the equations (strong Fiat–Shamir: everything the verifier is
    convinced of, Bernhard–Pereira–Warinschi 2012)."""
    nonces = [draw() for _ in secrets]
    commitments = [_combine(nonces, eq.bases) for eq in equations]
    c = _c(kind, equations, commitments, context, bound)
    z = [group.s_add(r, group.s_mul(c, x)) for r, x in zip(nonces, secrets, strict=True)]
    return c + b"".join(z)


def verify(
    kind: str,
    equations: Sequence[Equation],
    proof: bytes,
    context: Context,
    what: str,
    bound: Sequence[tuple[bytes, bytes]] = (),
) -> None:
    """Raise ``Tampered`` naming ``what`` unless ``proof`` holds for ``equations``."""
    m = len(equations[0].bases)
    if len(proof) != 32 * (m + 1) or any(len(eq.bases) != m for eq in equations):
        raise Tampered(f"{what}: the proof has the wrong size")
    c = group.scalar(proof[:32], f"{what}: the challenge")
    z = [group.scalar(proof[32 * (j + 1) : 32 * (j + 2)], f"{what}: a response") for j in range(m)]
    commitments = [group.sub(_combine(z, eq.bases), group.mul(c, eq.result)) for eq in equations]
    if _c(kind, equations, commitments, context, bound) != c:
        raise Tampered(f"{what}: the proof does not hold")
