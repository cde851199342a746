"""The mail transport against a real Dovecot and a real SMTP relay, with a real mail desk.

The desk runs in this process (``MailDesk(...).run(once=True)``, the same code as
``arbiter mail run --once``); the players' moves reach it only through the transport.
"""

from __future__ import annotations

import imaplib
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.tables import CREATED, make_keys
from mail.servers import Dovecot, Mailbox, MailUser, SmtpRelay, free_port
from mail.test_desk_game import desk_config

from arbiter.core.canonical import pretty
from arbiter.core.errors import NotReady, UsageError
from arbiter.core.player import make_join, make_move
from arbiter.core.referee import new_game
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from arbiter.play import profile
from arbiter.play.profile import GameEntry
from arbiter.play.transports import open_transport
from arbiter.play.transports.mail import MailTransport

GAME = "by-mail"


def player_config(tmp: Path, user: MailUser, imap: tuple[str, int], smtp: tuple[str, int],
                  password: str | None = None, smtp_user: str | None = None) -> Path:
    folder = tmp / f"player-{user.name}"
    folder.mkdir(exist_ok=True)
    (folder / "pw").write_text((password or user.password) + "\n")
    login = f'user = "{smtp_user}"\npassword_file = "pw"\n' if smtp_user else ""
    path = folder / "mail.toml"
    path.write_text(
        f'[imap]\nhost = "{imap[0]}"\nport = {imap[1]}\nuser = "{user.name}"\n'
        f'password_file = "pw"\ntls = "none"\n\n'
        f'[smtp]\nhost = "{smtp[0]}"\nport = {smtp[1]}\ntls = "none"\n{login}'
        f'from = "{user.name} <{user.address}>"\n'
    )
    return path


class Game:
    """A tally game at a mail desk, with two players who each have a mailbox."""

    def __init__(self, tmp: Path, dovecot: Dovecot, relay: SmtpRelay,
                 new_user: Callable[..., MailUser]):
        self.tmp, self.dovecot = tmp, dovecot
        self.referee = new_user("referee")
        games = tmp / "games"
        games.mkdir()
        self.keys = make_keys(tmp / "keys", ["alice", "bob"])
        self.folder = games / GAME
        new_game(self.folder, "tally", [(s, f"{self.keys[s]}.pub") for s in self.keys], {},
                 game_id=GAME, created=CREATED)
        self.users = {seat: new_user(seat) for seat in self.keys}
        for seat, user in self.users.items():
            store(self.folder, seat, user.address)
        self.config = desk_config(tmp, dovecot, relay, self.referee, games)
        self.player_configs = {
            seat: player_config(tmp, user, (dovecot.host, dovecot.port), (relay.host, relay.port))
            for seat, user in self.users.items()
        }

    def transport(self, seat: str, cache: Path | None = None) -> MailTransport:
        return MailTransport(self.player_configs[seat], self.referee.address, GAME, seat,
                             cache or self.tmp / f"cache-{seat}")

    def desk(self) -> None:
        MailDesk(load(self.config)).run(once=True)

    def public(self) -> dict[str, object]:
        return dict(json.loads((self.folder / "public" / "state.json").read_bytes()))

    def box(self, seat: str) -> Mailbox:
        return Mailbox(self.dovecot, self.users[seat])


@pytest.fixture
def game(tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay,
         new_user: Callable[..., MailUser]) -> Game:
    return Game(tmp_path, dovecot, smtp_relay, new_user)


def joined(game: Game) -> dict[str, MailTransport]:
    transports = {seat: game.transport(seat) for seat in game.keys}
    for seat, transport in transports.items():
        join = pretty(make_join(game.folder / "game.json", seat, game.keys[seat]))
        assert transport.deliver(f"join-{seat}.json", join) == (
            f"mailed join-{seat}.json to {game.referee.address}")
    game.desk()
    return transports


def test_a_round_by_mail(game: Game) -> None:
    transports = joined(game)
    assert game.public()["status"] == "playing"
    for seat, transport in transports.items():
        got = transport.fetch()
        state = json.loads(got.state)
        assert (state["seat"], state["seq"]) == (seat, 2)
        assert got.log is not None and "joined" in got.log
        assert got.time is not None and got.time.endswith("Z") and len(got.time) == 20
        assert "entry #2" in got.where
    # the seat on turn moves from the fetched file; the desk answers; fetch picks the newest
    turn = game.public()["prompt"]["seat"]  # type: ignore[index]
    state = json.loads(transports[turn].fetch().state)
    move = pretty(make_move(state, game.keys[turn], [state["legal"][0]]))
    transports[turn].deliver(f"{turn}-3.json", move)
    folders = {seat: sorted(game.box(seat).folders()) for seat in game.keys}
    counts = {seat: game.box(seat).count() for seat in game.keys}
    game.desk()
    assert game.public()["seq"] == 3
    for seat, transport in transports.items():
        assert json.loads(transport.fetch().state)["seq"] == 3
        # read-only: nothing moved, created or deleted in the player's mailbox
        assert sorted(game.box(seat).folders()) == folders[seat]
        assert game.box(seat).count() > counts[seat]
        unseen = _unseen(game.box(seat))
        assert unseen == game.box(seat).count()  # BODY.PEEK: nothing marked read


def _unseen(box: Mailbox) -> int:
    imap = box.connect()
    try:
        imap.select("INBOX", readonly=True)
        _, found = imap.search(None, "UNSEEN")
        return len(found[0].split())
    finally:
        imap.logout()


def test_the_highest_seq_wins_and_the_cache_keeps_it(game: Game) -> None:
    transports = joined(game)
    alice = transports["alice"]
    old_mail = _state_mails(game.box("alice"))[-1]
    turn = game.public()["prompt"]["seat"]  # type: ignore[index]
    state = json.loads(transports[turn].fetch().state)
    transports[turn].deliver("m3.json", pretty(make_move(state, game.keys[turn], [state["legal"][0]])))
    game.desk()
    assert json.loads(alice.fetch().state)["seq"] == 3
    # An older state mail arriving late (a higher UID, a lower seq) is ignored.
    game.box("alice").append(old_mail)
    assert json.loads(alice.fetch().state)["seq"] == 3
    record = json.loads((game.tmp / "cache-alice" / "mail.json").read_text())
    assert record["seq"] == 3 and record["uid"] == game.box("alice").count()
    # A new transport on the same cache reads only newer mail: none, and the kept file.
    again = game.transport("alice")
    got = again.fetch()
    assert json.loads(got.state)["seq"] == 3 and got.log is not None
    # Another player's files are never taken, even in this mailbox.
    game.box("alice").append(_state_mails(game.box("bob"))[-1])
    assert json.loads(again.fetch().state)["seat"] == "alice"
    # A state mail that does not come from the desk's address is not taken, however new.
    from arbiter.desks.mail import compose

    kept = json.loads(again.fetch().state)
    later = pretty({**kept, "seq": 9})
    for sender, taken in (("mallory@example.test", 3), (game.referee.address, 9)):
        forged = compose.letter(
            sender, game.users["alice"].address, f"{GAME}: entry #9 — your files (alice)",
            "Game.\n", compose.message_id(sender, GAME, 9, sender),
            attachments=[("state.json", later, "application/json")],
        )
        game.box("alice").append(forged.as_bytes())
        assert json.loads(again.fetch().state)["seq"] == taken, sender
    # A cache lost or damaged is rebuilt from the mailbox.
    (game.tmp / "cache-alice" / "mail.json").write_text("{damaged")
    assert json.loads(game.transport("alice").fetch().state)["seq"] == 9


def _state_mails(box: Mailbox) -> list[bytes]:
    return [raw for raw in box.raw_messages() if b'filename="state.json"' in raw]


def test_no_state_mail_yet(game: Game) -> None:
    with pytest.raises(NotReady) as exc:
        game.transport("alice").fetch()
    assert "no state mail for game by-mail, seat alice" in exc.value.message


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # loopback only
def test_servers_down_and_bad_logins(tmp_path: Path, game: Game, dovecot: Dovecot,
                                     smtp_relay_factory: Callable[..., SmtpRelay]) -> None:
    user = game.users["alice"]
    closed = free_port()
    (tmp_path / "down").mkdir()
    down = player_config(tmp_path / "down", user, ("127.0.0.1", closed), ("127.0.0.1", closed))
    transport = MailTransport(down, game.referee.address, GAME, "alice", tmp_path / "c1")
    with pytest.raises(NotReady) as exc:
        transport.fetch()
    assert f"cannot reach the IMAP server 127.0.0.1:{closed}" in exc.value.message
    assert exc.value.exit_code == 17 and "\n" not in exc.value.message
    with pytest.raises(NotReady) as exc:
        transport.deliver("m.json", b"{}")
    assert f"cannot reach the SMTP server 127.0.0.1:{closed}" in exc.value.message
    # a wrong IMAP password, a mailbox that does not exist: the config is to blame
    (tmp_path / "wrong").mkdir()
    wrong = player_config(tmp_path / "wrong", user, (dovecot.host, dovecot.port),
                          ("127.0.0.1", closed), password="not-it")
    with pytest.raises(UsageError) as exc:
        MailTransport(wrong, game.referee.address, GAME, "alice", tmp_path / "c2").fetch()
    assert "refused the login" in exc.value.message and "\n" not in exc.value.message
    config = game.player_configs["alice"]
    config.write_text(config.read_text().replace('tls = "none"\n\n', 'tls = "none"\nmailbox = "nope"\n\n', 1))
    with pytest.raises(UsageError) as exc:
        MailTransport(config, game.referee.address, GAME, "alice", tmp_path / "c3").fetch()
    assert "mailbox 'nope' cannot be opened" in exc.value.message
    # an SMTP server that wants a login it refuses; an address it does not deliver to
    relay = smtp_relay_factory(auth={"alice": "right"})
    (tmp_path / "smtp").mkdir()
    smtp = player_config(tmp_path / "smtp", user, (dovecot.host, dovecot.port),
                         (relay.host, relay.port), password="wrong", smtp_user="alice")
    with pytest.raises(UsageError) as exc:
        MailTransport(smtp, game.referee.address, GAME, "alice", tmp_path / "c4").deliver("m.json", b"{}")
    assert "refused the login of alice" in exc.value.message
    with pytest.raises(UsageError) as exc:
        MailTransport(game.player_configs["bob"], "nobody@example.test", GAME, "bob",
                      tmp_path / "c5").deliver("m.json", b"{}")
    assert "refused the address nobody@example.test" in exc.value.message


def test_bad_config_is_a_usage_error(tmp_path: Path) -> None:
    config = tmp_path / "mail.toml"
    config.write_text('[imap]\nhost = "h"\nuser = "u"\n[smtp]\nhost = "h"\nfrom = "a@b.test"\n')
    with pytest.raises(UsageError) as exc:
        MailTransport(config, "desk@b.test", GAME, "alice", tmp_path / "c")
    assert "imap.user is set but no password" in exc.value.message
    config.write_text('[imap]\nhost = "h"\n[smtp]\nhost = "h"\nfrom = "a@b.test"\n')
    with pytest.raises(UsageError) as exc:
        MailTransport(config, "not an address", GAME, "alice", tmp_path / "c")
    assert "is not one mail address" in exc.value.message


def test_open_transport_from_the_profile(game: Game) -> None:
    joined(game)
    entry = profile.add(GameEntry(GAME, "bob", game.keys["bob"], "mail", game.folder / "game.json",
                                  {"config": str(game.player_configs["bob"]), "to": game.referee.address}))
    transport = open_transport(entry)
    assert isinstance(transport, MailTransport)
    assert json.loads(transport.fetch().state)["seat"] == "bob"
    kept = profile.state_dir(GAME)
    assert (kept / "state.json").is_file() and (kept / "log.md").is_file()
    assert (kept / "game.json").read_bytes() == (game.folder / "game.json").read_bytes()


def test_imap_is_only_read(game: Game) -> None:
    """The transport never sends a command that changes the mailbox (a spy on imaplib)."""
    joined(game)
    sent: list[str] = []
    original = imaplib.IMAP4._command

    def spy(self: imaplib.IMAP4, name: str, *args: object) -> object:
        sent.append(name)
        if name == "UID":
            sent.append(f"UID {args[0]}".upper())
        return original(self, name, *args)

    imaplib.IMAP4._command = spy  # type: ignore[method-assign]
    try:
        game.transport("alice").fetch()
    finally:
        imaplib.IMAP4._command = original  # type: ignore[method-assign]
    assert set(sent) <= {"CAPABILITY", "LOGIN", "EXAMINE", "UID", "UID SEARCH", "UID FETCH", "LOGOUT"}
    assert "SELECT" not in sent


@pytest.mark.parametrize(
    ("date", "time"),
    [
        ("Thu, 03 Dec 2026 18:08:02 +0100", "2026-12-03T17:08:02Z"),
        ("Thu, 31 Dec 2026 23:30:00 -0100", "2027-01-01T00:30:00Z"),
        ("Thu, 03 Dec 2026 18:08:02 -0000", "2026-12-03T18:08:02Z"),
        ("not a date", None),
        ("Thu, 30 Feb 2026 18:08:02 +0000", None),
    ],
)
def test_the_mail_date_as_utc(date: str, time: str | None) -> None:
    from arbiter.play.transports.mail import _utc

    assert _utc(date) == time
