"""The Terelius–Wikström proof of shuffle (arbiter/core/peer/shuffle.py): an honest
shuffle verifies and decrypts to the same cards; every way the study found to cheat a
deck is refused — a duplicated card, a card the shuffler encrypted itself, a proof replayed
in another game or by another seat, a changed scalar — and a fixed-randomness shuffle
is frozen as a vector."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

import pytest

from arbiter.core.errors import Tampered
from arbiter.core.peer import elgamal, group, shuffle
from arbiter.core.peer.transcript import Context

CTX = Context("g1", "sha256:" + "ab" * 32, "alice", 1)
SECRETS = [group.from_int(n) for n in (1111, 2222, 3333)]
KEY = elgamal.joint_key([group.base(x) for x in SECRETS])
CARDS = [group.hash_to_point(b"test card", str(i).encode()) for i in range(12)]
# The deck before any shuffle: each card in the clear, (0·G, M), as a deck starts.
DECK = [(group.IDENTITY, m) for m in CARDS]


def fixed(label: bytes) -> Callable[[], bytes]:
    """Deterministic secret scalars (for the vector only)."""
    count = iter(range(10**6))
    return lambda: group.hash_to_scalar(hmac.digest(label, next(count).to_bytes(8, "big"), "sha256"))


def _open(deck: list[elgamal.Ciphertext]) -> list[bytes]:
    return sorted(elgamal.open_with(c, [group.mul(x, c[0]) for x in SECRETS]) for c in deck)


def test_three_shuffles_verify_and_the_deck_still_holds_every_card() -> None:
    deck = DECK
    for seat, seq in (("alice", 1), ("bob", 2), ("carol", 3)):
        context = Context("g1", CTX.manifest, seat, seq)
        out, proof = shuffle.shuffle(deck, KEY, context)
        again = shuffle.Proof.from_bytes(proof.to_bytes(), len(deck))
        shuffle.verify(deck, out, KEY, again, context)
        assert out != deck
        deck = out
    assert _open(deck) == sorted(CARDS)
    assert len(proof.to_bytes()) == 32 * (5 * 12 + 9)


def test_the_vector() -> None:
    out, proof = shuffle.shuffle(DECK[:5], KEY, CTX, fixed(b"vector"))
    shuffle.verify(DECK[:5], out, KEY, proof, CTX)
    assert hashlib.sha256(proof.to_bytes()).hexdigest() == VECTOR
    assert hashlib.sha256(b"".join(a + b for a, b in out)).hexdigest() == VECTOR_DECK


VECTOR = "6d490c2c2fbe2cc66affe2591a6f578194362fd70b8e55098f0343b70268003b"
VECTOR_DECK = "d5ee7750fa22b0e6412e551c6a4a7c4c2c8fc46ff8eeaaafb6956c9bcf09aeee"


def _honest() -> tuple[list[elgamal.Ciphertext], shuffle.Proof]:
    return shuffle.shuffle(DECK, KEY, CTX)


def test_a_duplicated_card_is_refused() -> None:
    out, proof = _honest()
    forged = [*out[:-1], elgamal.reencrypt(out[0], KEY, group.from_int(5))]
    with pytest.raises(Tampered, match="not a re-encrypted permutation"):
        shuffle.verify(DECK, forged, KEY, proof, CTX)
    # ... even with a fresh proof made for it: no permutation gives that deck.
    with pytest.raises(Tampered, match="not a re-encrypted permutation"):
        psi = list(range(12))
        r = [group.from_int(7 + i) for i in range(12)]
        dup = [elgamal.reencrypt(DECK[0 if i == 11 else i], KEY, r[i]) for i in range(12)]
        made = shuffle.prove(DECK, dup, psi, r, KEY, CTX, fixed(b"cheat"))
        shuffle.verify(DECK, dup, KEY, made, CTX)


def test_a_card_the_shuffler_encrypted_itself_is_refused() -> None:
    """The cheat the proof exists for: swap in an encryption of a card of one's choosing
    (here card 0 again, so the cheater would know where it is)."""
    psi = list(range(12))
    r = [group.from_int(11 + i) for i in range(12)]
    out = [elgamal.reencrypt(DECK[i], KEY, r[i]) for i in range(12)]
    out[5] = elgamal.encrypt(CARDS[0], KEY, group.from_int(99))
    made = shuffle.prove(DECK, out, psi, r, KEY, CTX, fixed(b"cheat"))
    with pytest.raises(Tampered, match="not a re-encrypted permutation"):
        shuffle.verify(DECK, out, KEY, made, CTX)


def test_a_proof_replayed_elsewhere_or_changed_is_refused() -> None:
    out, proof = _honest()
    for other in (Context("g2", CTX.manifest, "alice", 1), Context("g1", CTX.manifest, "bob", 1),
                  Context("g1", CTX.manifest, "alice", 2)):  # fmt: skip
        with pytest.raises(Tampered, match="does not hold"):
            shuffle.verify(DECK, out, KEY, proof, other)
    data = bytearray(proof.to_bytes())
    changed = shuffle.Proof(proof.commitments, proof.chain, proof.t,
                            (group.s_add(proof.s[0], group.from_int(1)), *proof.s[1:]))  # fmt: skip
    with pytest.raises(Tampered, match="does not hold"):
        shuffle.verify(DECK, out, KEY, changed, CTX)
    with pytest.raises(Tampered, match="a shuffle proof of 12 cards has 2208 bytes, not 2176"):
        shuffle.Proof.from_bytes(bytes(data[:-32]), 12)
    with pytest.raises(Tampered, match="not the 12"):
        shuffle.verify(DECK, out[:-1], KEY, proof, CTX)
    other_key = group.base(group.from_int(4))
    with pytest.raises(Tampered, match="does not hold"):
        shuffle.verify(DECK, out, other_key, proof, CTX)
