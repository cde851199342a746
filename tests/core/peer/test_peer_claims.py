"""The peer protocol's remaining proofs (docs/peer.md §4.1): a held card put back under the
joint key (Maurer's linear relations), "this card is one of these" (Cramer–Damgård–
Schoenmakers over Chaum–Pedersen) and Feldman's verifiable key escrow — each honest case
accepted, each cheat refused, each bound to its game, seat and message."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from arbiter.core.errors import Tampered
from arbiter.core.peer import elgamal, escrow, group, oneof, returned
from arbiter.core.peer.transcript import Context

CTX = Context("g1", "sha256:" + "ab" * 32, "alice", 7)
ELSEWHERE = [Context("g2", CTX.manifest, "alice", 7), Context("g1", CTX.manifest, "bob", 7),
             Context("g1", CTX.manifest, "alice", 8)]  # fmt: skip
X = group.from_int(424242)  # the holder's per-game secret
OTHERS = [group.from_int(5), group.from_int(6)]
JOINT = elgamal.joint_key([group.base(X), *(group.base(o) for o in OTHERS)])
CARDS = [group.hash_to_point(b"test card", str(i).encode()) for i in range(8)]


def _held(card: int) -> elgamal.Ciphertext:
    """Card ``card`` dealt to the holder: encrypted under the joint key, then the other
    seats' layers stripped (their shares subtracted), so only the holder's key is left."""
    a, b = elgamal.encrypt(CARDS[card], JOINT, group.from_int(1234 + card))
    for o in OTHERS:
        b = group.sub(b, group.mul(o, a))
    return a, b


def test_a_returned_card_is_the_same_card_under_the_joint_key() -> None:
    held = _held(3)
    new, proof = returned.put_back(held, X, JOINT, group.from_int(77), CTX)
    returned.verify(held, new, group.base(X), JOINT, proof, CTX)
    # Everyone's shares open it to card 3 again.
    shares = [group.mul(x, new[0]) for x in (X, *OTHERS)]
    assert elgamal.open_with(new, shares) == CARDS[3]
    for other in ELSEWHERE:
        with pytest.raises(Tampered, match="does not hold"):
            returned.verify(held, new, group.base(X), JOINT, proof, other)
    # Swapping in another card (a fresh encryption of card 0) fails.
    swapped = elgamal.encrypt(CARDS[0], JOINT, group.from_int(77))
    with pytest.raises(Tampered, match="does not hold"):
        returned.verify(held, swapped, group.base(X), JOINT, proof, CTX)
    # So does a proof made for card 3 by a seat that does not hold it (another secret).
    with pytest.raises(Tampered, match="does not hold"):
        _, forged = returned.put_back(held, group.from_int(9), JOINT, group.from_int(77), CTX)
        returned.verify(held, new, group.base(X), JOINT, forged, CTX)


def test_a_card_is_one_of_a_set_without_saying_which() -> None:
    held = _held(5)
    options = CARDS[4:8]  # "a card of another material", say
    proof = oneof.prove(held, X, options, CTX)
    oneof.verify(held, group.base(X), options, proof, CTX)
    assert len(proof) == 64 * 4
    with pytest.raises(ValueError, match="not among the options"):
        oneof.prove(held, X, CARDS[:4], CTX)
    # The same proof against a set without the card, another order, or elsewhere: refused.
    with pytest.raises(Tampered, match="does not hold"):
        oneof.verify(held, group.base(X), [*CARDS[:3], CARDS[7]], proof, CTX)
    with pytest.raises(Tampered, match="does not hold"):
        oneof.verify(held, group.base(X), list(reversed(options)), proof, CTX)
    for other in ELSEWHERE:
        with pytest.raises(Tampered, match="does not hold"):
            oneof.verify(held, group.base(X), options, proof, other)
    # Every branch looks alike: the true one is not where the responses differ in shape.
    assert len({proof[i : i + 32] for i in range(0, len(proof), 32)}) == 8


def test_escrow_shares_check_and_any_threshold_rebuilds_the_key() -> None:
    count = iter(range(1000))

    def draw() -> bytes:
        return group.hash_to_scalar(hmac.digest(b"escrow", next(count).to_bytes(8, "big"), "sha256"))

    commitments, shares = escrow.deal(X, threshold=2, holders=3, draw=draw)
    assert commitments[0] == group.base(X)
    for i, share in enumerate(shares, start=1):
        escrow.check(i, share, commitments)
    for pick in ({1: shares[0], 2: shares[1]}, {1: shares[0], 3: shares[2]}, {2: shares[1], 3: shares[2]}):
        assert escrow.rebuild(pick) == X
    assert escrow.rebuild({1: shares[0]}) != X  # below the threshold: not the key
    with pytest.raises(Tampered, match="share 2 does not match"):
        escrow.check(2, group.s_add(shares[1], group.from_int(1)), commitments)
    with pytest.raises(Tampered, match="share 1 does not match"):
        escrow.check(1, shares[1], commitments)  # another holder's share
    # Frozen: the shares a fixed polynomial gives.
    digest = hashlib.sha256(b"".join(commitments + shares)).hexdigest()
    assert digest == ESCROW_VECTOR


ESCROW_VECTOR = "ea386ad51bac7ea9788b1a310f5e719b244c8bba606febf17fdf491ff91e3b97"


def _fixed(label: bytes):  # type: ignore[no-untyped-def]
    count = iter(range(1000))
    return lambda: group.hash_to_scalar(hmac.digest(label, next(count).to_bytes(8, "big"), "sha256"))


def test_the_vectors() -> None:
    held = _held(3)
    new, proof = returned.put_back(held, X, JOINT, group.from_int(77), CTX, _fixed(b"returned"))
    assert hashlib.sha256(new[0] + new[1] + proof).hexdigest() == RETURNED_VECTOR
    claim = oneof.prove(_held(5), X, CARDS[4:8], CTX, _fixed(b"one-of"))
    assert hashlib.sha256(claim).hexdigest() == ONE_OF_VECTOR


RETURNED_VECTOR = "dccfbbb4f25277cee8a691639526f57dc6b1cf832703836826feb1fc61798fa2"
ONE_OF_VECTOR = "31943ca013d85cc2674d7b613527f2a6abdd070b8fdc92b282cbbfa03fe60cc0"
