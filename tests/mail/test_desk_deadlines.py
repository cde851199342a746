"""The mail desk keeps the clock of games with deadlines: a reminder at half time and
one when the grace starts, then the timeout policy and everyone's new files — each once,
with the desk's clock injected (``MailDesk.now``), against real Dovecot and SMTP."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.tables import make_keys

from arbiter.core import gamedir
from arbiter.core.referee import new_game
from arbiter.desks.mail import records
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


def test_a_timeout_whose_desk_died_before_its_first_mail_is_announced_once(
    tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user
) -> None:
    """Issue 24, item 4: the desk applies a timeout and is killed (SIGKILL) right after
    the chain commit, before the entry's record and its first mail. No mail will be read
    again to start that round: the next run finds the game's last entry, a timeout with
    no record, and sends everyone their files, once."""

    def game(name: str) -> tuple[Path, dict[str, object]]:
        base = tmp_path / name
        games = base / "games"
        games.mkdir(parents=True)
        keys = make_keys(base / "keys", ["alice", "bob", "carol"])
        folder = games / "late"
        new_game(folder, "motcoin", [(s, f"{keys[s]}.pub") for s in keys], {}, game_id="late",
                 join=False, created="2020-01-01T00:00:00Z", deadline=86400, on_timeout="bot")
        users = {seat: new_user(seat) for seat in keys}
        for seat, user in users.items():
            store(folder, seat, user.address)
        return desk_config(base, dovecot, smtp_relay, new_user("referee"), games), users

    traced, _ = game("traced")
    points: list[str] = []

    def note() -> None:
        points.append(str(sys._getframe(1).f_locals["path"]))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gamedir, "write_point", note)
        patch.setattr(records, "write_point", note)
        assert MailDesk(load(traced)).run(once=True).timeouts == 1
    record = next(n for n, path in enumerate(points, 1) if "/referee/mail/" in path)
    config, users = game("killed")
    folder = config.parent / "games" / "late"
    env = {**os.environ, "ARBITER_FAILPOINT": str(record - 1)}
    command = [sys.executable, "-m", "arbiter", "mail", "run", "--config", str(config), "--once"]
    killed = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert killed.returncode == -9, killed.stderr
    last = json.loads((folder / "chain.jsonl").read_text().splitlines()[-1])
    assert last["kind"] == "timeout" and not (folder / "referee" / "mail").exists()
    boxes = {seat: Mailbox(dovecot, user) for seat, user in users.items()}
    assert all(box.count() == 0 for box in boxes.values())
    env.pop("ARBITER_FAILPOINT")
    for _ in range(2):  # the second run sends nothing more
        again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)
        assert again.returncode == 0, again.stderr
    for seat, box in boxes.items():
        titles = [str(m["Subject"]) for m in box.messages()]
        assert titles == [f"[arbiter] late: entry #{last['seq']} — your files ({seat})"], titles
