"""Whole games played by mail over a real Dovecot and a real SMTP server (issue 11, item 8)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.tables import make_keys

from arbiter.core.referee import new_game, reveal
from arbiter.core.replay import verify
from arbiter.core.rng import Rng
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from mail.players import Player
from mail.servers import Dovecot, Mailbox, SmtpRelay


def desk_config(tmp_path: Path, dovecot: Dovecot, relay: SmtpRelay, referee, games: Path,
                observers: list[str] = ()) -> Path:
    (tmp_path / "imap.pw").write_text(referee.password)
    path = tmp_path / "desk.toml"
    path.write_text(
        f"""
[imap]
host = "{dovecot.host}"
port = {dovecot.port}
user = "{referee.name}"
password_file = "imap.pw"
tls = "none"

[smtp]
host = "{relay.host}"
port = {relay.port}
tls = "none"
from = "Referee <{referee.address}>"

[desk]
games = "{games}"
poll_seconds = 1
max_per_sender = 100000
observers = {json.dumps(list(observers))}
"""
    )
    return path


def run_desk(config: Path, cli: bool) -> None:
    """One `--once` run: the real command in its own process, or the same desk in this one."""
    if cli:
        done = subprocess.run([sys.executable, "-m", "arbiter", "mail", "run", "--config",
                               str(config), "--once"], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    else:
        MailDesk(load(config)).run(once=True)


def play_by_mail(tmp_path: Path, dovecot: Dovecot, relay: SmtpRelay, new_user, engine: str,
                 seats: list[str], cli: bool = False) -> tuple[Path, dict[str, Player], Path]:
    referee = new_user("referee")
    watcher = new_user("watcher")
    games = tmp_path / "games"
    games.mkdir()
    keys = make_keys(tmp_path / "keys", seats)
    folder = games / "by-mail"
    new_game(folder, engine, [(s, f"{keys[s]}.pub") for s in seats], {}, game_id="by-mail",
             created="2026-12-01T00:00:00Z")
    players = {}
    for seat in seats:
        user = new_user(seat)
        store(folder, seat, user.address)
        players[seat] = Player(seat, user.address, user.name, user.password, keys[seat],
                               (dovecot.host, dovecot.port), (relay.host, relay.port),
                               referee.address)
    config = desk_config(tmp_path, dovecot, relay, referee, games, [watcher.address])
    for player in players.values():
        player.join(folder / "game.json")
    run_desk(config, cli)
    choices = Rng(b"mail-game".ljust(32, b"\0"))
    for _ in range(2000):
        for player in players.values():
            player.fetch()
        moved = [p.seat for p in players.values() if p.play(choices)]
        state = json.loads((folder / "public" / "state.json").read_bytes())
        if state["status"] == "over":
            break
        if not moved:
            last = [(p.seat, str(m["Subject"]), m.get_body(("plain",)).get_content()[:300])
                    for p in players.values() for m in p.inbox[-2:]]
            raise AssertionError(f"nobody could move at entry #{state['seq']}: {last}")
        run_desk(config, cli)
    assert json.loads((folder / "public" / "state.json").read_bytes())["status"] == "over"
    return folder, players, config


def check_mailboxes(folder: Path, players: dict[str, Player], dovecot: Dovecot) -> None:
    """Each player got only their own state files, and every mail parsed."""
    for seat, player in players.items():
        player.fetch()
        states = [
            json.loads(part.get_payload(decode=True))
            for message in player.inbox
            for part in message.iter_attachments()
            if part.get_filename() == "state.json"
        ]
        assert states, f"{seat} got no state file"
        assert {s["seat"] for s in states} == {seat}  # never another seat's file
        assert states[-1]["status"] == "over"
        subjects = [str(m["Subject"]) for m in player.inbox]
        assert any("accepted as entry" in s for s in subjects)
        assert any("revealed" in s for s in subjects)


# In the test's process the desk is the same code as `arbiter mail run --once`; one Mot Coin
# game also runs the real command between rounds (about 190 s of process start-ups: slow).
@pytest.mark.parametrize(
    ("engine", "seats", "cli"),
    [
        # Whole games by mail take a minute or more each on two cores: Mottainai with the
        # slow suites, the 3-seat Mot Coin game with benchmarks/full.sh (tests/play plays
        # whole games by mail through arbiter play with the slow suites too).
        pytest.param("motcoin", ["alice", "bob", "carol"], False,
                     marks=[pytest.mark.slow, pytest.mark.full]),
        pytest.param("mottainai", ["alice", "bob"], False, marks=pytest.mark.slow),
        # The desk as its own process each round: ~3 minutes on two cores (benchmarks/full.sh).
        pytest.param("motcoin", ["alice", "bob", "carol"], True,
                     marks=[pytest.mark.slow, pytest.mark.full]),
    ],
)
def test_a_whole_game_by_mail(tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user,
                              engine: str, seats: list[str], cli: bool) -> None:
    folder, players, config = play_by_mail(tmp_path, dovecot, smtp_relay, new_user, engine, seats,
                                           cli)
    reveal(folder)
    run_desk(config, cli)  # announces the reveal
    assert verify(folder).replayed
    check_mailboxes(folder, players, dovecot)
    referee = load(config).imap
    box = Mailbox(dovecot, referee.user, referee.password)
    assert box.count("INBOX") == 0
    assert box.count("processed") > 0
