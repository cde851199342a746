"""`arbiter mail run` as a long-running process, `arbiter mail seat`, `new --email`, `mail send`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time  # noqa: TID251 (tests wait for a real process)
from pathlib import Path

from helpers.tables import make_keys

from arbiter.core.canonical import pretty
from arbiter.core.player import make_join
from arbiter.core.referee import new_game
from mail.servers import Dovecot, Mailbox, SmtpRelay
from mail.test_desk_game import desk_config

ROOT = Path(__file__).resolve().parents[2]


def arbiter(*args: object, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arbiter", *map(str, args)],
                          capture_output=True, text=True, **kwargs)


def game(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    games = tmp_path / "games"
    games.mkdir()
    seats = ["alice", "bob", "carol"]
    keys = make_keys(tmp_path / "keys", seats)
    new_game(games / "g1", "motcoin", [(s, f"{keys[s]}.pub") for s in seats], {}, game_id="g1",
             created="2026-12-01T00:00:00Z")
    return games, keys


def mail_join_and_wait(dovecot: Dovecot, games: Path, keys: dict[str, Path], seat: str, sender,
                       referee, seconds: float) -> Mailbox:
    """Put ``seat``'s join in the referee's INBOX; return the sender's mailbox once the desk
    answered (or after ``seconds``)."""
    join = make_join(games / "g1" / "game.json", seat, keys[seat])
    raw = (f"From: {sender.address}\r\nTo: {referee.address}\r\nSubject: join\r\n"
           f"Message-ID: <{seat}-join@example.test>\r\n\r\n").encode() + pretty(join)
    Mailbox(dovecot, referee.name, referee.password).append(raw)
    replies = Mailbox(dovecot, sender.name, sender.password)
    deadline = time.monotonic() + seconds
    while replies.count() == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    return replies


def test_the_desk_waits_with_idle_and_stops_on_sigterm(
    tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user
) -> None:
    games, keys = game(tmp_path)
    referee, sender = new_user("referee"), new_user("sender")
    config = desk_config(tmp_path, dovecot, smtp_relay, referee, games)
    config.write_text(config.read_text().replace("poll_seconds = 1", "poll_seconds = 300"))
    desk = subprocess.Popen([sys.executable, "-m", "arbiter", "mail", "run", "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.5)  # connected and idling
        replies = mail_join_and_wait(dovecot, games, keys, "alice", sender, referee, 20)
        # Answered long before the 300 s poll: IDLE woke the desk.
        assert replies.count() == 1, desk.stderr.read() if desk.poll() is not None else ""
        assert "accepted as entry #1" in str(replies.messages()[0]["Subject"])
        desk.send_signal(signal.SIGTERM)
        out, err = desk.communicate(timeout=15)
        assert desk.returncode == 0, err
        assert "1 accepted" in out
    finally:
        if desk.poll() is None:
            desk.kill()


def test_new_with_email_and_mail_seat_keep_addresses_private(tmp_path: Path) -> None:
    keys = make_keys(tmp_path / "keys", ["alice", "bob", "carol"])
    seats = [f"--seat={s}={keys[s]}.pub" for s in keys]
    done = arbiter("new", tmp_path / "g", "--game", "motcoin", *seats,
                   "--email", "alice=Alice <alice@example.test>")
    assert done.returncode == 0, done.stderr
    done = arbiter("mail", "seat", tmp_path / "g", "bob", "bob@example.test")
    assert done.returncode == 0, done.stderr
    stored = json.loads((tmp_path / "g" / "referee" / "addresses.json").read_bytes())
    assert stored["seats"] == {"alice": "alice@example.test", "bob": "bob@example.test"}
    public = [p for p in (tmp_path / "g").rglob("*") if p.is_file() and "referee" not in p.parts]
    assert not [p for p in public if b"@example.test" in p.read_bytes()]
    done = arbiter("mail", "seat", tmp_path / "g", "zed", "z@example.test")
    assert done.returncode == 6 and done.stderr.count("\n") == 1
    done = arbiter("new", tmp_path / "h", "--game", "motcoin", *seats, "--email", "dave=d@example.test")
    assert done.returncode == 2 and not (tmp_path / "h").exists()


def test_mail_send_and_a_bad_config(tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay,
                                    new_user) -> None:
    games, keys = game(tmp_path)
    referee, player = new_user("referee"), new_user("alice")
    config = tmp_path / "player.toml"
    config.write_text(f'[smtp]\nhost = "{smtp_relay.host}"\nport = {smtp_relay.port}\ntls = "none"\n'
                      f'from = "Alice <{player.address}>"\n')
    move = tmp_path / "join.json"
    move.write_bytes(pretty(make_join(games / "g1" / "game.json", "alice", keys["alice"])))
    done = arbiter("mail", "send", move, "--to", referee.address, "--config", config)
    assert done.returncode == 0, done.stderr
    box = Mailbox(dovecot, referee.name, referee.password)
    assert box.count() == 1
    attached = [p.get_filename() for p in box.messages()[0].iter_attachments()]
    assert attached == ["join.json"]
    # An address the server refuses (550 at RCPT): an error, never "sent".
    done = arbiter("mail", "send", move, "--to", "nobody@example.test", "--config", config)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done
    assert "refused the address nobody@example.test (550" in done.stderr
    assert "sent" not in done.stdout and box.count() == 1
    config.write_text(config.read_text().replace('tls = "none"', 'tls = "maybe"'))
    done = arbiter("mail", "send", move, "--to", referee.address, "--config", config)
    assert done.returncode == 2 and "smtp.tls" in done.stderr and done.stderr.count("\n") == 1
    env = dict(os.environ)
    done = arbiter("mail", "run", "--config", tmp_path / "missing.toml", "--once", env=env)
    assert done.returncode in (2, 17) and "Traceback" not in done.stderr


def test_without_idle_the_desk_polls(tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay,
                                     new_user) -> None:
    """A server without IDLE: the desk looks again every poll_seconds."""
    import threading

    from arbiter.desks.mail.config import load
    from arbiter.desks.mail.desk import MailDesk
    from arbiter.desks.mail.transport import Mailbox as DeskMailbox

    games, keys = game(tmp_path)
    referee, sender = new_user("referee"), new_user("sender")
    config = load(desk_config(tmp_path, dovecot, smtp_relay, referee, games))
    box = DeskMailbox(config.imap)
    box.capabilities.discard("IDLE")
    desk = MailDesk(config, mailbox=box)
    thread = threading.Thread(target=desk.run)
    thread.start()
    try:
        time.sleep(0.5)
        replies = mail_join_and_wait(dovecot, games, keys, "bob", sender, referee, 10)
        assert replies.count() == 1
    finally:
        desk.stopping = True
        thread.join(timeout=10)
    assert not thread.is_alive() and desk.summary.accepted == 1
