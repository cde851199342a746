"""Momiji on a peer table (docs/peer.md §3, step 5): hands and the deck are placeholders,
a card is opened to its holder when it reaches a hand, to everyone when the rules show it
(the garden, a play's top card, a discard), and a card buried at once stays hidden with a
claim of what it may be (MOM-R21). After every step of random games of 2 to 4 seats, every
reader's view and log and the public narration are exactly the referee's."""

from __future__ import annotations

import pytest
from helpers.peer_harness import PeerTable, RecordingRng, peer_run, referee_run

from arbiter.core import registry
from arbiter.core.errors import IllegalAction
from arbiter.core.hidden import Holdings, is_hidden, placeholders

GAMES = [(2, 1, "fixed"), (3, 2, "random"), (4, 3, "fixed"), (3, 4, "fixed"), (2, 5, "random")]


@pytest.mark.parametrize(("seats", "seed", "landscapes"), GAMES)
def test_a_peer_table_shows_everyone_what_the_referee_would(
    seats: int, seed: int, landscapes: str
) -> None:
    engine = registry.get("momiji")
    options = engine.parse_options({"landscapes": landscapes})
    names = [f"s{i}" for i in range(seats)]
    referee = referee_run(engine, options, names, seed)
    peer, table = peer_run(engine, options, names, referee)
    assert len(peer.views) == len(referee.views) > 20
    for step, (mine, theirs) in enumerate(zip(peer.views, referee.views, strict=True)):
        assert mine == theirs, f"step {step}: a view differs"
    assert peer.told == referee.told
    assert peer.logs == referee.logs
    assert referee.views[-1][None]["result"] is not None, "the game ran to its end"
    # No rule read a hidden face before the final scoring (which counts the piles): the
    # deal, refills and reveals lay placeholders that the views then show (docs/peer.md
    # §3.3), so each step's openings are one round, derived from the views.
    assert not any(table.forced[:-1]), "a rule read a hidden face during play"
    # The scoring counts the piles: it opens the cards kept buried, and only those.
    assert sorted(table.forced[-1]) == sorted(table.kept)


def test_buried_cards_stay_hidden_until_the_scoring() -> None:
    """MOM-R21: the first of two same-type cards played together is named by its
    placeholder and never opened to anyone but its holder before the end."""
    engine = registry.get("momiji")
    options = engine.parse_options({})
    names = ["a", "b", "c"]
    buried = 0
    for seed in range(6, 30):
        referee = referee_run(engine, options, names, seed)
        plays = [a for _, a in referee.steps if a["kind"] == "play" and len(a["cards"]) == 2]
        doubles = [a for a in plays if a["cards"][0].split("-")[0] == a["cards"][1].split("-")[0]]
        if not doubles:
            continue
        peer, table = peer_run(engine, options, names, referee)
        assert peer.views == referee.views
        # Each was kept hidden by its decision (unless everyone saw it arrive from the
        # garden: it is then given up by id, as the referee's known list shows), and
        # opened by the final scoring alone.
        assert len(table.kept) <= len(doubles)
        assert set(table.kept) <= set(table.forced[-1])
        assert not set(table.kept) & {p for step in table.forced[:-1] for p in step}
        piles = [
            c
            for player in engine.encode(table.state)["players"].values()
            for pile in player["piles"]
            for c in pile["cards"]
        ]
        assert not any(is_hidden(c) for c in piles), "the scoring opened every pile"
        buried += len(table.kept)
        if buried >= 3:
            break
    assert buried >= 3, "the seeds played too few buried cards to test"


def test_a_buried_card_is_named_by_its_placeholder_with_its_claim() -> None:
    engine = registry.get("momiji")
    options = engine.parse_options({})
    orders: list[list[str]] = []
    engine.setup(options, ["a", "b"], RecordingRng(bytes(32), orders))
    table = PeerTable(engine, orders)
    table.attempt(lambda _state, rng: engine.setup(options, ["a", "b"], rng))
    table.settle(["a", "b"])
    state = table.private("a")
    # The deal read no face; its views asked, in one round, for the garden (4) and the
    # game's objectives (n + 2 of the shuffled pool) to be opened to everyone, and each
    # hand (6) to its holder only.
    assert table.forced == [[]]
    assert len(table.opened) == 8 and all(len(table.own[s]) == 6 for s in "ab")
    hand = engine.view(state, "a")["players"]["a"]["hand"]
    assert hand == sorted(hand, key=state.cards.sort_key) and not any(is_hidden(c) for c in hand)
    # The shared state shows b its own hand's placeholders (what b must learn), nothing of
    # a's; the public view shows none.
    assert placeholders(engine.view(table.state, "b")) == set(table.own["b"])
    assert not placeholders(engine.view(table.state, None))
    # Any two-card play of one type: the first card stays hidden, claimed among the
    # cards that fit; the second is shown with the decision.
    double = next(
        a
        for a in engine.legal_actions(state, "a")
        if a["kind"] == "play"
        and len(a["cards"]) == 2
        and "at" not in a
        and state.cards.cards[a["cards"][0]].type == state.cards.cards[a["cards"][1]].type
    )
    disclosure = engine.disclose(table.state, "a", double, table.own["a"])
    [kept] = disclosure.kept
    [shown] = disclosure.shown
    assert disclosure.public["cards"] == [kept, double["cards"][1]]
    assert (
        table.own["a"][kept] == double["cards"][0] and table.own["a"][shown] == double["cards"][1]
    )
    claims = engine.claims(table.state, "a", disclosure.public)
    assert double["cards"][0] in claims[kept] and all(
        c.endswith(("0", "0L", "0R", "0LR")) for c in claims[kept]
    )
    # With the shown card opened (its holder's share travels with the decision), every
    # machine checks the public decision against the shared state.
    with pytest.raises(IllegalAction, match=f"you do not hold {double['cards'][1]}"):
        engine.check(table.state, "a", disclosure.public)
    assert table.decide("a", double) == disclosure.public
    engine.check(table.state, "a", disclosure.public)
    # A seat cannot bury another seat's card, nor keep hidden a card the rules show.
    theirs = sorted(table.own["b"])[0]
    with pytest.raises(IllegalAction, match="do not hold"):
        engine.check(table.state, "a", {"kind": "play", "cards": [theirs, double["cards"][1]]})
    with pytest.raises(IllegalAction, match="may stay hidden"):
        engine.check(table.state, "a", {"kind": "play", "cards": [double["cards"][1], kept]})
    with pytest.raises(IllegalAction, match="may stay hidden"):
        engine.check(table.state, "a", {"kind": "play", "cards": [kept]})


def test_holdings_take_ids_before_placeholders() -> None:
    """A card everyone saw arrive is given up by id (the referee's known list shrinks the
    same way); only then by a placeholder the seat opened for itself."""
    hand = Holdings(["?d0.1", "maple-1", "?d0.4"], {"?d0.1": "maple-1", "?d0.4": "oak-2"})
    assert hand.take("maple-1") == "maple-1"
    assert hand.take("maple-1") == "?d0.1"
    assert hand.take("maple-1") is None
    assert hand.take("oak-2") == "?d0.4"
