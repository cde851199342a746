"""The mail desk keeps the clock of games with deadlines: a reminder at half time and
one when the grace starts, then the timeout policy and everyone's new files — each once,
with the desk's clock injected (``MailDesk.now``), against real Dovecot and SMTP."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from helpers.tables import make_keys

from arbiter.core.referee import new_game
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from mail.servers import Dovecot, Mailbox, SmtpRelay
from mail.test_desk_game import desk_config

START = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)


def test_reminders_then_a_timeout_by_mail(tmp_path: Path, dovecot: Dovecot,
                                          smtp_relay: SmtpRelay, new_user) -> None:
    referee = new_user("referee")
    games = tmp_path / "games"
    games.mkdir()
    seats = ["alice", "bob", "carol"]
    keys = make_keys(tmp_path / "keys", seats)
    folder = games / "clock"
    new_game(folder, "motcoin", [(s, f"{keys[s]}.pub") for s in seats], {}, game_id="clock",
             join=False, created="2026-12-01T00:00:00Z", deadline=2 * 86400, grace=86400,
             on_timeout="bot")
    users = {}
    for seat in seats:
        users[seat] = new_user(seat)
        store(folder, seat, users[seat].address)
    config = load(desk_config(tmp_path, dovecot, smtp_relay, referee, games))
    waiting = json.loads((folder / "public" / "state.json").read_bytes())["prompt"]["seat"]
    inbox = Mailbox(dovecot, users[waiting].name, users[waiting].password)

    def desk_at(hours: float) -> MailDesk:
        desk = MailDesk(config, now=lambda: START + datetime.timedelta(hours=hours))
        desk.run(once=True)
        return desk

    assert desk_at(10).summary.reminders == 0 and inbox.count() == 0
    assert desk_at(25).summary.reminders == 1  # half of 48 h
    subjects = [str(m["Subject"]) for m in inbox.messages()]
    assert subjects == ["[arbiter] clock: reminder — your decision is due 2026-12-03T00:00:00Z"]
    assert "Half your time is gone" in inbox.messages()[0].get_body(("plain",)).get_content()
    assert desk_at(30).summary.reminders == 0  # once only
    assert desk_at(49).summary.reminders == 1  # the grace starts
    assert "grace period runs" in inbox.messages()[-1].get_body(("plain",)).get_content()
    desk = desk_at(73)  # the grace is over: the bot decides for the seat
    assert desk.summary.timeouts == 1
    chain = (folder / "chain.jsonl").read_text().splitlines()
    last = json.loads(chain[-1])
    assert last["kind"] == "timeout" and last["seat"] == waiting
    assert last["time"] == "2026-12-04T01:00:00Z"
    for seat in seats:  # everyone got the new entry and their files
        box = Mailbox(dovecot, users[seat].name, users[seat].password)
        titles = [str(m["Subject"]) for m in box.messages()]
        assert any(t.startswith(f"[arbiter] clock: entry #{last['seq']} — your files") for t in titles), titles
    again = desk_at(73.5)
    assert again.summary.timeouts == 0 and again.summary.sent == 0
