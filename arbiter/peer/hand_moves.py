"""How hidden cards change places in a peer game (docs/peer-mottainai.md §3.2–§3.7), the
checks ``PeerGame`` makes of the messages that move them, as a mixin of it: a card
returned face down to a new place of its deck, a fact about a hidden hand with its proof,
a hand passed to another seat (Puppet), a card everyone saw hidden again before it goes
back. Mottainai is the engine that needs them (``Engine.hands``, ``Engine.passes``);
Momiji and Mot Coin never send them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arbiter.core.engine import Action, Engine
from arbiter.core.errors import Tampered
from arbiter.core.hidden import PLACEHOLDER, Fact, placeholder, substitute
from arbiter.core.peer import group, oneof, returned
from arbiter.core.peer.elgamal import Ciphertext
from arbiter.core.peer.transcript import Context
from arbiter.peer import wire
from arbiter.peer.decks import Deck


@dataclass
class Pass:
    """A hand that changed seats: ``holder``'s ``cards`` in the order they stood (ids and
    placeholders), the hidden ones re-encrypted to ``to``'s key (``cipher``, by card),
    ``kept`` what the holder held just before (it decrypts them to narrate the step that
    moved them)."""

    holder: str
    to: str
    cards: list[str]
    cipher: dict[str, Ciphertext]
    kept: dict[str, Ciphertext]


class HandMoves:
    """The part of ``PeerGame`` that moves hidden cards between hands and decks."""

    engine: Engine
    seats: list[str]
    keys: dict[str, bytes]
    joint: bytes
    decks: dict[str, Deck]
    state: Any
    opened: dict[str, str]
    told: dict[str, set[str]]
    asked: dict[str, set[str]]
    shares: dict[str, dict[str, bytes]]
    held: dict[str, tuple[str, Ciphertext]]
    arrived: dict[str, int]
    passed: list[Pass]
    returned: dict[str, tuple[str, str]]

    def deck_of(self, card: str) -> Deck:
        """The deck a placeholder names (its slot may be one a decision is adding)."""
        found = PLACEHOLDER.fullmatch(card)
        if found is None or found.group(1) not in self.decks:
            raise Tampered(f"{card!r} is no card of this game's decks")
        return self.decks[found.group(1)]

    def locate(self, card: str) -> tuple[Deck, int]:
        """The deck and slot of a placeholder the game holds."""
        deck = self.deck_of(card)
        slot = int(card.rpartition(".")[2])
        if slot >= len(deck.cipher):
            raise Tampered(f"{card!r} is no card of this game's decks")
        return deck, slot

    def _hand_over(self, moved: Pass) -> None:
        """Cards passed to another seat are held by it now (it alone opens them). Each is
        marked as arrived alone, so that its new holder re-randomises its hand before it
        shows one: the order they came in tells nothing then."""
        self.passed.append(moved)
        for card, cipher in moved.cipher.items():
            self.shares.pop(card, None)  # shares of its old ciphertext open nothing now
            self.held[card] = (moved.to, cipher)
            self.told[moved.to].add(card)
            self.arrived[card] = -2 - len(self.arrived)

    def _put_back(
        self, seat: str, returns: Mapping[str, Ciphertext], state: Any
    ) -> tuple[Any, dict[str, str]]:
        """Each card ``seat``'s step returned face down takes a new place at the end of its
        deck's slots, holding its new joint ciphertext: the old place's shares were sent
        to open it for its holder, so they must never meet it again (§3.2). Returns the
        state with the cards renamed, and the renaming."""
        renamed = {}
        for card, cipher in returns.items():
            deck, _ = self.locate(card)
            deck.cipher.append(cipher)
            renamed[card] = new = placeholder(deck.id, len(deck.cipher) - 1)
            self.returned[new] = (seat, card)
        return self.engine.decode(substitute(self.engine.encode(state), renamed)), renamed

    def remembered(self, seat: str, state: Any = None) -> set[str]:
        """The cards ``seat`` returned face down and knows without an opening, while they
        are out of its hand (its view lists them, M-R18): nobody shares them for it (a
        share sent then would open the card to everyone once another seat draws it).
        Back in its hand, a card is opened to it as any drawn card is, so that it holds
        it again."""
        mine = {new for new, (who, _) in self.returned.items() if who == seat}
        if not mine:
            return mine
        table = self.state if state is None else state
        hand = {c for cards in self.engine.hands(table, seat) for c in cards}
        return mine - hand

    def moving(
        self, seat: str, state: Any, action: Action, held: Mapping[str, tuple[str, Ciphertext]]
    ) -> list[tuple[str, str, list[str]]]:
        """What a decision moves between hands (``Engine.passes``), by holder: (holder,
        recipient, its cards in the order they stand in its hand), the decision's seat
        first. Each hidden one must be held by its holder (who re-encrypts it)."""
        wanted = self.engine.passes(state, seat, action)
        groups: dict[tuple[str, str], list[str]] = {}
        found = 0
        for holder in self.seats:
            for card in (c for cards in self.engine.hands(state, holder) for c in cards):
                if card not in wanted:
                    continue
                found += 1
                # Another holder's card still being opened to it passes once it is (§3.7).
                pending = holder != seat and card in self.asked[holder]
                if _is_card(card) and held.get(card, ("",))[0] != holder and not pending:
                    raise Tampered(f"{card} moves to {wanted[card]}, {holder} holds no key to it")
                groups.setdefault((holder, wanted[card]), []).append(card)
        if found != len(wanted):
            raise Tampered("the decision moves cards that are in nobody's hand")
        rank = {s: i for i, s in enumerate(self.seats)}
        keys = sorted(groups, key=lambda k: (k[0] != seat, rank[k[0]], rank[k[1]]))
        return [(h, to, groups[(h, to)]) for h, to in keys]

    def _check_passes(
        self,
        seat: str,
        value: Any,
        held: Mapping[str, tuple[str, Ciphertext]],
        state: Any,
        action: Action,
        context: Context,
    ) -> tuple[list[Pass], list[tuple[str, str, list[str]]]]:
        """The decision's own cards that change hands, passed with it; the others' are
        owed by their holders after the step."""
        groups = self.moving(seat, state, action, held)
        mine = [g for g in groups if g[0] == seat]
        return self._passes(seat, value, mine, held, context), [g for g in groups if g[0] != seat]

    def _passes(
        self,
        seat: str,
        value: Any,
        groups: list[tuple[str, str, list[str]]],
        held: Mapping[str, tuple[str, Ciphertext]],
        context: Context,
    ) -> list[Pass]:
        """Check each hand passed: every hidden card re-encrypted to the recipient's key
        with its proof (``returned``, kind passed/1)."""
        items = value if value is not None else []
        if not isinstance(items, list) or len(items) != len(groups):
            raise Tampered(f"it must pass {len(groups)} hand(s) to other seats")
        out = []
        for (_, to, cards), item in zip(groups, items, strict=True):
            if not isinstance(item, dict) or item.get("to") != to or item.get("cards") != cards:
                raise Tampered(f"it must pass {', '.join(cards)} to {to}, in that order")
            hidden = [c for c in cards if _is_card(c)]
            new = _cards(item.get("cipher"), len(hidden)) if hidden else []
            if not hidden and item.get("cipher"):
                raise Tampered("cards everyone knows change hands with no ciphertext")
            proofs = item.get("proofs")
            if not isinstance(proofs, list) or len(proofs) != len(hidden):
                raise Tampered("each hidden card passed needs its proof")
            for card, c, pr in zip(hidden, new, proofs, strict=True):
                returned.verify(
                    held[card][1], c, self.keys[seat], self.keys[to],
                    wire.unhex(pr, "a pass's proof"), context, kind=returned.PASSED,
                )  # fmt: skip
            out.append(
                Pass(
                    seat,
                    to,
                    list(cards),
                    dict(zip(hidden, new, strict=True)),
                    {c: held[c][1] for c in hidden},
                )
            )
        return out

    def _check_returns(
        self,
        seat: str,
        value: Any,
        held: Mapping[str, tuple[str, Ciphertext]],
        opened: Mapping[str, str],
        state: Any,
        context: Context,
    ) -> dict[str, Ciphertext]:
        """Each card returned face down: one its seat holds hidden in its hand, and a new
        joint ciphertext proven to hold the same card (``core.peer.returned``)."""
        if value is None:
            return {}
        if not isinstance(value, list):
            raise Tampered("its returns are not a list")
        hand = {c for cards in self.engine.hands(state, seat) for c in cards}
        out: dict[str, Ciphertext] = {}
        for item in value:
            card = item.get("card") if isinstance(item, dict) else None
            if not isinstance(card, str) or card in out:
                raise Tampered("a return does not name its card once")
            if card in opened or held.get(card, ("",))[0] != seat or card not in hand:
                raise Tampered(f"{card} is not a card this seat holds hidden in its hand")
            (new,) = _cards([item.get("cipher")], 1)
            proof = wire.unhex(item.get("proof"), f"the proof of {card}'s return")
            returned.verify(held[card][1], new, self.keys[seat], self.joint, proof, context)
            out[card] = new
        return out

    def _check_facts(
        self,
        seat: str,
        value: Any,
        held: Mapping[str, tuple[str, Ciphertext]],
        opened: Mapping[str, str],
        context: Context,
    ) -> dict[Fact, bool]:
        """Each fact about the seat's hidden cards, with its proof: presence (one of them
        is one of the faces) or absence (each is one of its deck's other faces)."""
        if value is None:
            return {}
        if not isinstance(value, list):
            raise Tampered("its facts are not a list")
        out: dict[Fact, bool] = {}
        for item in value:
            if not isinstance(item, dict):
                raise Tampered("a fact is not an object")
            cards, faces = item.get("cards"), item.get("faces")
            if not isinstance(cards, list) or not isinstance(faces, list):
                raise Tampered("a fact names no cards or faces")
            fact = Fact(seat, tuple(cards), tuple(faces))
            if fact in out or list(faces) != sorted(set(faces)):
                raise Tampered("a fact is given twice, or its faces are not a sorted set")
            for card in cards:
                if card in opened or held.get(card, ("",))[0] != seat:
                    raise Tampered(f"{card} is not a card this seat holds hidden")
            proof = wire.unhex(item.get("proof"), "the proof of a fact")
            holds = item.get("holds")
            if not isinstance(holds, bool):
                raise Tampered("a fact does not say whether the cards hold one of the faces")
            self._verify_fact(seat, fact, holds, held, proof, context)
            out[fact] = holds
        return out

    def _verify_fact(
        self,
        seat: str,
        fact: Fact,
        holds: bool,
        held: Mapping[str, tuple[str, Ciphertext]],
        proof: bytes,
        context: Context,
    ) -> None:
        cipher = [held[card][1] for card in fact.cards]
        key = self.keys[seat]
        if holds:
            faces: list[bytes] = []
            for deck_id in sorted({_slot_deck(c) for c in fact.cards}):
                faces += self.decks[deck_id].points.options(self.engine.info.name, fact.faces)
            if not faces:
                raise Tampered("a fact of presence names no face its cards' decks hold")
            oneof.verify_some(cipher, key, faces, proof, context)
            return
        size = 0
        for card, c in zip(fact.cards, cipher, strict=True):
            others = self.others(card, fact.faces)
            part = proof[size : size + 64 * len(others)]
            size += 64 * len(others)
            oneof.verify_none([c], key, others, part, context)
        if size != len(proof):
            raise Tampered("the claim of absence has the wrong size")

    def others(self, card: str, faces: tuple[str, ...]) -> list[bytes]:
        """The points of ``card``'s deck that are none of ``faces`` (an absence's options)."""
        deck = self.deck_of(card)
        asked = set(deck.points.options(self.engine.info.name, faces))
        return [m for m in deck.points.points if m not in asked]

    def concealing(self, seat: str, cards: list[str], state: Any) -> dict[str, str]:
        """Where each card ``seat``'s hand holds by id goes when the seat hides it again
        (docs/peer-mottainai.md §3.3): a new place at the end of its deck's slots, in
        order."""
        counts: dict[str, int] = {}
        hand = [c for cards_ in self.engine.hands(state, seat) for c in cards_]
        out = {}
        for card in cards:
            if card not in hand or _is_card(card):
                raise Tampered(f"{card} is not a card its hand holds in everyone's sight")
            deck = self._deck_holding(card)
            n = counts.get(deck.id, len(deck.cipher))
            counts[deck.id] = n + 1
            out[card] = placeholder(deck.id, n)
        return out

    def _deck_holding(self, card: str) -> Deck:
        for deck_id in sorted(self.decks, key=lambda d: int(d[1:])):
            if self.decks[deck_id].points.copies.get(card):
                return self.decks[deck_id]
        raise Tampered(f"{card} is no card of this game's decks")

    def hidden_again(self, seat: str, card: str) -> Ciphertext:
        """A card everyone knows, under ``seat``'s key alone, as anyone computes it:
        (G, M + X) — the deck's start under the joint key, (G, M + J), less every other
        seat's share of G, which is its public key."""
        deck = self._deck_holding(card)
        (m,) = deck.points.options(self.engine.info.name, [card])[:1]
        return group.BASE, group.add(m, self.keys[seat])

    def _concealed(
        self, seat: str, value: Any, state: Any, held: dict[str, tuple[str, Ciphertext]]
    ) -> tuple[Any, dict[str, str]]:
        """A decision's concealment: the cards named go back under placeholders in the
        seat's hand (the returned state), each held under its key as anyone computes it."""
        if value is None:
            return state, {}
        if not isinstance(value, list) or not value or not all(isinstance(c, str) for c in value):
            raise Tampered("its concealment is not a list of cards")
        if len(set(value)) != len(value):
            raise Tampered("it conceals a card twice")
        renamed = self.concealing(seat, value, state)
        state = self.engine.copy(state)
        for hand in self.engine.hands(state, seat):
            hand[:] = [renamed.get(c, c) for c in hand]
        for card, place in renamed.items():
            held[place] = (seat, self.hidden_again(seat, card))
        return state, renamed


def _cards(value: Any, n: int) -> list[Ciphertext]:
    if not isinstance(value, list) or len(value) != n:
        raise Tampered(f"the shuffled deck does not list {n} cards")
    out = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise Tampered("a card of the shuffled deck is not a pair of points")
        out.append(
            (
                group.point(wire.unhex(pair[0], "a card"), "a card"),
                group.point(wire.unhex(pair[1], "a card"), "a card"),
            )
        )
    return out


def _is_card(card: str) -> bool:
    """A placeholder (a hidden card), not an id everyone knows."""
    return PLACEHOLDER.fullmatch(card) is not None


def _slot_deck(card: str) -> str:
    found = PLACEHOLDER.fullmatch(card)
    assert found is not None
    return found.group(1)
