"""Whole games through ``arbiter play`` by mail (issue 26, item 7): a real Dovecot holds
every mailbox, a real SMTP relay carries the mail, and a real mail desk referees; each
player has only its own mailbox, key and profile, joins when ``arbiter play`` offers,
and plays by numbers and card names until the end. Then reveal and verify."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from mail.servers import Dovecot, MailUser, SmtpRelay
from mail.test_desk_game import desk_config

from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk

from .e2e import Players, play_to_the_end, waiting_in
from .kit import real_game
from .test_transport_mail import player_config

GAMES = [
    pytest.param("momiji", 2, marks=pytest.mark.slow),
    pytest.param("mottainai", 2, marks=pytest.mark.slow),
    pytest.param("motcoin", 3, marks=[pytest.mark.slow, pytest.mark.full]),  # ~1 minute
]


@pytest.mark.parametrize("stop", [None])
@pytest.mark.parametrize(("engine", "seats"), GAMES)
def test_a_whole_game_by_mail(
    engine: str, seats: int, stop: int | None, tmp_path, cli, monkeypatch, capsys,
    dovecot: Dovecot, smtp_relay: SmtpRelay, new_user: Callable[..., MailUser],
) -> None:
    games = tmp_path / "games"
    game_id = f"mail-{engine}"
    table = real_game(games, engine, seats, joined=False, game_id=game_id)
    referee = new_user("referee")
    users = {seat: new_user(seat) for seat in table.seats}
    for seat, user in users.items():
        store(table.root, seat, user.address)
    config = desk_config(tmp_path, dovecot, smtp_relay, referee, games)
    players = Players(tmp_path, table.seats, monkeypatch, capsys, f"mail/{engine}")
    for seat, user in users.items():
        mine = player_config(tmp_path, user, (dovecot.host, dovecot.port),
                             (smtp_relay.host, smtp_relay.port))
        players.be(seat)
        added = cli("play", "add", table.root / "game.json", "--seat", seat, "--key",
                    table.keys[seat], "--via", "mail", "--config", mine, "--to", referee.address)
        assert added.code == 0, added.err

    def desk_round() -> None:
        MailDesk(load(config)).run(once=True)

    runs = play_to_the_end(players, cli, game_id, waiting_in(table.root), desk_round, stop)
    if stop is not None:
        assert runs == stop and cli("verify", table.root).code == 0  # the chain so far
        return
    assert runs >= 10
    assert cli("reveal", table.root).code == 0
    verified = cli("verify", table.root)
    assert verified.code == 0, verified.err
    # Every player's list shows the game over, read from its own mailbox.
    for seat in table.seats:
        players.be(seat)
        listed = cli("play", "list")
        assert listed.code == 0 and "over: " in listed.out, listed.out


def test_joins_and_first_moves_by_mail(tmp_path, cli, monkeypatch, capsys, dovecot, smtp_relay,
                                       new_user) -> None:
    """The default suite's sample: both joins and a few decisions, then the chain verifies."""
    test_a_whole_game_by_mail("mottainai", 2, 6, tmp_path, cli, monkeypatch, capsys, dovecot,
                              smtp_relay, new_user)
