"""Card points: the group element that stands for a card in an encrypted deck
(docs/peer.md §4.1).

M(card, copy) = from_hash(SHA-512("arbiter-card/1" ‖ 0x00 ‖ engine ‖ 0x00 ‖ card id ‖ 0x00 ‖
u32be(copy))), RFC 9496's element derivation, so nobody knows a discrete log between two
cards. ``copy`` numbers the repeats of one id within a deck (Momiji's identical leaves, a
two-deck game), so every slot of a deck decrypts to a distinct point.

The 0x00 bytes separate the fields, so neither the engine's name nor a card id may hold
one: engine "a" + 0x00 + "b" with card "c", and engine "a" with card "b" + 0x00 + "c", would
otherwise hash the same bytes and be the same point (docs/peer-review.md, finding 2).
``point`` refuses them.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbiter.core.errors import Tampered
from arbiter.core.peer import group

LABEL = b"arbiter-card/1"


def point(engine: str, card: str, copy: int) -> bytes:
    if "\x00" in engine or "\x00" in card:
        raise ValueError("an engine name or card id holds 0x00, the card point's separator")
    data = engine.encode() + b"\x00" + card.encode() + b"\x00" + copy.to_bytes(4, "big")
    return group.hash_to_point(LABEL, data)


class DeckPoints:
    """The plaintexts of one deck: each card of the multiset the engine shuffled, with its
    copy number, as points; and the way back from a decrypted point to its card."""

    def __init__(self, engine: str, cards: Sequence[str]):
        self.cards = list(cards)
        seen: dict[str, int] = {}
        self.points: list[bytes] = []
        for card in self.cards:
            copy = seen.get(card, 0)
            seen[card] = copy + 1
            self.points.append(point(engine, card, copy))
        self._card = dict(zip(self.points, self.cards, strict=True))
        self.copies = seen

    def card(self, m: bytes) -> str:
        """The card a decrypted point stands for, or ``Tampered`` (a share was wrong, or
        the card was never in this deck)."""
        found = self._card.get(m)
        if found is None:
            raise Tampered("an opened card is no card of its deck: a share or a shuffle was false")
        return found

    def options(self, engine: str, faces: Sequence[str]) -> list[bytes]:
        """Every point of the deck that stands for one of ``faces`` (all its copies)."""
        return [point(engine, face, c) for face in faces for c in range(self.copies.get(face, 0))]
