"""Peer play's placeholders in the core (docs/peer.md §2–3): every engine draws nothing
but shuffles of card lists (the premise of peer play, checked on random games of each
engine and option), and the peer generators and the private-state substitution do what
the note says."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

import pytest

from arbiter.core import registry
from arbiter.core.errors import Tampered
from arbiter.core.hidden import (
    Hidden,
    PeerRng,
    RevealedRng,
    face,
    is_hidden,
    placeholders,
    private_state,
    substitute,
)
from arbiter.core.rng import Rng


class _Watching(Rng):
    """The normal generator, counting every draw that is not part of a shuffle."""

    def __init__(self, key: bytes):
        super().__init__(key)
        self.inside = 0
        self.other: list[str] = []

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self.inside += 1
        try:
            super().shuffle(items)
        finally:
            self.inside -= 1

    def below(self, n: int) -> int:
        if not self.inside:
            self.other.append(f"below({n})")
        self.inside += 1  # its own bytes are counted once, here
        try:
            return super().below(n)
        finally:
            self.inside -= 1

    def bytes(self, n: int) -> bytes:
        if not self.inside:
            self.other.append(f"bytes({n})")
        return super().bytes(n)


def test_the_watcher_sees_a_draw_outside_a_shuffle() -> None:
    watching = _Watching(bytes(32))
    watching.shuffle([1, 2, 3])
    assert watching.other == []
    watching.choice([1, 2])
    watching.bytes(4)
    assert watching.other == ["below(2)", "bytes(4)"]


CASES = [
    ("mottainai", 2, {}), ("mottainai", 3, {"wutai": "yes"}), ("mottainai", 5, {}),
    ("momiji", 3, {}), ("momiji", 4, {"landscapes": "random"}),
    ("motcoin", 3, {}), ("motcoin", 5, {}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "seats", "options"), CASES, ids=lambda c: str(c))
def test_every_engine_draws_nothing_but_shuffles(name: str, seats: int, options: dict[str, str]) -> None:
    engine = registry.get(name)
    parsed = engine.parse_options(options)
    names = [f"s{i}" for i in range(seats)]
    for game in range(3):
        rng = _Watching(bytes([game]) * 32)
        state, _ = engine.setup(parsed, names, rng)
        chooser = Rng(bytes([game + 100]) * 32)
        for _ in range(3000):
            prompt = engine.prompt(state)
            if prompt is None:
                break
            action = chooser.choice(engine.legal_actions(state, prompt.seat))
            engine.apply(state, prompt.seat, action, rng)
        assert engine.prompt(state) is None, "the random game did not end"
        assert rng.other == [], f"{name} drew {rng.other[:3]} outside a shuffle"


def test_a_peer_shuffle_makes_a_deck_of_placeholders() -> None:
    rng = PeerRng()
    deck = ["a", "b", "c", "b"]
    rng.shuffle(deck)
    assert deck == ["?d0.0", "?d0.1", "?d0.2", "?d0.3"] and all(is_hidden(c) for c in deck)
    assert rng.decks == {"d0": ["a", "b", "c", "b"]}
    later = ["x", "y"]
    rng.shuffle(later)
    assert later == ["?d1.0", "?d1.1"]
    with pytest.raises(ValueError, match="card ids the engine knows"):
        rng.shuffle(["a", "?d0.1"])  # a deck is made of known cards
    # A step applied again after an opening makes the same deck, that slot turned up.
    again = PeerRng({"?d1.1": "y"}, first=1)
    redo = ["x", "y"]
    again.shuffle(redo)
    assert redo == ["?d1.0", "y"] and again.decks == {"d1": ["x", "y"]}
    with pytest.raises(NotImplementedError, match="nothing but shuffles"):
        rng.below(3)
    with pytest.raises(Hidden) as raised:
        face("?d0.2")
    assert raised.value.placeholder == "?d0.2"
    assert face("maple-3") == "maple-3"
    assert not is_hidden("?D0.1") and not is_hidden("d0.1") and not is_hidden(7)


def test_a_revealed_shuffle_yields_the_decrypted_order_and_checks_it() -> None:
    rng = RevealedRng([["c", "a", "b"], ["y", "x"]])
    deck = ["a", "b", "c"]
    rng.shuffle(deck)
    assert deck == ["c", "a", "b"]
    with pytest.raises(Tampered, match="deck d1 does not hold"):
        rng.shuffle(["x", "z"])
    rng.shuffle(other := ["x", "y"])
    assert other == ["y", "x"]
    with pytest.raises(Tampered, match="more decks"):
        rng.shuffle(["q"])


def test_a_private_state_substitutes_what_the_seat_opened() -> None:
    """A real Mot Coin state, its draw pile turned into placeholders as a peer game holds it,
    then the opened ones substituted back: the engine's own encoding round-trips."""
    engine = registry.get("motcoin")
    state, _ = engine.setup(engine.parse_options({}), ["s0", "s1", "s2"], Rng(bytes(32)))
    encoded = engine.encode(state)
    real = list(state.draw)
    shared = engine.copy(state)
    shared.draw = [f"?d0.{i}" for i in range(len(real))]
    known = {f"?d0.{i}": card for i, card in enumerate(real)}
    assert engine.encode(private_state(engine, shared, known)) == encoded
    assert placeholders(engine.encode(shared)) == set(known)
    half = dict(list(known.items())[:3])
    partly = engine.encode(private_state(engine, shared, half))
    assert placeholders(partly) == set(known) - set(half)
    assert substitute({"?d0.0": ["?d0.1", 3]}, {"?d0.0": "a", "?d0.1": "b"}) == {"a": ["b", 3]}
