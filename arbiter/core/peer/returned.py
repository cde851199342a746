"""A card a seat holds, put back under the joint key (a return to the deck, docs/peer.md
§4.1): the seat proves the new ciphertext holds the same card without showing it.

The held card is (A, B) with B = M + x·A for the seat's key X = x·G (the other seats'
layers already stripped). The seat publishes (A', B') = (s·G, M + s·J) under the joint
key J and proves, with ``linear`` (witnesses s and x):

    A' = s·G,    X = x·G,    B' − B = s·J − x·A

so B' − s·J = B − x·A = M: the same card. Both ciphertexts are hashed into the challenge
as well (``_bound``): the equations name B and B' only through their difference, and a
proof must be about the very ciphertexts it is checked against (docs/peer-review.md,
finding 8).
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter.core.peer import fresh, group, linear
from arbiter.core.peer.elgamal import Ciphertext
from arbiter.core.peer.transcript import Context

KIND = "returned/2"


def _equations(
    held: Ciphertext, new: Ciphertext, key: bytes, joint: bytes
) -> list[linear.Equation]:
    a, b = held
    a2, b2 = new
    minus_a = group.sub(group.IDENTITY, a)
    return [
        linear.Equation(a2, (group.BASE, group.IDENTITY)),
        linear.Equation(key, (group.IDENTITY, group.BASE)),
        linear.Equation(group.sub(b2, b), (joint, minus_a)),
    ]


def _bound(held: Ciphertext, new: Ciphertext) -> list[tuple[bytes, bytes]]:
    return [(b"held.A", held[0]), (b"held.B", held[1]), (b"new.A", new[0]), (b"new.B", new[1])]


def put_back(
    held: Ciphertext, secret: bytes, joint: bytes, s: bytes, context: Context,
    draw: Callable[[], bytes] = fresh.scalar,
) -> tuple[Ciphertext, bytes]:  # fmt: skip
    """Re-encrypt a held card under ``joint`` with randomiser ``s``; return it and its proof
    (``draw``: the proof's nonces; fixed only for test vectors)."""
    a, b = held
    message = group.sub(b, group.mul(secret, a))
    new = (group.base(s), group.add(message, group.mul(s, joint)))
    equations = _equations(held, new, group.base(secret), joint)
    return new, linear.prove(KIND, equations, [s, secret], context, draw, _bound(held, new))


def verify(
    held: Ciphertext, new: Ciphertext, key: bytes, joint: bytes, proof: bytes, context: Context
) -> None:
    for p in (*held, *new, key, joint):
        group.point(p, "a point of the returned card")
    linear.verify(
        KIND, _equations(held, new, key, joint), proof, context, "the returned card",
        _bound(held, new),
    )  # fmt: skip
