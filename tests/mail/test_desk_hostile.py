"""Hostile mail gets no crash and no reply storm (issue 11, item 6), on real servers."""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers.tables import make_keys

from arbiter.core.canonical import pretty
from arbiter.core.player import make_join
from arbiter.core.referee import new_game
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from mail.servers import Dovecot, Mailbox, SmtpRelay
from mail.test_desk_game import desk_config


@pytest.fixture
def desk(tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user):
    """A desk with one Mot Coin game waiting for joins, and a player who may write to it."""
    referee = new_user("referee")
    games = tmp_path / "games"
    games.mkdir()
    seats = ["alice", "bob", "carol"]
    keys = make_keys(tmp_path / "keys", seats)
    folder = games / "g1"
    new_game(folder, "motcoin", [(s, f"{keys[s]}.pub") for s in seats], {}, game_id="g1",
             created="2026-12-01T00:00:00Z")
    config = desk_config(tmp_path, dovecot, smtp_relay, referee, games)
    text = config.read_text().replace("max_per_sender = 100000", "max_per_sender = 3")
    if "max_per_sender" not in text:
        text += "max_per_sender = 3\n"
    config.write_text(text)
    sender = new_user("sender")
    inbox = Mailbox(dovecot, referee.name, referee.password)

    def run() -> None:
        MailDesk(load(config)).run(once=True)

    return SimpleNamespace(
        config=config, folder=folder, keys=keys, sender=sender, referee=referee, inbox=inbox,
        replies=Mailbox(dovecot, sender.name, sender.password), relay=smtp_relay, run=run,
    )


def letter(sender: str, to: str, **headers: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "hello"
    message["Message-ID"] = f"<{abs(hash((sender, tuple(headers.items()))))}@example.test>"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    return message


def replies(d) -> list[str]:
    return [m.get_body(("plain",)).get_content() for m in d.replies.messages()]


def test_html_only_mail_is_answered_once(desk) -> None:
    message = letter(desk.sender.address, desk.referee.address)
    message.set_content("<p>my move</p>", subtype="html")
    desk.inbox.append(message.as_bytes())
    desk.run()
    desk.run()
    answers = replies(desk)
    assert len(answers) == 1 and "nothing to judge" in answers[0]
    assert desk.inbox.count("INBOX") == 0 and desk.inbox.count("rejected") == 1


def test_a_30_mb_mail_is_answered_once_without_reading_it(desk) -> None:
    message = letter(desk.sender.address, desk.referee.address)
    message.set_content("x")
    message.add_attachment(b"\0" * (30 * 1024 * 1024), maintype="application",
                           subtype="octet-stream", filename="big.bin")
    desk.inbox.append(message.as_bytes())
    desk.run()
    answers = replies(desk)
    assert len(answers) == 1 and "larger than" in answers[0]
    assert desk.inbox.count("quarantine") == 1 and desk.inbox.count("INBOX") == 0


def test_200_attachments_with_hostile_names(desk, tmp_path: Path) -> None:
    before = sorted(p for p in tmp_path.rglob("*"))
    message = letter(desk.sender.address, desk.referee.address)
    message.set_content("x")
    for index in range(200):
        message.add_attachment(b'{"format": "arbiter.move/1"}', maintype="application",
                               subtype="json", filename=f"../../../etc/evil{index}\x1b.json")
    desk.inbox.append(message.as_bytes())
    desk.run()
    answers = replies(desk)
    assert len(answers) == 1 and "more than" in answers[0]
    new = [p for p in tmp_path.rglob("*") if p not in before]
    assert not [p for p in new if "evil" in p.name]


def test_a_mail_without_files_and_non_json_attachments(desk) -> None:
    message = letter(desk.sender.address, desk.referee.address)
    message.set_content("see attached")
    message.add_attachment(b"\x89PNG\r\n", maintype="image", subtype="png", filename="board.png")
    message.add_attachment(b"just text", maintype="text", subtype="plain", filename="notes.txt")
    desk.inbox.append(message.as_bytes())
    desk.run()
    answers = replies(desk)
    assert len(answers) == 1 and "nothing to judge" in answers[0]


@pytest.mark.parametrize(
    "headers",
    [{"Auto_Submitted": "auto-replied"}, {"Precedence": "bulk"}, {"Precedence": "junk"},
     {"From": "MAILER-DAEMON@example.test"}, {"List_Id": "<list.example.test>"}],
)
def test_robots_are_never_answered(desk, headers: dict[str, str]) -> None:
    sender = headers.pop("From", desk.sender.address)
    message = letter(sender, desk.referee.address, **headers)
    message.set_content("I am away until Monday.")
    desk.inbox.append(message.as_bytes())
    desk.run()
    assert replies(desk) == [] and len(desk.relay.messages) == 0
    assert desk.inbox.count("INBOX") == 0 and desk.inbox.count("rejected") == 1


def test_the_desks_own_mail_is_never_answered(desk) -> None:
    message = letter(f"Referee <{desk.referee.address}>", desk.referee.address)
    message.set_content("a loop?")
    desk.inbox.append(message.as_bytes())
    desk.run()
    assert len(desk.relay.messages) == 0 and desk.inbox.count("rejected") == 1


def test_a_flooding_sender_is_told_once(desk) -> None:
    join = make_join(desk.folder / "game.json", "alice", desk.keys["alice"])
    for index in range(8):
        message = letter(desk.sender.address, desk.referee.address, X_Index=str(index))
        message.set_content(pretty(join).decode())
        desk.inbox.append(message.as_bytes())
    desk.run()
    answers = replies(desk)
    limit = [a for a in answers if "within an hour" in a]
    assert len(limit) == 1
    # 3 files judged: the join accepted once, then duplicates; the rest unanswered after one notice.
    assert len(answers) <= 4
    assert desk.inbox.count("INBOX") == 0


def test_a_file_from_an_unknown_address_is_judged_and_answered(desk) -> None:
    """Identity is the signature: alice's join from a stranger's address is accepted."""
    store(desk.folder, "alice", "alice-home@example.test")
    message = letter(desk.sender.address, desk.referee.address)
    message.set_content("joining")
    join = make_join(desk.folder / "game.json", "alice", desk.keys["alice"])
    message.add_attachment(pretty(join), maintype="application", subtype="json", filename="join.json")
    desk.inbox.append(message.as_bytes())
    desk.run()
    answers = replies(desk)
    assert len(answers) == 1 and "accepted as entry #1" in answers[0]
    receipt = desk.replies.messages()[0]
    names = [part.get_filename() for part in receipt.iter_attachments()]
    assert names == ["receipt-g1-1.json"]
    # Threaded under the player's mail, and marked as a robot's answer (RFC 3834).
    assert receipt["In-Reply-To"] == message["Message-ID"]
    assert message["Message-ID"] in str(receipt["References"])
    assert receipt["Auto-Submitted"] == "auto-replied"
    assert json.loads((desk.folder / "public" / "state.json").read_bytes())["seq"] == 1


def test_a_file_for_an_unknown_game_is_refused(desk) -> None:
    join = make_join(desk.folder / "game.json", "alice", desk.keys["alice"])
    join["game"] = "elsewhere"
    message = letter(desk.sender.address, desk.referee.address)
    message.set_content(pretty(join).decode())
    desk.inbox.append(message.as_bytes())
    desk.run()
    answers = replies(desk)
    assert len(answers) == 1 and "no game 'elsewhere'" in answers[0]
    assert desk.inbox.count("rejected") == 1
