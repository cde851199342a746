"""A seat's own hand order in a peer game (docs/peer-mottainai.md §3.8, M-R132).

An engine whose views list a hand in the order its cards came (Mottainai) cannot show
that order from the shared state once the seat has re-randomised its hand: the places
stay, the cards under them move. So the seat keeps the order itself: each card takes
the next rank when it first stands in its hand (a Night's cards in the waiting area's
order, the deal's in deal order), except that cards another seat's hand passed to it
(Puppet) come in card order, as the referee puts them (M-R128). Its private state then
lists the hand by rank (``Engine.hands`` names the lists), exactly as the referee's.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


class Arrival:
    """Ranks of the cards of one seat's hand, by when they came."""

    def __init__(self) -> None:
        self.ranks: dict[str, int] = {}
        self.next = 0
        self.brought: set[str] = set()
        """Entries a pass gave the seat that have not stood in its hand yet (a Puppet's
        cards wait in the waiting area until Night); each counts once."""

    def bring(self, entries: Collection[str]) -> None:
        """A pass gives the seat these entries (the places they keep in the shared state)."""
        self.brought |= set(entries)

    def update(self, entries: Sequence[str], faces: Sequence[str]) -> None:
        """After a settled step: ``entries`` the hand as the shared state lists it, ``faces``
        the cards the seat knows there."""
        self.ranks = {c: r for c, r in self.ranks.items() if c in faces}
        fresh = [i for i, face in enumerate(faces) if face not in self.ranks]
        passed = [i for i in fresh if entries[i] in self.brought]
        self.brought -= {entries[i] for i in passed}
        order = list(fresh)
        for place, i in zip(passed, sorted(passed, key=lambda i: faces[i]), strict=True):
            order[fresh.index(place)] = i
        for i in order:
            self.ranks[faces[i]] = self.next
            self.next += 1

    def arrange(self, hands: Sequence[list[str]]) -> None:
        """Sort each list of ``hands`` (a private state's, in place) by rank; cards not
        ranked yet keep their order, last."""
        if self.ranks:
            last = self.next
            for hand in hands:
                hand.sort(key=lambda card: self.ranks.get(card, last))
