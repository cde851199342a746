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

The same equations with another seat's key R in place of J **pass** a card to that seat
(Puppet, docs/peer-mottainai.md §3.7): (s·G, M + s·R), which only R's holder can open. A
transfer has a kind of its own, ``passed/1``, so that a transfer's proof is never taken
for a return's or the other way round.
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter.core.peer import fresh, group, linear
from arbiter.core.peer.elgamal import Ciphertext
from arbiter.core.peer.transcript import Context

KIND = "returned/2"
PASSED = "passed/1"


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
    draw: Callable[[], bytes] = fresh.scalar, kind: str = KIND,
) -> tuple[Ciphertext, bytes]:  # fmt: skip
    """Re-encrypt a held card under ``joint`` with randomiser ``s``; return it and its proof
    (``draw``: the proof's nonces; fixed only for test vectors). With ``kind=PASSED``,
    ``joint`` is the key of the seat the card is passed to."""
    a, b = held
    message = group.sub(b, group.mul(secret, a))
    new = (group.base(s), group.add(message, group.mul(s, joint)))
    equations = _equations(held, new, group.base(secret), joint)
    return new, linear.prove(kind, equations, [s, secret], context, draw, _bound(held, new))


def verify(
    held: Ciphertext, new: Ciphertext, key: bytes, joint: bytes, proof: bytes, context: Context,
    kind: str = KIND,
) -> None:  # fmt: skip
    if kind not in (KIND, PASSED):
        raise ValueError(f"no such proof: {kind}")
    what = "the returned card" if kind == KIND else "the passed card"
    for p in (*held, *new, key, joint):
        group.point(p, f"a point of {what}")
    linear.verify(kind, _equations(held, new, key, joint), proof, context, what, _bound(held, new))
