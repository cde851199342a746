"""Key escrow for drop-outs (docs/peer.md §7): Feldman's verifiable secret sharing
("A practical scheme for non-interactive verifiable secret sharing", FOCS 1987) of a
seat's per-game secret x over ristretto255's scalars.

The seat picks f(z) = x + a_1·z + … + a_{t−1}·z^{t−1}, publishes C_k = a_k·G (C_0 = X, its
key), and gives holder i the share f(i). Each holder checks f(i)·G = Σ_k i^k·C_k. Any t
holders rebuild x by Lagrange interpolation at 0; fewer learn nothing about x beyond X = x·G,
which is public anyway (Feldman's commitments hide computationally, not perfectly).

A holder's index is 1 … ℓ−1: f(0) is x itself, and an index ≡ 0 mod ℓ names it too, so
``check`` and ``rebuild`` refuse any other (docs/peer-review.md, finding 5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arbiter.core.errors import Tampered
from arbiter.core.peer import fresh, group


def deal(
    secret: bytes, threshold: int, holders: int, draw: Callable[[], bytes] = fresh.scalar
) -> tuple[list[bytes], list[bytes]]:
    """Return the commitments C_0..C_{t−1} and the shares f(1)..f(holders)."""
    if not 1 <= threshold <= holders:
        raise ValueError("the threshold must be between 1 and the number of holders")
    coefficients = [secret, *(draw() for _ in range(threshold - 1))]
    commitments = [group.base(a) for a in coefficients]
    shares = []
    for i in range(1, holders + 1):
        value = 0
        for a in reversed(coefficients):  # Horner
            value = (value * i + group.to_int(a)) % group.ORDER
        shares.append(group.from_int(value))
    return commitments, shares


def _index(index: int) -> None:
    if not 1 <= index < group.ORDER:
        raise ValueError(f"escrow share {index}: holders are numbered from 1 (f(0) is the secret)")


def check(index: int, share: bytes, commitments: Sequence[bytes]) -> None:
    """Raise ``Tampered`` unless ``share`` is f(``index``) for these commitments."""
    _index(index)
    group.scalar(share, "an escrow share")
    expected = group.IDENTITY
    power = 1
    for c in commitments:
        group.point(c, "an escrow commitment")
        expected = group.add(expected, group.mul(group.from_int(power), c))
        power = power * index % group.ORDER
    if group.base(share) != expected:
        raise Tampered(f"escrow share {index} does not match the dealer's commitments")


def rebuild(shares: dict[int, bytes]) -> bytes:
    """x = f(0) from t shares {i: f(i)} (Lagrange interpolation at 0)."""
    for i in shares:
        _index(i)
    total = 0
    for i, s in shares.items():
        num, den = 1, 1
        for j in shares:
            if j != i:
                num = num * (-j) % group.ORDER
                den = den * (i - j) % group.ORDER
        total = (total + group.to_int(s) * num * pow(den, -1, group.ORDER)) % group.ORDER
    return group.from_int(total)
