"""Claims about a hand without showing it (docs/peer-mottainai.md §3.4, §3.7): "one of my
hidden cards is one of these faces" (some-of, a Cramer–Damgård–Schoenmakers disjunction
over every pair of card and face), "none of them is" (none-of: a one-of over the other
faces, per card), and a card passed to another seat's key (Maurer's linear relations, as
a return, with a kind of its own). Each honest case accepted, each cheat refused, each
proof bound to its game, seat and message, and frozen by a vector."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from arbiter.core.errors import Tampered
from arbiter.core.peer import elgamal, group, oneof, returned
from arbiter.core.peer.transcript import Context

CTX = Context("g1", "sha256:" + "cd" * 32, "alice", 11)
ELSEWHERE = [Context("g2", CTX.manifest, "alice", 11), Context("g1", CTX.manifest, "bob", 11),
             Context("g1", CTX.manifest, "alice", 12)]  # fmt: skip
X = group.from_int(8675309)  # the holder's per-game secret
BOB = group.from_int(31337)  # another seat's
CARDS = [group.hash_to_point(b"hand card", str(i).encode()) for i in range(10)]
METAL = CARDS[6:10]
"""The faces asked about ("a METAL card"); the others are CARDS[:6]."""


def _held(card: int, r: int = 0) -> elgamal.Ciphertext:
    """Card ``card`` held under the holder's key alone (the other layers stripped)."""
    return elgamal.encrypt(CARDS[card], group.base(X), group.from_int(900 + card + r))


def _fixed(label: bytes):  # type: ignore[no-untyped-def]
    count = iter(range(1000))
    return lambda: group.hash_to_scalar(
        hmac.digest(label, next(count).to_bytes(8, "big"), "sha256")
    )


def test_a_presence_claim_names_neither_the_card_nor_the_face() -> None:
    hand = [_held(1), _held(7), _held(3)]
    proof = oneof.prove_some(hand, X, METAL, CTX)
    oneof.verify_some(hand, group.base(X), METAL, proof, CTX)
    assert len(proof) == 64 * 3 * 4
    for other in ELSEWHERE:
        with pytest.raises(Tampered, match="does not hold"):
            oneof.verify_some(hand, group.base(X), METAL, proof, other)
    # Nothing true to prove on a hand without such a card.
    with pytest.raises(ValueError, match="nothing true"):
        oneof.prove_some([_held(1), _held(3)], X, METAL, CTX)
    # The proof does not carry over to a hand without the card, another set of faces,
    # or another holder's key.
    with pytest.raises(Tampered, match="does not hold"):
        oneof.verify_some([_held(1), _held(2), _held(3)], group.base(X), METAL, proof, CTX)
    with pytest.raises(Tampered, match="does not hold"):
        oneof.verify_some(hand, group.base(X), CARDS[2:6], proof, CTX)
    with pytest.raises(Tampered, match="does not hold"):
        oneof.verify_some(hand, group.base(BOB), METAL, proof, CTX)
    with pytest.raises(Tampered, match="wrong size"):
        oneof.verify_some(hand[:2], group.base(X), METAL, proof, CTX)
    # A seat without the card cannot make one: a proof of a false claim with another
    # hand's answer is refused (the disjunction needs one true branch).
    forged = oneof.prove_some([_held(8)], X, METAL, CTX)
    with pytest.raises(Tampered):
        oneof.verify_some([_held(1)], group.base(X), METAL, forged, CTX)


def test_an_absence_claim_holds_only_when_no_card_is_among_the_faces() -> None:
    others = CARDS[:6]
    hand = [_held(1), _held(4)]
    proof = oneof.prove_none(hand, X, others, CTX)
    oneof.verify_none(hand, group.base(X), others, proof, CTX)
    for other in ELSEWHERE:
        with pytest.raises(Tampered, match="does not hold for card 1"):
            oneof.verify_none(hand, group.base(X), others, proof, other)
    # One card among the faces: the holder cannot prove absence, and the proof for
    # another hand does not carry over.
    with pytest.raises(ValueError, match="not among the options"):
        oneof.prove_none([_held(1), _held(9)], X, others, CTX)
    with pytest.raises(Tampered, match="does not hold for card 2"):
        oneof.verify_none([_held(1), _held(9)], group.base(X), others, proof, CTX)
    with pytest.raises(Tampered, match="wrong size"):
        oneof.verify_none(hand[:1], group.base(X), others, proof, CTX)


def test_a_passed_card_opens_for_the_recipient_and_is_not_a_return() -> None:
    held = _held(5)
    to = group.base(BOB)
    new, proof = returned.put_back(held, X, to, group.from_int(4242), CTX, kind=returned.PASSED)
    returned.verify(held, new, group.base(X), to, proof, CTX, kind=returned.PASSED)
    assert elgamal.open_with(new, [group.mul(BOB, new[0])]) == CARDS[5]
    # Replayed as a return, elsewhere, or to another seat: refused.
    with pytest.raises(Tampered, match="the returned card: the proof does not hold"):
        returned.verify(held, new, group.base(X), to, proof, CTX)
    for other in ELSEWHERE:
        with pytest.raises(Tampered, match="the passed card: the proof does not hold"):
            returned.verify(held, new, group.base(X), to, proof, other, kind=returned.PASSED)
    with pytest.raises(Tampered, match="the passed card: the proof does not hold"):
        returned.verify(held, new, group.base(X), group.base(X), proof, CTX, kind=returned.PASSED)
    # A return's proof is not a transfer's either.
    back, proof2 = returned.put_back(held, X, to, group.from_int(4242), CTX)
    with pytest.raises(Tampered, match="the passed card: the proof does not hold"):
        returned.verify(held, back, group.base(X), to, proof2, CTX, kind=returned.PASSED)


def test_the_vectors() -> None:
    hand = [_held(1), _held(7), _held(3)]
    some = oneof.prove_some(hand, X, METAL, CTX, _fixed(b"some-of"))
    assert hashlib.sha256(some).hexdigest() == SOME_OF_VECTOR
    none = oneof.prove_none([_held(1), _held(4)], X, CARDS[:6], CTX, _fixed(b"none-of"))
    assert hashlib.sha256(none).hexdigest() == NONE_OF_VECTOR
    to = group.base(BOB)
    new, proof = returned.put_back(
        _held(5), X, to, group.from_int(4242), CTX, _fixed(b"passed"), kind=returned.PASSED
    )
    assert hashlib.sha256(new[0] + new[1] + proof).hexdigest() == PASSED_VECTOR


SOME_OF_VECTOR = "d8583568a86b2240c727feb95bfb9a9278bb4d752986536e5ba9ce2b89c9109d"
NONE_OF_VECTOR = "2eaefe1a3ebb10d724ce7d51934920e0527027f2d8e78a65e98bb4a677a79fb3"
PASSED_VECTOR = "9d92e945009198c3b947b7663538f6a202edd279e6224068ba60f6f5fc360d42"
