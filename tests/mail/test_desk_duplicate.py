"""A mail desk serving the two tables of a duplicate group (docs/duplicate.md) deals them
itself once both have all their joins, and mails every seat its dealt files — against real
Dovecot and SMTP. A deal made by `arbiter tournament deal` is mailed the same way."""

from __future__ import annotations

from pathlib import Path

from helpers.tables import make_keys

from arbiter.core.canonical import pretty
from arbiter.core.player import load_state, make_join
from arbiter.core.referee import new_game, submit
from arbiter.core.rng import commitment
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from mail.servers import Dovecot, Mailbox, SmtpRelay
from mail.test_desk_game import desk_config

SECRET = bytes(range(32))


def test_the_desk_deals_a_group_once_every_table_has_joined(
    tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user
) -> None:
    referee = new_user("referee")
    games = tmp_path / "games"
    games.mkdir()
    tables = {"t1": ["alice", "bob"], "t2": ["carol", "dave"]}
    keys = make_keys(tmp_path / "keys", [s for seats in tables.values() for s in seats])
    terms = {"group": "g-r1-s2", "commitment": commitment(SECRET), "games": list(tables)}
    users = {}
    for game, seats in tables.items():
        new_game(games / game, "momiji", [(s, f"{keys[s]}.pub") for s in seats], {},
                 game_id=game, created="2026-12-01T00:00:00Z", deal=(terms, SECRET))  # fmt: skip
        for seat in seats:
            users[seat] = new_user(seat)
            store(games / game, seat, users[seat].address)
    config = load(desk_config(tmp_path, dovecot, smtp_relay, referee, games))

    def join(game: str) -> None:
        for seat in tables[game]:
            made = make_join(games / game / "game.json", seat, keys[seat])
            submit(games / game, pretty(made), f"join-{seat}.json")

    join("t1")
    desk = MailDesk(config)
    desk.run(once=True)
    assert load_state(games / "t1" / "public" / "state.json")["status"] == "joining"
    assert desk.summary.sent == 0
    join("t2")
    MailDesk(config).run(once=True)
    for game, seats in tables.items():
        assert load_state(games / game / "public" / "state.json")["status"] == "playing"
        for seat in seats:
            box = Mailbox(dovecot, users[seat].name, users[seat].password)
            titles = [str(m["Subject"]) for m in box.messages()]
            assert any(t.startswith(f"[arbiter] {game}: entry #3 — your files") for t in titles), titles
    again = MailDesk(config)
    again.run(once=True)
    assert again.summary.sent == 0
