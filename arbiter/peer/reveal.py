"""The end of a peer game (docs/peer.md §8): with every seat's per-game secret published,
each deck decrypts whole, and the game replays through the normal engine with a
``RevealedRng`` — the referee's game, byte for byte, with nobody having held the deck."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arbiter.core.engine import Engine, Event
from arbiter.core.errors import Tampered
from arbiter.core.hidden import RevealedRng, as_rng, placeholder, substitute
from arbiter.core.peer import group
from arbiter.core.peer.elgamal import open_with
from arbiter.peer.protocol import PeerGame


def orders(game: PeerGame, secrets: Mapping[str, bytes]) -> list[list[str]]:
    """Every deck's cards in slot order, decrypted with every seat's secret (each checked
    against the seat's published key): the shuffled slots, then the slots of the cards
    returned to it during play (docs/peer-mottainai.md §3.2)."""
    for seat in game.seats:
        if group.base(secrets[seat]) != game.keys[seat]:
            raise Tampered(f"{seat}'s published secret is not the one behind its per-game key")
    out = []
    for deck_id in sorted(game.decks, key=lambda d: int(d[1:])):
        deck = game.decks[deck_id]
        shares = [[group.mul(secrets[s], a) for s in game.seats] for a, _ in deck.cipher]
        out.append(
            [deck.points.card(open_with(c, d)) for c, d in zip(deck.cipher, shares, strict=True)]
        )
    return out


def shuffled(game: PeerGame, decks: list[list[str]]) -> list[list[str]]:
    """Each deck's shuffled slots only: what the engine's shuffles made (``RevealedRng``)."""
    ids = sorted(game.decks, key=lambda d: int(d[1:]))
    return [deck[: len(game.decks[i].points.cards)] for i, deck in zip(ids, decks, strict=True)]


def faces(decks: list[list[str]]) -> dict[str, str]:
    """Every placeholder's card."""
    return {
        placeholder(f"d{k}", i): card for k, deck in enumerate(decks) for i, card in enumerate(deck)
    }


@dataclass
class Replay:
    """A game replayed by the normal engine: after each step, every reader's view, and
    the events (to narrate for any reader)."""

    views: list[dict[str | None, Any]] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)

    def log(self, engine: Engine, viewer: str | None) -> list[str]:
        lines = (engine.describe(event, viewer) for step in self.events for event in step)
        return [line for line in lines if line is not None]


def replay(game: PeerGame, decks: list[list[str]], secrets: Mapping[str, bytes]) -> Replay:
    """The whole game through the normal engine, its shuffles yielding ``decks``. A seat
    that re-randomised its hand moved its cards among its placeholders: each is followed
    by decrypting the new ciphertexts with that seat's secret."""
    engine = game.engine
    rng = RevealedRng(shuffled(game, decks))
    known = faces(decks)
    out = Replay()
    state: Any = None
    for step, _ in game.history:
        if step.mixed is not None:
            seat, cards, cipher = step.mixed
            for card, (a, b) in zip(cards, cipher, strict=True):
                deck, _ = game.locate(card)
                known[card] = deck.points.card(group.sub(b, group.mul(secrets[seat], a)))
        if step.seat is None:
            state, events = engine.setup(game.options, game.seats, as_rng(rng))
        else:
            action = substitute(step.action, known)
            engine.check(state, step.seat, action)
            events = engine.apply(state, step.seat, action, as_rng(rng))
        out.views.append({seat: engine.view(state, seat) for seat in [None, *game.seats]})
        out.events.append(events)
    if rng.used != len(decks):
        raise Tampered(
            f"the game's transcript holds {len(decks)} decks, the replay shuffles {rng.used}"
        )
    return out
