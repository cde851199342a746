"""The mail desk sends turn-notice digests itself when its config has ``[notices]``: by
mail to the seats' addresses, by the webhooks of referee/notices.toml, once per period,
against real Dovecot, a real SMTP relay and a real HTTP server (docs/notices.md)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from helpers.tables import make_keys
from notify.hookserver import serve_hooks

from arbiter.core.errors import UsageError
from arbiter.core.referee import new_game
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from mail.servers import Dovecot, Mailbox, SmtpRelay
from mail.test_desk_game import desk_config

START = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)


def test_the_desk_sends_each_digest_once_per_period(
    tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user
) -> None:
    games = tmp_path / "games"
    keys = make_keys(tmp_path / "keys", ["alice", "bob"])
    users = {seat: new_user(seat) for seat in keys}
    for game, order in (("g1", ["alice", "bob"]), ("g2", ["bob", "alice"]), ("g3", ["alice", "bob"])):
        new_game(games / game, "tally", [(s, f"{keys[s]}.pub") for s in order], {}, game_id=game,
                 join=False, created="2026-12-01T00:00:00Z", deadline=2 * 86400)
        for seat, user in users.items():
            store(games / game, seat, user.address)
    (games / "g3" / "referee" / "notices.toml").write_text("[seats.alice\n")  # broken
    config = desk_config(tmp_path, dovecot, smtp_relay, new_user("referee"), games)
    with config.open("a") as handle:
        handle.write('\n[notices]\nperiod = "1d"\n')
    inbox = Mailbox(dovecot, users["alice"].name, users["alice"].password)
    reported: list[str] = []
    with serve_hooks() as hooks:
        (games / "g2" / "referee" / "notices.toml").write_text(
            f'[seats.bob]\nwebhook = "{hooks.url("/bob")}"\npreset = "ntfy"\n'.replace("/bob", "/ntfy/bob")
        )

        def desk_at(hours: float) -> MailDesk:
            desk = MailDesk(load(config), now=lambda: START + datetime.timedelta(hours=hours),
                            report=reported.append)
            desk.run(once=True)
            return desk

        assert desk_at(8).summary.notices == 2  # alice by mail (g1), bob by ntfy (g2)
        [mail] = inbox.messages()
        assert str(mail["Subject"]) == "[arbiter] 1 game waits for your decision"
        body = mail.get_body(("plain",)).get_content()
        assert "- g1 (tally), seat alice: turn since entry #0, due 2026-12-03T00:00:00Z; then pass" in body
        [post] = hooks.posts
        assert post.path == "/ntfy/" and post.json()["topic"] == "bob"
        assert any("g3" in line and "notices.toml is not valid TOML" in line for line in reported)
        assert desk_at(20).summary.notices == 0  # the same day
        assert inbox.count() == 1 and len(hooks.posts) == 1
        assert desk_at(30).summary.notices == 2  # the next day (and the half-time reminders)
        digests = [m for m in inbox.messages() if "for your decision" in str(m["Subject"])]
        assert len(digests) == 2 and len(hooks.posts) == 2


def test_a_bad_notices_section_is_one_line(tmp_path: Path, dovecot: Dovecot,
                                            smtp_relay: SmtpRelay, new_user) -> None:
    games = tmp_path / "games"
    games.mkdir()
    config = desk_config(tmp_path, dovecot, smtp_relay, new_user("referee"), games)
    text = config.read_text()
    for bad, message in (('period = "soon"', "notices.period 'soon' must look like"),
                         ('every = "1d"', "unknown key notices.every")):
        config.write_text(text + f"\n[notices]\n{bad}\n")
        with pytest.raises(UsageError) as caught:
            load(config)
        assert message in caught.value.message
    config.write_text(text)
    assert load(config).notices is None  # no section: no digests
