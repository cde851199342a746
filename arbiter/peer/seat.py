"""A seat's private side of a peer game (docs/peer.md §3.1, §4.3): its per-game secret,
the cards opened to it alone, its private state, and the message it owes.

The secret comes from the OS CSPRNG (``core.peer.fresh``) and never leaves this object
until the end of the game, when ``reveal`` publishes it for ``arbiter verify``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter.core.engine import Action
from arbiter.core.hidden import private_state
from arbiter.core.peer import dleq, fresh, group, oneof, schnorr, shuffle
from arbiter.core.peer.elgamal import open_with
from arbiter.peer import wire
from arbiter.peer.protocol import DECISION, KEY, SHARES, SHUFFLE, PeerGame

Choose = Callable[[Any, str, list[Action]], Action]
"""A decision maker: (its private state, its seat, the legal decisions) → one of them."""


class PeerSeat:
    def __init__(self, game: PeerGame, seat: str, draw: Callable[[], bytes] = fresh.scalar):
        self.game = game
        self.seat = seat
        self.draw = draw
        self.secret: bytes | None = None
        self.own: dict[str, str] = {}
        """The cards opened to this seat alone: placeholder → card."""

    # -- what it knows ---------------------------------------------------------------
    def learn(self) -> None:
        """Open every card the others' shares have opened to this seat."""
        assert self.secret is not None or not self.game.told[self.seat]
        for card in sorted(self.game.told[self.seat] - set(self.own)):
            deck, slot = self.game.locate(card)
            others = [d for s, d in self.game.shares[card].items() if s != self.seat]
            a, _ = deck.slot(slot)
            assert self.secret is not None
            mine = group.mul(self.secret, a)
            self.own[card] = deck.points.card(open_with(deck.slot(slot), [*others, mine]))

    def known(self) -> dict[str, str]:
        self.learn()
        return {**self.game.opened, **self.own}

    def private(self) -> Any:
        return private_state(self.game.engine, self.game.state, self.known())

    def view(self) -> dict[str, Any]:
        return self.game.engine.view(self.private(), self.seat)

    def log(self) -> list[str]:
        return self.game.narrate(self.known(), self.seat)

    # -- what it sends ---------------------------------------------------------------
    def compose(self, choose: Choose) -> dict[str, Any]:
        """The message this seat owes now (``choose`` decides when it is its turn)."""
        owed = self.game.owed(self.seat)
        if owed is None:
            raise ValueError(f"{self.seat} owes nothing in round {self.game.round}")
        message = wire.head(self.game.game, self.seat, self.game.round)
        context = self.game.context(self.seat)
        if owed.kind == KEY:
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
        else:
            assert owed.kind == DECISION
            message.update(self._decide(choose))
        return message

    def _share(self, card: str) -> dict[str, str]:
        assert self.secret is not None
        share, proof = dleq.share(
            self.secret, self.game.cipher(card)[0], self.game.context(self.seat)
        )
        return {"card": card, "share": wire.hexed(share), "proof": wire.hexed(proof)}

    def _decide(self, choose: Choose) -> dict[str, Any]:
        engine = self.game.engine
        state = self.private()
        action = choose(state, self.seat, engine.legal_actions(state, self.seat))
        disclosure = engine.disclose(self.game.state, self.seat, action, self.known())
        out: dict[str, Any] = {"decision": disclosure.public}
        if disclosure.shown:
            out["openings"] = [self._share(card) for card in disclosure.shown]
        if disclosure.kept:
            opened = {**self.game.opened, **{c: self.own[c] for c in disclosure.shown}}
            shared = private_state(engine, self.game.state, opened)
            wanted = engine.claims(shared, self.seat, disclosure.public)
            out["claims"] = [self._claim(card, wanted[card]) for card in disclosure.kept]
        return out

    def _claim(self, card: str, faces: list[str]) -> dict[str, str]:
        """The one-of proof that ``card`` (held hidden) is one of ``faces``."""
        assert self.secret is not None
        deck, slot = self.game.locate(card)
        others = {s: d for s, d in self.game.shares[card].items() if s != self.seat}
        held = deck.without(slot, others)
        options = deck.points.options(self.game.engine.info.name, faces)
        proof = oneof.prove(held, self.secret, options, self.game.context(self.seat), self.draw)
        return {"card": card, "proof": wire.hexed(proof)}

    def reveal(self) -> bytes:
        """The per-game secret, published at the end for ``arbiter verify``."""
        assert self.secret is not None
        return self.secret
