"""An encrypted deck of a peer game (docs/peer.md §4.1, §4.3): its plaintexts, its
ciphertexts after each seat's shuffle, and the opening of one slot from the seats' shares.

A deck starts as the public encryption of its cards with randomness 1, (G, M + X) under
the joint key X: anyone computes it, so everyone starts from the same ciphertexts. Each
seat then re-encrypts and permutes it with a proof, in seat order; after the last shuffle
no coalition short of all seats knows which slot holds which card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arbiter.core.peer import elgamal, group
from arbiter.core.peer.cards import DeckPoints
from arbiter.core.peer.elgamal import Ciphertext


@dataclass
class Deck:
    """One deck: ``points`` (its plaintexts), ``cipher`` (its slots now), ``shuffled``
    (how many seats, in seat order, have shuffled it)."""

    id: str
    points: DeckPoints
    cipher: list[Ciphertext] = field(default_factory=list)
    shuffled: int = 0

    @classmethod
    def start(cls, deck_id: str, engine: str, cards: Sequence[str], joint: bytes) -> Deck:
        points = DeckPoints(engine, cards)
        one = group.from_int(1)
        return cls(deck_id, points, [elgamal.encrypt(m, joint, one) for m in points.points])

    def slot(self, index: int) -> Ciphertext:
        return self.cipher[index]

    def without(self, index: int, shares: Mapping[str, bytes]) -> Ciphertext:
        """Slot ``index`` with the given seats' shares taken off: what remains is an
        encryption under the one key whose share is missing."""
        a, b = self.cipher[index]
        return a, elgamal.open_with((a, b), list(shares.values()))
