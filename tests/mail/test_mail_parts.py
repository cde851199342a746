"""The mail desk's parts that need no server: config, parsing hostile mail, ids, addresses."""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path

import pytest
from helpers.tables import started

from arbiter.core.canonical import pretty
from arbiter.core.errors import UsageError
from arbiter.desks.mail import addresses, compose, extract
from arbiter.desks.mail.config import load

GOOD = """
[imap]
host = "127.0.0.1"
port = 1143
user = "referee"
password_file = "imap.pw"
tls = "none"

[smtp]
host = "127.0.0.1"
port = 1025
tls = "none"
from = "Referee <referee@example.test>"

[desk]
games = "games"
poll_seconds = 5
observers = ["watch@example.test"]
"""


def write_config(tmp_path: Path, text: str) -> Path:
    (tmp_path / "imap.pw").write_text("secret\n")
    path = tmp_path / "desk.toml"
    path.write_text(text)
    return path


def test_a_good_config_reads(tmp_path: Path) -> None:
    config = load(write_config(tmp_path, GOOD))
    assert config.imap.password == "secret" and config.imap.port == 1143
    assert config.smtp.address == "referee@example.test" and config.smtp.user is None
    assert config.desk.games == tmp_path / "games" and config.desk.observers == ("watch@example.test",)
    assert config.imap.verify_certificate and config.imap.processed == "processed"
    assert "secret" not in repr(config)


@pytest.mark.parametrize(
    ("edit", "key"),
    [
        (lambda t: t.replace('tls = "none"\n\n[smtp]', 'tls = "ssl3"\n\n[smtp]'), "imap.tls"),
        (lambda t: t.replace("port = 1143", 'port = "x"'), "imap.port"),
        (lambda t: t.replace('password_file = "imap.pw"', 'password_file = "missing.pw"'), "imap.password_file"),
        (lambda t: t.replace('password_file = "imap.pw"', 'password_env = "NO_SUCH_VARIABLE_HERE"'), "imap.password_env"),
        (lambda t: t.replace('password_file = "imap.pw"\n', ""), "imap.user"),
        (lambda t: t.replace('from = "Referee <referee@example.test>"', 'from = "nobody"'), "smtp.from"),
        (lambda t: t.replace('games = "games"', ""), "desk.games"),
        (lambda t: t.replace("poll_seconds = 5", "poll_seconds = 0"), "desk.poll_seconds"),
        (lambda t: t + "\nextra = 1\n", "desk.extra"),
        (lambda t: t.replace("[desk]", "[desks]"), "desks"),
        (lambda t: t.replace('observers = ["watch@example.test"]', 'observers = "watch"'), "desk.observers"),
        (lambda t: t.replace("[imap]", "[imap"), "TOML"),
    ],
)
def test_a_bad_config_is_one_line_naming_the_key(tmp_path: Path, edit, key: str) -> None:
    with pytest.raises(UsageError) as caught:
        load(write_config(tmp_path, edit(GOOD)))
    assert caught.value.exit_code == 2
    assert "\n" not in caught.value.message and key in caught.value.message


def test_a_password_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESK_PW", "from-env")
    config = load(write_config(tmp_path, GOOD.replace('password_file = "imap.pw"', 'password_env = "DESK_PW"')))
    assert config.imap.password == "from-env"


# -- reading mail ---------------------------------------------------------------------------

MOVE = {"format": "arbiter.move/1", "game": "g1", "seat": "alice", "after": "sha256:" + "0" * 64,
        "actions": [{"kind": "pass"}], "signature": "x"}


def mail(**headers: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = headers.pop("From", "Alice <alice@example.test>")
    message["To"] = "referee@example.test"
    message["Subject"] = "my move"
    message["Message-ID"] = "<m1@example.test>"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    return message


def test_json_attachments_of_any_name_and_type_in_order() -> None:
    message = mail()
    message.set_content("here are my files")
    message.add_attachment(pretty(MOVE), maintype="application", subtype="octet-stream", filename="a.bin")
    message.add_attachment(pretty({**MOVE, "game": "g2"}).decode(), subtype="plain", filename="b.txt")
    message.add_attachment(b"not json", maintype="application", subtype="json", filename="c.json")
    letter = extract.read(message.as_bytes())
    assert [f.game for f in letter.files] == ["g1", "g2"]
    assert [f.name for f in letter.files] == ["a.bin", "b.txt"]
    assert letter.sender == "alice@example.test" and not letter.automatic


def test_a_body_that_is_one_json_object() -> None:
    message = mail()
    message.set_content("\n  " + json.dumps(MOVE) + "\n\n")
    letter = extract.read(message.as_bytes())
    assert len(letter.files) == 1 and letter.files[0].game == "g1"
    assert json.loads(letter.files[0].data) == MOVE


def test_html_only_mail_has_nothing_to_judge() -> None:
    message = mail()
    message.set_content("<p>" + json.dumps(MOVE) + "</p>", subtype="html")
    letter = extract.read(message.as_bytes())
    assert letter.files == [] and letter.problem is None


def test_hostile_attachment_names_are_only_shown() -> None:
    message = mail()
    message.set_content("x")
    message.add_attachment(pretty(MOVE), maintype="application", subtype="json",
                           filename="../../../referee/secret\x1b[31m")
    letter = extract.read(message.as_bytes())
    assert letter.files[0].name == "secret\\x1b[31m"


def test_200_attachments_are_refused_once() -> None:
    message = mail()
    message.set_content("x")
    for index in range(200):
        message.add_attachment(pretty(MOVE), maintype="application", subtype="json", filename=f"{index}.json")
    letter = extract.read(message.as_bytes())
    assert letter.files == [] and "more than 64 parts" in (letter.unreadable or "")


def test_a_30_mb_mail_is_not_parsed() -> None:
    message = mail()
    message.set_content("x")
    message.add_attachment(b"\0" * (30 * 1024 * 1024), maintype="application", subtype="octet-stream", filename="big")
    letter = extract.read(message.as_bytes())
    assert letter.files == [] and "larger than" in (letter.unreadable or "")
    assert letter.sender == "alice@example.test" and letter.answerable


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto_Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"From": "MAILER-DAEMON@example.test"},
        {"From": "Mail Delivery System <mailer-daemon@example.test>"},
        {"List_Id": "<games.example.test>"},
    ],
)
def test_robots_are_recognised(headers: dict[str, str]) -> None:
    message = mail(**headers)
    message.set_content(json.dumps(MOVE))
    assert extract.read(message.as_bytes()).automatic


def test_garbage_never_raises() -> None:
    for raw in [b"", b"\xff\xfe", b"From: <<<\n\n{", b"Content-Type: multipart/mixed; boundary=x\n\n--x\n--x--"]:
        extract.read(raw)


# -- outgoing mail --------------------------------------------------------------------------


def test_message_ids_name_what_the_mail_is_about() -> None:
    sender = "Referee <ref@example.test>"
    one = compose.message_id(sender, "g1", 7, "state", "alice", "alice@example.test")
    assert one == compose.message_id(sender, "g1", 7, "state", "alice", "alice@example.test")
    assert one != compose.message_id(sender, "g1", 8, "state", "alice", "alice@example.test")
    assert one.startswith("<arbiter.g1.7.") and one.endswith("@example.test>")
    assert "alice@" not in one


def test_outgoing_mail_is_marked_automatic() -> None:
    sender = "Referee <ref@example.test>"
    message = compose.letter(sender, "a@example.test", "s", "b", "<x@y>", in_reply_to="<m@z>")
    assert message["Auto-Submitted"] == "auto-replied" and message["In-Reply-To"] == "<m@z>"
    assert extract.read(message.as_bytes()).automatic


# -- addresses ------------------------------------------------------------------------------


def test_addresses_are_private(tmp_path: Path) -> None:
    table = started(tmp_path)
    addresses.store(table.root, "alice", "Alice <alice@example.test>")
    assert addresses.load(table.gd) == {"alice": "alice@example.test"}
    published = [p for p in table.root.rglob("*") if p.is_file() and "referee" not in p.parts]
    assert not [p for p in published if b"alice@example.test" in p.read_bytes()]
    with pytest.raises(UsageError):
        addresses.store(table.root, "alice", "two@example.test, three@example.test")
    from arbiter.core.errors import UnknownSeat

    with pytest.raises(UnknownSeat):
        addresses.store(table.root, "zed", "z@example.test")
