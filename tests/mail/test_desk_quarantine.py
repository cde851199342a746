"""One mail never stops the mail desk (issue 24, item 1), on a real Dovecot and SMTP relay.

A mail that cannot be read, or whose handling fails, goes to the quarantine folder with
one plain answer (when RFC 3834 allows one), and the desk goes on with the next mail. A
copy of an accepted file gets the same receipt, never a contradicting refusal. A server
failure, on the other hand, stops the desk and leaves the mail where it was.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers.tables import make_keys, started

from arbiter.core import registry
from arbiter.core.canonical import pretty
from arbiter.core.player import make_join
from arbiter.core.referee import new_game
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from mail.hostile import HOSTILE
from mail.servers import Dovecot, Mailbox, SmtpRelay
from mail.test_desk_game import desk_config

SEATS = ["alice", "bob", "carol"]


@pytest.fixture
def desk(tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user):
    """Mot Coin games g1 and g2 waiting for joins; alice has an address; a stranger writes."""
    referee, alice, stranger = new_user("referee"), new_user("alice"), new_user("stranger")
    games = tmp_path / "games"
    games.mkdir()
    keys = make_keys(tmp_path / "keys", SEATS)
    for game in ("g1", "g2"):
        new_game(games / game, "motcoin", [(s, f"{keys[s]}.pub") for s in SEATS], {},
                 game_id=game, created="2026-12-01T00:00:00Z")
        store(games / game, "alice", alice.address)
    config = desk_config(tmp_path, dovecot, smtp_relay, referee, games)
    inbox = Mailbox(dovecot, referee)

    def run() -> SimpleNamespace:
        reports: list[str] = []
        summary = MailDesk(load(config), report=reports.append).run(once=True)
        return SimpleNamespace(summary=summary, reports=reports)

    def join(game: str, sender: str, n: int = 0) -> bytes:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = referee.address
        message["Subject"] = f"joining {game}"
        message["Message-ID"] = f"<join.{game}.{n}.{sender}>"
        message.set_content("my join")
        obj = make_join(games / game / "game.json", "alice", keys["alice"])
        message.add_attachment(pretty(obj), maintype="application", subtype="json", filename="join.json")
        return message.as_bytes()

    def answers(user) -> list[str]:
        return [m.get_body(("plain",)).get_content() for m in Mailbox(dovecot, user).messages()]

    return SimpleNamespace(config=config, games=games, inbox=inbox, referee=referee, alice=alice,
                           stranger=stranger, relay=smtp_relay, run=run, join=join, answers=answers,
                           dovecot=dovecot)


@pytest.mark.parametrize("kind", ["nested-2000", "nul-charset", "utf7-surrogate"])
def test_a_mail_that_stopped_the_desk_is_quarantined_and_the_next_one_judged(desk, kind: str) -> None:
    """Before issue 24 each of these raised out of the desk and stayed in INBOX for good."""
    desk.inbox.append(HOSTILE[kind](desk.stranger.address, 1))
    desk.inbox.append(desk.join("g1", desk.stranger.address))
    done = desk.run()
    assert (desk.inbox.count("INBOX"), desk.inbox.count("quarantine"), desk.inbox.count("processed")) == (0, 1, 1)
    assert done.summary.quarantined == 1 and done.summary.accepted == 1
    got = desk.answers(desk.stranger)
    unreadable = [a for a in got if "could not be read" in a]
    assert len(unreadable) == 1 and "nothing in it was judged" in unreadable[0], got
    assert len([a for a in got if "accepted as entry #1 of game g1" in a]) == 1, got
    # The answer speaks of the mail, never of a game.
    assert "g1" not in unreadable[0] and "alice" not in unreadable[0]
    assert any("quarantined" in line for line in done.reports), done.reports
    sent = len(desk.relay.messages)
    again = desk.run()
    assert again.summary.mails == 0 and len(desk.relay.messages) == sent


def test_the_quarantine_folder_is_created_and_created_again(desk) -> None:
    from arbiter.desks.mail.transport import Mailbox as DeskMailbox

    box = Mailbox(desk.dovecot, desk.referee)
    assert "quarantine" not in box.folders()  # Dovecot creates only processed and rejected
    imap = load(desk.config).imap
    mailbox = DeskMailbox(imap)
    try:
        assert "quarantine" in box.folders()
        # Deleted while the desk runs: the MOVE answers NO [TRYCREATE] (RFC 6851 §3.3).
        other = box.connect()
        assert other.delete('"quarantine"')[0] == "OK"
        other.logout()
        box.append(HOSTILE["empty"](desk.stranger.address, 1))
        [uid] = mailbox.waiting()
        mailbox.move(uid, "quarantine")
    finally:
        mailbox.close()
    assert box.count("quarantine") == 1 and box.count("INBOX") == 0


def test_a_copy_of_an_accepted_file_gets_the_same_receipt_once_per_sender(desk) -> None:
    """Alice's join, then the same file from a stranger twice: before issue 24 the stranger
    got "accepted as entry #1" with a receipt and also "not accepted: already accepted"."""
    desk.inbox.append(desk.join("g1", desk.alice.address))
    desk.run()
    desk.inbox.append(desk.join("g1", desk.stranger.address, 1))
    desk.inbox.append(desk.join("g1", desk.stranger.address, 2))
    desk.inbox.append(desk.join("g1", desk.alice.address, 3))
    desk.run()
    got = desk.answers(desk.stranger)
    assert len(got) == 1, got
    assert "accepted as entry #1 of game g1" in got[0] and "changed nothing" in got[0]
    [receipt] = Mailbox(desk.dovecot, desk.stranger).messages()
    assert [p.get_filename() for p in receipt.iter_attachments()] == ["receipt-g1-1.json"]
    assert receipt["In-Reply-To"] == "<join.g1.1." + desk.stranger.address + ">"
    mine = [a for a in desk.answers(desk.alice) if "entry #1 of game g1" in a]
    assert len(mine) == 1 and "changed nothing" not in mine[0]
    assert not [a for a in got + desk.answers(desk.alice) if "not accepted" in a]
    assert json.loads((desk.games / "g1" / "public" / "state.json").read_bytes())["seq"] == 1


def test_a_failure_after_the_commit_is_finished_from_the_record_once_repaired(desk) -> None:
    """A damaged referee/addresses.json fails g1's round after its chain commit: that mail
    goes to quarantine without a word (its answer is the receipt), g2's mail is judged,
    and once the addresses are set again the next run sends g1's round, exactly once."""
    addresses = desk.games / "g1" / "referee" / "addresses.json"
    addresses.write_text('{"format": "not addresses"}')
    desk.inbox.append(desk.join("g1", desk.stranger.address))
    desk.inbox.append(desk.join("g2", desk.stranger.address))
    first = desk.run()
    assert (desk.inbox.count("quarantine"), desk.inbox.count("processed")) == (1, 1)
    assert [a.split(" (")[0] for a in desk.answers(desk.stranger)] == [
        "join.json was accepted as entry #1 of game g2"]
    assert any("Tampered" in line for line in first.reports), first.reports
    second = desk.run()  # still damaged: reported again, nothing sent
    assert second.summary.sent == 0 and any("entry #1" in line for line in second.reports)
    addresses.unlink()
    store(desk.games / "g1", "alice", desk.alice.address)
    third = desk.run()
    assert third.reports == [] and third.summary.sent >= 2
    got = desk.answers(desk.stranger)
    assert len(got) == 2 and sum("entry #1 of game g1" in a for a in got) == 1, got
    assert not [a for a in got if "could not be read" in a or "not accepted" in a]
    record = json.loads((desk.games / "g1" / "referee" / "mail" / "1.json").read_bytes())
    assert record["done"] is True and record["reply"]["to"] == desk.stranger.address
    assert desk.run().summary.sent == 0


class _Brittle(registry.get("tally").__class__):  # type: ignore[misc]
    """The tally engine with a bug: its check raises on a discard (an engine bug, as
    issue 24's fuzzing found 101 of)."""

    def check(self, state, seat, action):  # type: ignore[no-untyped-def]
        if action.get("kind") == "discard":
            raise RuntimeError("engine bug")
        return super().check(state, seat, action)


@pytest.fixture
def brittle() -> Iterator[None]:
    original = registry.get("tally").__class__
    registry.register("tally", _Brittle)
    yield
    registry.register("tally", original)


def test_an_engine_failing_on_one_file_costs_that_mail_not_the_desk(
    tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user, brittle
) -> None:
    referee, player = new_user("referee"), new_user("player")
    table = started(tmp_path / "t", ["alice", "bob"])
    games = tmp_path / "games"
    games.mkdir()
    folder = games / "tally-test"
    table.root.rename(folder)
    table.root = folder
    mover = table.turn()
    legal = table.state(mover)["legal"]
    inbox = Mailbox(dovecot, referee)
    for n, kind in enumerate(("discard", "play")):
        choice = next(a for a in legal if a["kind"] == kind)
        message = EmailMessage()
        message["From"] = player.address
        message["To"] = referee.address
        message["Subject"] = kind
        message["Message-ID"] = f"<{kind}.{n}@players.test>"
        message.set_content("my move")
        message.add_attachment(pretty(table.move_file(mover, [choice])), maintype="application",
                               subtype="json", filename=f"{kind}.json")
        inbox.append(message.as_bytes())
    reports: list[str] = []
    config = load(desk_config(tmp_path, dovecot, smtp_relay, referee, games))
    summary = MailDesk(config, report=reports.append).run(once=True)
    assert (inbox.count("INBOX"), inbox.count("quarantine"), inbox.count("processed")) == (0, 1, 1)
    assert summary.accepted == 1 and any("RuntimeError: engine bug" in r for r in reports)
    got = [m.get_body(("plain",)).get_content() for m in Mailbox(dovecot, player).messages()]
    assert len(got) == 2 and "discard.json was not judged" in got[0] and "not accepted" in got[0]
    assert "engine bug" not in got[0]  # the referee is told the details, the player is not
    assert "play.json was accepted" in got[1]


def test_robots_and_bounces_that_cannot_be_read_are_quarantined_unanswered(desk) -> None:
    for n, kind in enumerate(("robot", "bounce", "empty", "header-1mb")):
        desk.inbox.append(HOSTILE[kind](desk.stranger.address, n))
    done = desk.run()
    assert done.summary.quarantined == 4 and desk.inbox.count("quarantine") == 4
    assert len(desk.relay.messages) == 0


def test_a_flood_of_unreadable_mail_gets_no_flood_of_answers(desk) -> None:
    text = desk.config.read_text().replace("max_per_sender = 100000", "max_per_sender = 3")
    desk.config.write_text(text)
    for n in range(6):
        desk.inbox.append(HOSTILE["boundary-unused"](desk.stranger.address, n))
    desk.run()
    assert desk.inbox.count("quarantine") == 6 and len(desk.answers(desk.stranger)) == 3


def test_a_server_failure_stops_the_desk_and_leaves_the_mail(desk) -> None:
    """The SMTP server is down: that is not the mail's fault. One line, exit 17 (not
    ready), the mail still in INBOX; the next run with the server back answers it."""
    desk.inbox.append(HOSTILE["boundary-unused"](desk.stranger.address, 1))
    good = desk.config.read_text()
    desk.config.write_text(good.replace(f"port = {desk.relay.port}", "port = 9"))
    down = subprocess.run([sys.executable, "-m", "arbiter", "mail", "run", "--config",
                           str(desk.config), "--once"], capture_output=True, text=True, timeout=120)
    assert down.returncode == 17, down.stderr
    assert "cannot reach the SMTP server" in down.stderr and "Traceback" not in down.stderr
    assert desk.inbox.count("INBOX") == 1 and desk.inbox.count("quarantine") == 0
    desk.config.write_text(good)
    desk.run()
    assert desk.inbox.count("quarantine") == 1 and len(desk.answers(desk.stranger)) == 1
