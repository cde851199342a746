"""Mot Coin on a peer table (docs/peer.md §3, step 4): the draw pile is a deck of
placeholders, a card is opened only when the rules turn it up, and every reader's view
and the public narration after every step are exactly the referee's, on random games of
3 to 5 seats."""

from __future__ import annotations

import pytest
from helpers.peer_harness import peer_run, referee_run

from arbiter.core import registry
from arbiter.core.hidden import placeholders


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (3, 2), (4, 3), (5, 4)])
def test_a_peer_table_shows_everyone_what_the_referee_would(seats: int, seed: int) -> None:
    engine = registry.get("motcoin")
    options = engine.parse_options({})
    names = [f"s{i}" for i in range(seats)]
    referee = referee_run(engine, options, names, seed)
    peer, table = peer_run(engine, options, names, referee)
    assert len(peer.views) == len(referee.views) > 10
    for step, (mine, theirs) in enumerate(zip(peer.views, referee.views, strict=True)):
        assert mine == theirs, f"step {step}: a view differs"
    assert peer.told == referee.told
    assert peer.logs == referee.logs
    # The draw pile stayed hidden: only the cards the rules turned up were opened, and
    # every deck the game made (the setup's pile and round 2's reshuffle) was a peer deck.
    assert table.decks == len(referee.orders) == 2
    shown = sum(len(pile) for pile in referee.orders)
    assert table.openings <= shown
    assert placeholders(engine.encode(table.state)) or table.openings == shown


def test_the_setup_opens_only_the_two_cards_it_turns_up() -> None:
    from helpers.peer_harness import PeerTable, RecordingRng

    engine = registry.get("motcoin")
    options = engine.parse_options({})
    orders: list[list[str]] = []
    engine.setup(options, ["a", "b", "c"], RecordingRng(bytes(32), orders))
    table = PeerTable(engine, orders)
    table.attempt(lambda _state, rng: engine.setup(options, ["a", "b", "c"], rng))
    table.settle(["a", "b", "c"])
    assert sorted(table.opened) == ["?d0.0", "?d0.1"] and table.openings == 2
    assert len(placeholders(engine.encode(table.state))) == 24 - 2
