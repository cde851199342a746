"""A seat's private side of a peer game (docs/peer.md §3.1, §4.3): its per-game secret,
the cards opened to it alone, its private state, and the message it owes.

The secret comes from the OS CSPRNG (``core.peer.fresh``) and never leaves this object
until the end of the game, when ``reveal`` publishes it for ``arbiter verify``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter.core.engine import Action, Event
from arbiter.core.hidden import (
    Fact,
    Facts,
    Hidden,
    PeerRng,
    as_rng,
    placeholders,
    private_state,
    substitute,
)
from arbiter.core.peer import dleq, fresh, group, oneof, returned, schnorr, shuffle
from arbiter.core.peer.elgamal import open_with
from arbiter.peer import wire
from arbiter.peer.arrival import Arrival
from arbiter.peer.hand_moves import _is_card
from arbiter.peer.protocol import (
    DECISION,
    FACTS,
    KEY,
    PASSES,
    SHARES,
    SHUFFLE,
    PeerGame,
    _slot_order,
)

Choose = Callable[[Any, str, list[Action]], Action]
"""A decision maker: (its private state, its seat, the legal decisions) → one of them."""


class PeerSeat:
    """A seat of a peer game. Everything it knows follows from its secret and the game's
    messages, so a seat that restarts is rebuilt by attaching a new ``PeerSeat`` (with the
    saved ``secret``) to a ``PeerGame`` and feeding it the messages again."""

    def __init__(
        self,
        game: PeerGame,
        seat: str,
        draw: Callable[[], bytes] = fresh.scalar,
        secret: bytes | None = None,
        record: bool = False,
    ):
        self.game = game
        self.seat = seat
        self.draw = draw
        self.secret = secret
        self.record = record
        self.seen: list[dict[str, Any]] = []
        """With ``record``: its view after each step it has read (tests and ``arbiter
        verify`` compare them with the referee's)."""
        self.drafts: list[tuple[Any, list[Event], frozenset[str]]] = []
        """The settled steps it has not read yet, as it knew them when they settled: its
        private state (encoded) and the step's events, the cards being opened to it still
        hidden there, and those cards (docs/peer-mottainai.md §3.5)."""
        self.read = 0
        """How many settled steps it has read: their openings to it are all in
        (``PeerGame.ready``), its hand ranked and its log narrated after each."""
        self.last: Any = None
        """Its private state after the last step it has read."""
        self.lines: list[str] = []
        """Its log so far."""
        self._faces: dict[Any, str] = {}
        self.arrival = Arrival()
        self._passes_seen = 0
        """Its hand's order (docs/peer-mottainai.md §3.8): shown as the referee shows it,
        though re-randomising moved its cards among their places."""
        game.before_mix.append(self._before_mix)
        game.on_settle.append(self._settled)

    # -- what it knows ---------------------------------------------------------------
    def _face(self, card: str, cipher: Any) -> str:
        """The card under a ciphertext held under its key (each decrypted once: views ask
        for the whole hand after every step)."""
        found = self._faces.get(cipher)
        if found is None:
            assert self.secret is not None
            deck = self.game.deck_of(card)  # a place being added has no slot yet
            a, b = cipher
            found = self._faces[cipher] = deck.points.card(group.sub(b, group.mul(self.secret, a)))
        return found

    def own(self, held: dict[str, Any] | None = None) -> dict[str, str]:
        """The cards opened to this seat alone (placeholder → card): its held ciphertexts
        decrypted with its secret (``held``: new ones it is about to send)."""
        out = {}
        for card, (holder, cipher) in self.game.held.items():
            if holder == self.seat and card not in self.game.opened:
                out[card] = self._face(card, (held or {}).get(card, cipher))
        for card, cipher in (held or {}).items():  # cards it is hiding again (§3.3)
            if card not in out:
                out[card] = self._face(card, cipher)
        # The cards it returned face down: it knows them by the place they left (M-R18).
        for new, (seat, card) in self.game.returned.items():
            if seat == self.seat and new not in self.game.opened and new not in self.game.held:
                out[new] = out.get(card) or self._face(card, self.game.held[card][1])
        return out

    def known(self, held: dict[str, Any] | None = None) -> dict[str, str]:
        return {**self.game.opened, **self.own(held)}

    def private(self) -> Any:
        return self._in_order(private_state(self.game.engine, self.game.state, self.known()))

    def _in_order(self, state: Any) -> Any:
        """``state`` with its hand in arrival order (``Arrival``)."""
        self.arrival.arrange(self.game.engine.hands(state, self.seat))
        return state

    def _settled(self) -> None:
        """Each step that settles is kept as the seat knows it then (a later
        re-randomisation or pass changes what its places hold); it reads the step once the
        cards being opened to it are in, which may be some steps after everyone else
        (docs/peer-mottainai.md §3.5): it narrates it and ranks its hand, in order."""
        if self.secret is None:
            return
        game = self.game
        engine = game.engine
        while self.read + len(self.drafts) < game.settled:
            step = self.read + len(self.drafts)
            known = self.known()
            # Its log names the cards it passed away too (the step that moved them).
            named = {**self.gone(), **known}
            events = game.history[step][1]
            told = [Event(e.kind, substitute(e.data, named), e.barrier) for e in events]
            encoded = substitute(engine.encode(game.states[step]), known)
            self.drafts.append((encoded, told, frozenset(game.asked[self.seat])))
        if self.read < game.ready[self.seat]:
            known = self.known()
            while self.read < game.ready[self.seat]:
                encoded, told, pending = self.drafts.pop(0)
                fill = {card: known[card] for card in pending if card in known}
                private = engine.decode(substitute(encoded, fill))
                self._rank(game.states[self.read], private)
                self.read += 1
                for event in told:
                    data = substitute(event.data, fill)
                    line = engine.describe(Event(event.kind, data, event.barrier), self.seat)
                    if line is not None:
                        self.lines.append(line)
                self.last = self._in_order(private)
                if self.record:
                    self.seen.append(engine.view(self.last, self.seat))

    def _rank(self, shared: Any, private: Any) -> None:
        """Rank its hand after a step: the entries ``shared`` lists, the cards of
        ``private``."""
        engine = self.game.engine
        for moved in self.game.passed[self._passes_seen :]:
            if moved.to == self.seat:
                self.arrival.bring(moved.cards)
        self._passes_seen = len(self.game.passed)
        entries = [c for cards in engine.hands(shared, self.seat) for c in cards]
        faces = [c for cards in engine.hands(private, self.seat) for c in cards]
        self.arrival.update(entries, faces)

    def view(self) -> dict[str, Any]:
        return self.game.engine.view(self.private(), self.seat)

    def log(self) -> list[str]:
        self._settled()
        return list(self.lines)

    def gone(self) -> dict[str, str]:
        """The cards it passed to another seat (Puppet), as it held them then: it narrates
        the step that moved them, though only their new holder opens them now."""
        out = {}
        for moved in self.game.passed:
            if moved.holder == self.seat:
                out.update({card: self._face(card, c) for card, c in moved.kept.items()})
        return out

    def _before_mix(self, seat: str) -> None:
        if seat == self.seat:
            self._settled()

    # -- what it sends ---------------------------------------------------------------
    def compose(self, choose: Choose) -> dict[str, Any]:
        """The message this seat owes now (``choose`` decides when it is its turn)."""
        owed = self.game.owed(self.seat)
        if owed is None:
            raise ValueError(f"{self.seat} owes nothing in round {self.game.round}")
        message = wire.head(self.game.game, self.seat, self.game.round, self.game.head)
        context = self.game.context(self.seat)
        if owed.kind == KEY:
            if self.secret is None:
                self.secret = self.draw()
            message["key"] = wire.hexed(group.base(self.secret))
            message["proof"] = wire.hexed(schnorr.prove(self.secret, context))
        elif owed.kind == SHUFFLE:
            message["shuffles"] = []
            for deck_id in owed.decks:
                deck = self.game.decks[deck_id]
                out, proof = shuffle.shuffle(deck.cipher, self.game.joint, context, self.draw)
                cards = [[wire.hexed(a), wire.hexed(b)] for a, b in out]
                message["shuffles"].append(
                    {"deck": deck_id, "cards": cards, "proof": wire.hexed(proof.to_bytes())}
                )
        elif owed.kind == SHARES:
            message["shares"] = [self._share(card) for card in owed.cards]
        elif owed.kind == FACTS:
            assert owed.fact is not None
            message["facts"] = [self._fact(owed.fact, self._holds(owed.fact, {}), {})]
        elif owed.kind == PASSES:
            groups = [g for g in self.game.passing if g[0] == self.seat]
            message["passes"] = [self._pass(to, cards, {}) for _, to, cards in groups]
        else:
            assert owed.kind == DECISION
            message.update(self._decide(choose, owed.cards))
        return message

    def _cipher(self, card: str, held: dict[str, Any] | None) -> Any:
        """The ciphertext it answers for ``card``: a new one it is about to send
        (``held``), else the game's."""
        if held and card in held:
            return held[card]
        return self.game.cipher(card)

    def _share(self, card: str, held: dict[str, Any] | None = None) -> dict[str, str]:
        assert self.secret is not None
        a = self._cipher(card, held)[0]
        share, proof = dleq.share(self.secret, a, self.game.context(self.seat), self.draw())
        return {"card": card, "share": wire.hexed(share), "proof": wire.hexed(proof)}

    def riding(self, cards: tuple[str, ...]) -> dict[str, str]:
        """The public cards its own shares of ``cards`` open, the others' being in."""
        assert self.secret is not None
        public = placeholders(self.game.engine.view(self.game.state, None))
        out = {}
        for card in cards:
            have = self.game.shares.get(card, {})
            others = [s for s in self.game.owners(card) if s != self.seat]
            if card in public and all(s in have for s in others):
                a, b = self.game.cipher(card)
                deck, _ = self.game.locate(card)
                mine = group.mul(self.secret, a)
                out[card] = deck.points.card(open_with((a, b), [*(have[s] for s in others), mine]))
        return out

    def _decide(self, choose: Choose, riding: tuple[str, ...] = ()) -> dict[str, Any]:
        """Its decision, with the shares riding on it (docs/peer.md §5.2), the openings of
        the hidden cards it shows and the claims of those it keeps (§3.5)."""
        engine = self.game.engine
        shown = self.riding(riding)
        shared = private_state(engine, self.game.state, {**self.game.opened, **shown})
        state = self._in_order(private_state(engine, self.game.state, {**shown, **self.known()}))
        action = choose(state, self.seat, engine.legal_actions(state, self.seat))
        out: dict[str, Any] = {}
        if riding:
            out["shares"] = [self._share(card) for card in riding]
        held: dict[str, Any] = {}
        disclosure = engine.disclose(shared, self.seat, action, self.known(), self._order())
        hiding, extra = self._conceal(shared, disclosure.concealed)
        if hiding is not None:
            out["conceal"] = list(disclosure.concealed)
            shared = hiding
        if disclosure.shown or disclosure.kept or hiding is not None:
            mixed = self._mix(hiding, extra)
            if mixed is not None:
                out["rerandomise"], held = mixed
                known = self.known(held)
                disclosure = engine.disclose(shared, self.seat, action, known, self._order())
        mine = self.own(held)
        out["decision"] = disclosure.public
        if disclosure.shown:
            out["openings"] = [self._share(card, held) for card in disclosure.shown]
        opened = {**self.game.opened, **shown, **{c: mine[c] for c in disclosure.shown}}
        after = private_state(engine, shared, opened)
        if disclosure.kept:
            wanted = engine.claims(after, self.seat, disclosure.public)
            out["claims"] = [self._claim(card, wanted[card], held) for card in disclosure.kept]
        if disclosure.returned:
            out["returns"] = [self._return(card, held) for card in disclosure.returned]
        everything = {**self.game.held, **{c: (self.seat, x) for c, x in held.items()}}
        moving = [
            g for g in self.game.moving(self.seat, after, disclosure.public, everything)
            if g[0] == self.seat
        ]  # fmt: skip
        if moving:
            out["passes"] = [self._pass(to, cards, held) for _, to, cards in moving]
        facts = self._foresee(after, disclosure.public, opened, mine)
        if facts:
            out["facts"] = [self._fact(fact, holds, held) for fact, holds in facts.items()]
        # Its own shares of the cards its decision lays open travel with it (§5.2).
        ahead = self.game.ahead(self.seat, disclosure.public, after, opened, facts)
        if ahead:
            out["ahead"] = [self._share(card) for card in sorted(ahead, key=_slot_order)]
        return out

    def _order(self) -> list[str]:
        """A fresh random order of its hidden cards: which of two copies it gives up then
        tells the others nothing (``Holdings``)."""
        keys = {card: self.draw() for card in sorted(self.own())}
        return sorted(keys, key=keys.__getitem__)

    def _conceal(
        self, shared: Any, cards: tuple[str, ...]
    ) -> tuple[Any, dict[str, tuple[str, Any]]]:
        """Hide again the cards of its hand everyone saw, before it returns one face down
        (M-R127): each under a new place, held under its key as anyone computes it, to be
        mixed with the hidden cards of its deck. Returns the state with its hand so named
        and those places (None and nothing when a card would have nothing to hide among:
        the return is then in everyone's sight, as it gives nothing away)."""
        if not cards:
            return None, {}
        game = self.game
        renamed = game.concealing(self.seat, list(cards), shared)
        extra = {
            place: (self.seat, game.hidden_again(self.seat, c)) for c, place in renamed.items()
        }
        state = game.engine.copy(shared)
        for hand in game.engine.hands(state, self.seat):
            hand[:] = [renamed.get(c, c) for c in hand]
        parts = game.mixable(self.seat, state, {**game.held, **extra})
        if not set(renamed.values()) <= {c for part in parts for c in part}:
            return None, {}
        return state, extra

    def _mix(
        self, state: Any = None, extra: dict[str, tuple[str, Any]] | None = None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
        """Re-randomise its hand when cards arrived in it at different times since the
        last time (docs/peer.md §4.3), or when it hides cards again (``state``, ``extra``:
        the hand so named and those cards' places): every card re-encrypted under its own
        key and permuted, deck by deck, with a proof each, so the card it opens next cannot
        be told from when it arrived. Returns the message field and the new ciphertexts."""
        held_now = {**self.game.held, **(extra or {})}
        zone = self.game.zone(self.seat, state, held_now)
        arrivals = {self.game.arrived.get(c, -1) for c in zone}
        if len(zone) < 2 or (not extra and len(arrivals) < 2):
            return None
        parts = self.game.mixable(self.seat, state, held_now)
        if not parts:
            return None
        key = self.game.keys[self.seat]
        field: list[dict[str, Any]] = []
        held: dict[str, Any] = {}
        for part in parts:
            before = [held_now[c][1] for c in part]
            out, proof = shuffle.shuffle(before, key, self.game.context(self.seat), self.draw)
            field.append({
                "cards": part,
                "cipher": [[wire.hexed(a), wire.hexed(b)] for a, b in out],
                "proof": wire.hexed(proof.to_bytes()),
            })  # fmt: skip
            held.update(zip(part, out, strict=True))
        return field, held

    def _pass(self, to: str, cards: list[str], held: dict[str, Any]) -> dict[str, Any]:
        """Its hand ``cards`` (in the order they stand) to seat ``to``: each hidden one
        re-encrypted to ``to``'s key with its proof (docs/peer-mottainai.md §3.7)."""
        assert self.secret is not None
        game = self.game
        context = game.context(self.seat)
        cipher, proofs = [], []
        for card in cards:
            if not _is_card(card):
                continue
            new, proof = returned.put_back(
                self._cipher(card, held), self.secret, game.keys[to], self.draw(),
                context, self.draw, kind=returned.PASSED,
            )  # fmt: skip
            cipher.append([wire.hexed(new[0]), wire.hexed(new[1])])
            proofs.append(wire.hexed(proof))
        return {"to": to, "cards": list(cards), "cipher": cipher, "proofs": proofs}

    def _return(self, card: str, held: dict[str, Any]) -> dict[str, Any]:
        """A held card put face down: re-encrypted under the joint key, with the proof
        that it is the same card (docs/peer-mottainai.md §3.2)."""
        assert self.secret is not None
        cipher = self._cipher(card, held)
        context = self.game.context(self.seat)
        new, proof = returned.put_back(
            cipher, self.secret, self.game.joint, self.draw(), context, self.draw
        )
        return {"card": card, "cipher": [wire.hexed(new[0]), wire.hexed(new[1])],
                "proof": wire.hexed(proof)}  # fmt: skip

    def _foresee(
        self, after: Any, action: dict[str, Any], opened: dict[str, str], mine: dict[str, str]
    ) -> dict[Fact, bool]:
        """The facts about its hidden cards its decision's step asks, answered from what it
        knows (docs/peer-mottainai.md §3.4): the step tried on a copy of the shared state.
        A question that comes after an opening it cannot foresee is asked of it then."""
        engine = self.game.engine
        trial = engine.copy(after)
        facts = Facts(oracle=lambda fact: any(mine[c] in fact.faces for c in fact.cards))
        try:
            with facts:
                engine.apply(trial, self.seat, action, as_rng(PeerRng(opened, self.game.made)))
        except Hidden:
            pass
        return {fact: facts.answers[fact] for fact in facts.asked}

    def _holds(self, fact: Fact, held: dict[str, Any]) -> bool:
        mine = self.own(held)
        return any(mine[card] in fact.faces for card in fact.cards)

    def _fact(self, fact: Fact, holds: bool, held: dict[str, Any]) -> dict[str, Any]:
        """A fact with its proof: presence (some-of) or absence (a one-of per card)."""
        assert self.secret is not None
        game = self.game
        cipher = [self._cipher(c, held) for c in fact.cards]
        context = game.context(self.seat)
        engine = game.engine.info.name
        if holds:
            # (deck_of: a card it hides again in this decision has no slot yet, §3.3)
            decks = sorted({game.deck_of(c).id for c in fact.cards})
            faces = [m for d in decks for m in game.decks[d].points.options(engine, fact.faces)]
            proof = oneof.prove_some(cipher, self.secret, faces, context, self.draw)
        else:
            proof = b"".join(
                oneof.prove(c, self.secret, game.others(card, fact.faces), context, self.draw)
                for card, c in zip(fact.cards, cipher, strict=True)
            )
        return {"cards": list(fact.cards), "faces": list(fact.faces), "holds": holds,
                "proof": wire.hexed(proof)}  # fmt: skip

    def _claim(self, card: str, faces: list[str], held: dict[str, Any]) -> dict[str, str]:
        """The one-of proof that ``card`` (held hidden) is one of ``faces``."""
        assert self.secret is not None
        deck = self.game.deck_of(card)  # a card it hides again here has no slot yet (§3.3)
        cipher = self._cipher(card, held)
        options = deck.points.options(self.game.engine.info.name, faces)
        proof = oneof.prove(cipher, self.secret, options, self.game.context(self.seat), self.draw)
        return {"card": card, "proof": wire.hexed(proof)}

    def reveal(self) -> bytes:
        """The per-game secret, published at the end for ``arbiter verify``."""
        assert self.secret is not None
        return self.secret
