"""The peer protocol end to end, in one process (docs/peer.md §5, step 6): real keys,
shuffles, shares, openings and claims for whole games of Mot Coin and Momiji. Every
reader's view after every step, every seat's log and the public log are exactly what the
referee's engine gives when the game is replayed from the decks the secrets decrypt."""

from __future__ import annotations

import pytest
from helpers.peer_play import Table, new_table, play, referee_check

from arbiter.peer import reveal
from arbiter.peer.protocol import PeerGame
from arbiter.peer.seat import PeerSeat

GAMES = [("motcoin", 3, 1), ("motcoin", 4, 2), ("momiji", 2, 3), ("momiji", 3, 4), ("momiji", 4, 5)]


@pytest.mark.parametrize(("name", "seats", "seed"), GAMES)
def test_a_peer_game_is_the_referee_game_its_decks_decrypt_to(
    name: str, seats: int, seed: int
) -> None:
    referee_check(play(new_table(name, seats, seed), seed))


def test_a_hand_that_drew_is_rerandomised_before_it_opens_a_card() -> None:
    """docs/peer.md §3.5: a seat whose hand received a card after the deal (the draw
    power) re-randomises the whole hand before it next opens or claims one, so the card it
    shows cannot be told from when it arrived; the referee replay follows the move."""
    table = play(new_table("momiji", 3, 4), 4)
    game = table.game
    mixes = [step for step, _ in game.history if step.mixed is not None]
    assert mixes, "no hand was re-randomised"
    seat, cards, cipher = mixes[0].mixed
    assert seat == mixes[0].seat and len(cards) == len(cipher) >= 2
    secrets = {s: p.reveal() for s, p in table.players.items()}
    referee = reveal.replay(game, reveal.orders(game, secrets), secrets)
    assert table.views == referee.views


def test_a_seat_restarts_from_its_secret_and_the_messages() -> None:
    """What a seat knows follows from its secret and the game's messages: a machine that
    restarts rebuilds it by feeding the messages to a new game, and plays on."""
    table = play(new_table("momiji", 3, 4), 4, until=lambda t, _s: len(t.game.history) > 70)
    assert any(step.mixed for step, _ in table.game.history), "cut after a re-randomisation"
    game = table.game
    again = PeerGame(game.engine, game.options, game.seats, game.game, game.manifest)
    seats = {s: PeerSeat(again, s, p.draw, secret=p.secret) for s, p in table.players.items()}
    for message in table.messages:
        again.receive(message)
    for seat, player in seats.items():
        assert player.view() == table.players[seat].view()
        assert player.log() == table.players[seat].log()
    resumed = play(Table(again, seats, list(table.messages)), 4)
    secrets = {s: p.reveal() for s, p in seats.items()}
    referee = reveal.replay(again, reveal.orders(again, secrets), secrets)
    assert referee.views[-1][None]["result"] is not None
    for seat, player in resumed.players.items():
        assert player.log() == referee.log(again.engine, seat)
