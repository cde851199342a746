"""The determinisation hook: a state rebuilt from a view shows exactly that view."""

from __future__ import annotations

import pytest
from botkit import ENGINES, positions

from arbiter.core.engine import Engine
from arbiter.core.rng import Rng


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_rebuilt_state_shows_the_same_view_to_every_seat(name: str) -> None:
    checked = 0
    for engine, state, _prompted in positions(name, games=4, every=2, tag="det"):
        prompt = engine.prompt(state)
        for seat in engine.encode(state)["seats"]:
            view = engine.view(state, seat)
            given = prompt.to_json() if prompt is not None and prompt.seat == seat else None
            rebuilt = engine.determinize(view, seat, Rng(f"{checked}".encode()), given)
            assert engine.view(rebuilt, seat) == view
            engine.invariants(rebuilt)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("name", ["mottainai", "motcoin", "momiji"])
def test_rebuilt_states_differ_in_what_the_seat_cannot_see(name: str) -> None:
    engine, state, seat = next(iter(positions(name, games=1, every=7, tag="vary")))
    view = engine.view(state, seat)
    encoded = {str(engine.encode(engine.determinize(view, seat, Rng(bytes([i]))))) for i in range(6)}
    assert len(encoded) > 1


def test_the_base_engine_has_no_hook() -> None:
    """An engine that does not implement it raises: the bots then play at random."""
    from arbiter.core import registry

    engine = registry.get("tally")
    with pytest.raises(NotImplementedError, match="cannot rebuild"):
        Engine.determinize(engine, {}, "alice", Rng(b"x"))
