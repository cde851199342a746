"""Reading hostile mail within bounds (issue 24, item 1), with no server: ``extract.read``
never raises, says why a mail cannot be read, and still finds the files in good mail."""

from __future__ import annotations

import json
from email.message import EmailMessage

import pytest

from arbiter.core.canonical import pretty
from arbiter.desks.mail import extract, mime
from mail.hostile import ANSWERED, HOSTILE, MOVE_LIKE, nested

SENDER = "mallory@example.test"
MOVE = {"format": "arbiter.move/1", "game": "g1", "seat": "alice", "after": "sha256:" + "0" * 64,
        "actions": [{"kind": "pass"}], "signature": "x"}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_every_hostile_kind_is_unreadable_and_answerable_only_when_it_may_be(kind: str) -> None:
    letter = extract.read(HOSTILE[kind](SENDER, 1))
    assert letter.unreadable, kind
    assert letter.answerable == ANSWERED[kind], letter
    assert "\n" not in letter.unreadable and len(letter.unreadable) < 200


def test_an_empty_fetch_is_unreadable_and_unanswerable() -> None:
    letter = extract.read(b"")
    assert letter.unreadable == "it is empty" and not letter.answerable


def test_depth_and_parts_bounds_are_exact() -> None:
    assert extract.read(nested(SENDER, 1, mime.MAX_DEPTH)).unreadable is None
    assert "nested" in (extract.read(nested(SENDER, 1, mime.MAX_DEPTH + 1)).unreadable or "")

    def parts(count: int) -> bytes:
        message = EmailMessage()
        message["From"] = SENDER
        message.set_content("x")  # the container and this text are 2 parts
        for index in range(count - 2):
            message.add_attachment(b"x", maintype="application", subtype="octet-stream",
                                   filename=f"{index}.bin")
        return message.as_bytes()

    assert extract.read(parts(mime.MAX_PARTS)).unreadable is None
    assert "more than 64 parts" in (extract.read(parts(mime.MAX_PARTS + 1)).unreadable or "")


def test_a_header_at_the_limit_is_read_one_byte_more_is_not() -> None:
    head = b"From: <" + SENDER.encode() + b">\r\nX-Pad: "
    tail = b"\r\n"
    fill = mime.MAX_HEADER - len(head) - len(tail)
    at_limit = head + b"p" * fill + tail + b"\r\nhello\r\n"
    assert extract.read(at_limit).unreadable is None
    over = head + b"p" * (fill + 1) + tail + b"\r\nhello\r\n"
    letter = extract.read(over)
    assert "header is larger than 128 KiB" in (letter.unreadable or "")
    assert letter.sender == SENDER and not letter.complete and not letter.answerable


def test_reading_stops_when_the_time_is_up() -> None:
    calls = []

    def expired() -> bool:  # time runs out at the third part
        calls.append(1)
        return len(calls) > 2

    letter = extract.read(nested(SENDER, 1, 10), expired=expired)
    assert letter.unreadable == "reading it took too long"


def test_good_mail_in_other_charsets_and_encodings_is_read() -> None:
    message = EmailMessage()
    message["From"] = f"Ann <{SENDER}>"
    message.set_content("Voilà mon coup — ci-joint", charset="windows-1252", cte="quoted-printable")
    message.add_attachment(pretty(MOVE), maintype="application", subtype="json",
                           filename="café.json")  # RFC 2231, utf-8
    letter = extract.read(message.as_bytes())
    assert letter.unreadable is None and [f.name for f in letter.files] == ["café.json"]
    latin = bytes(message)
    latin = latin.replace(b"filename*=utf-8''caf%C3%A9.json", b"filename*=iso-8859-1''caf%E9.json")
    assert [f.name for f in extract.read(latin).files] == ["café.json"]


def test_a_move_as_utf16_text_and_in_a_forwarded_mail_is_found() -> None:
    body = json.dumps(MOVE).encode("utf-16")
    raw = (b"From: <" + SENDER.encode() + b">\r\nContent-Type: text/plain; charset=utf-16\r\n"
           b"Content-Transfer-Encoding: base64\r\n\r\n" + __import__("base64").encodebytes(body))
    assert [f.game for f in extract.read(raw).files] == ["g1"]
    forwarded = (b"From: <" + SENDER.encode() + b">\r\nContent-Type: message/rfc822\r\n\r\n"
                 b"From: <a@example.test>\r\nContent-Type: application/json\r\n\r\n" + pretty(MOVE))
    assert [f.game for f in extract.read(forwarded).files] == ["g1"]


@pytest.mark.parametrize(("headers", "automatic"), [
    (b"Return-Path: <>\r\n", True),
    (b"Return-Path: < >\r\n", True),
    (b"Return-Path: <mallory@example.test>\r\n", False),
    (b"Auto-Submitted: no\r\n", False),
    (b"Auto-Submitted: auto-generated; owner-email=x@y\r\n", True),
    (b"Precedence: list\r\n", True),
    (b"List-Post: <mailto:l@example.test>\r\n", True),
], ids=lambda v: v.decode()[:30] if isinstance(v, bytes) else str(v))
def test_rfc_3834_automatic_mail(headers: bytes, automatic: bool) -> None:
    raw = headers + b"From: <" + SENDER.encode() + b">\r\n\r\n" + MOVE_LIKE
    assert extract.read(raw).automatic is automatic


@pytest.mark.parametrize("sender", [
    "", "<>", "a@b@c", "two@example.test, three@example.test", "owner-list@example.test",
    "list-request@example.test", "nodomain@localhost", "x\u202e@example.test",
])
def test_only_a_plausible_human_sender_is_answered(sender: str) -> None:
    raw = f"From: {sender}\r\nSubject: s\r\n\r\nhello\r\n".encode()
    assert not extract.read(raw).answerable


def test_two_from_fields_have_no_sender() -> None:
    raw = b"From: <a@example.test>\r\nFrom: <b@example.test>\r\n\r\nhello\r\n"
    assert extract.read(raw).sender == ""
