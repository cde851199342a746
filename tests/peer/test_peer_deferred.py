"""Deferred openings (docs/peer-mottainai.md §3.5): the cards a Night brings into a hand
are opened to their seat by the other seats' shares riding on their next messages, not
in a round of their own. An opening blocks only when its seat must read the cards: it
decides, answers a fact about its hand, passes its hand, or the game ends. Meanwhile that
seat reads the table some steps behind (``PeerGame.ready``), and its views and log are
still the referee's, step by step."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from helpers.peer_play import new_table, play, referee_check

from arbiter.peer.protocol import DECISION, FACTS, PASSES, SHARES


def _watched(seats: int, seed: int, options: dict[str, str] | None = None) -> dict[str, Any]:
    """Play a game, checking after every message that no seat owes a decision, a fact or
    a pass while a card is still being opened to it; count what the test asks about."""
    table = new_table("mottainai", seats, seed, options)
    game = table.game
    seen: dict[str, Any] = {"behind": 0, "riding": 0, "blocked": []}
    receive = game.receive

    def checked(message: dict[str, Any]) -> None:
        receive(message)
        if message.get("decision") is not None and message.get("shares"):
            seen["riding"] += 1
        for seat, owed in game.waiting.items():
            if owed.kind in (DECISION, FACTS, PASSES) and game.asked[seat]:
                seen["blocked"].append((game.round, seat, owed.kind))
        if any(game.ready[s] < game.settled for s in game.seats):
            seen["behind"] += 1

    game.receive = checked  # type: ignore[method-assign]
    play(table, seed)
    seen["table"] = table
    return seen


@pytest.mark.parametrize(("seats", "seed", "wutai"), [(3, 1, False), (5, 2, True)])
def test_a_nights_cards_open_on_the_other_seats_next_messages(
    seats: int, seed: int, wutai: bool
) -> None:
    seen = _watched(seats, seed, {"wutai": "yes"} if wutai else None)
    table = seen["table"]
    game = table.game
    referee_check(table)
    assert seen["blocked"] == [], "a seat decided before its cards were opened to it"
    assert seen["behind"] > 0, "some seat read the table late"
    nights = sum(e.kind == "night" for _, events in game.history for e in events)
    assert nights > 10
    # (A Night with an empty waiting area opens nothing.)
    assert seen["riding"] >= nights / 2, "the others' shares of the Nights rode on decisions"
    # A Night costs no round: the rounds of shares left are the deal, the start player,
    # the face-down tasks, turn-ups and the end (docs/peer.md §4.4).
    assert game.stats.rounds[SHARES] < nights / 2
    assert all(game.ready[s] == game.settled == len(game.history) for s in game.seats)


def test_a_seat_behind_reads_each_step_as_it_was() -> None:
    """While its Night's cards are being opened, a seat's log and views stop where it can
    read; once they are in, it catches up step by step, each view as the referee's of that
    step (``referee_check``), its hand ranked in the order its cards came."""
    table = new_table("mottainai", 3, 6)
    game = table.game
    caught_up = []

    def watch() -> None:
        for seat, player in table.players.items():
            assert player.read == game.ready[seat] <= game.settled
            assert len(player.seen) == player.read
            if player.read < game.settled:
                caught_up.append(seat)

    game.on_settle.append(watch)
    play(table, 6)
    assert caught_up, "a seat was behind"
    referee_check(table)


def test_a_puppet_target_holds_its_cards_before_it_passes_them() -> None:
    """docs/peer-mottainai.md §3.7, M-R128: a Puppet whose target's last Night is still
    being opened to it first completes that opening (a round of the other seats' shares),
    then the target passes its whole hand, every card now held under its key alone."""
    table = new_table("mottainai", 5, 5)
    game = table.game
    rounds: list[tuple[str, frozenset[str]]] = []
    receive = game.receive

    def watch(message: dict[str, Any]) -> None:
        receive(message)
        if game.waiting and len(rounds) < game.round + 1:
            owed = next(iter(game.waiting.values()))
            target = {h for h, _, _ in game.passing}
            if owed.kind == SHARES and target:
                assert any(game.asked[t] for t in target), "shares for the target's cards"
            if owed.kind == PASSES:
                assert not any(game.asked[t] for t in target), "it holds what it passes"
            rounds.append((owed.kind, frozenset(target)))

    game.receive = watch  # type: ignore[method-assign]
    play(table, 5)
    pairs = list(itertools.pairwise(rounds))
    assert any(a[0] == SHARES and a[1] and b[0] == PASSES for a, b in pairs)
    referee_check(table)
