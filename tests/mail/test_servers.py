"""Smoke tests of the mail test servers: mail really travels SMTP -> relay -> Dovecot -> IMAP."""

from __future__ import annotations

import hashlib
import imaplib
import smtplib
import ssl
from collections.abc import Callable, Sequence
from email.message import EmailMessage
from typing import Any

import pytest

from mail.servers import (
    AUTO_FOLDERS,
    Dovecot,
    Mailbox,
    MailUser,
    ServerError,
    SmtpRelay,
)

REFEREE = "referee@example.test"


def _move_mail(to: MailUser, subject: str = "move 12") -> tuple[EmailMessage, bytes]:
    attachment = bytes(range(256)) * 200 + b"\r\n.\r\n\x00 end"  # every byte, a lone dot
    msg = EmailMessage()
    msg["From"] = REFEREE
    msg["To"] = to.address
    msg["Subject"] = subject
    msg.set_content("My move is attached.\n.\nA line with only a dot, above.\n")
    msg.add_attachment(
        attachment, maintype="application", subtype="octet-stream", filename="move.json.sig"
    )
    return msg, attachment


def _capabilities(imap: imaplib.IMAP4) -> set[str]:
    """What the server offers now (imaplib keeps the list from before the login)."""
    # The login's [CAPABILITY ...] response code may come back as a line of its own.
    lines = _imap_ok(imap.capability())
    return {word for line in lines if isinstance(line, bytes) for word in line.decode().split()}


def _imap_ok(result: tuple[str, Sequence[Any]]) -> Sequence[Any]:
    typ, data = result
    assert typ == "OK", data
    return data


def test_message_with_attachment_travels_to_the_inbox(
    dovecot: Dovecot, smtp_relay: SmtpRelay, new_user: Callable[..., MailUser]
) -> None:
    alice, bystander = new_user("alice"), new_user("bob")
    msg, attachment = _move_mail(alice)

    with smtplib.SMTP(smtp_relay.host, smtp_relay.port, timeout=10) as smtp:
        refused = smtp.send_message(msg, from_addr=REFEREE, to_addrs=[alice.address])
    assert refused == {}

    # The relay answers DATA only after the IMAP APPEND: no waiting needed.
    assert [(m.mail_from, m.rcpt_tos) for m in smtp_relay.messages] == [(REFEREE, (alice.address,))]
    [got] = Mailbox(dovecot, alice).messages()
    assert got["Subject"] == "move 12"
    assert got["Return-Path"] == f"<{REFEREE}>"
    body = got.get_body(("plain",))
    assert body is not None and "A line with only a dot" in body.get_content()
    [part] = list(got.iter_attachments())
    assert part.get_filename() == "move.json.sig"
    data = part.get_content()
    assert hashlib.sha256(data).digest() == hashlib.sha256(attachment).digest()
    assert Mailbox(dovecot, bystander).count() == 0


def test_unknown_recipients_are_refused(
    dovecot: Dovecot, smtp_relay: SmtpRelay, new_user: Callable[..., MailUser]
) -> None:
    alice = new_user("alice")
    msg, _ = _move_mail(alice)
    with smtplib.SMTP(smtp_relay.host, smtp_relay.port, timeout=10) as smtp:
        for stranger in ("nobody-here@example.test", f"{alice.name}@elsewhere.test"):
            with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
                smtp.send_message(msg, from_addr=REFEREE, to_addrs=[stranger])
            assert refused.value.recipients[stranger][0] == 550
            smtp.rset()
    assert smtp_relay.messages == []
    assert Mailbox(dovecot, alice).count() == 0


def test_users_come_with_the_desk_folders_and_need_their_password(
    dovecot: Dovecot, new_user: Callable[..., MailUser]
) -> None:
    carol = new_user("carol")
    assert set(Mailbox(dovecot, carol).folders()) >= {"INBOX", *AUTO_FOLDERS}
    with pytest.raises(imaplib.IMAP4.error):
        Mailbox(dovecot, carol.name, carol.password + "x").connect()


def test_idle_is_advertised_and_reports_new_mail(
    dovecot: Dovecot, new_user: Callable[..., MailUser]
) -> None:
    dave = new_user("dave")
    box = Mailbox(dovecot, dave)
    imap = box.connect()
    try:
        assert "IDLE" in _capabilities(imap)
        _imap_ok(imap.select("INBOX"))
        imap.send(b"idle1 IDLE\r\n")
        assert imap.readline().startswith(b"+ ")
        box.append(b"From: x@example.test\r\nSubject: wake up\r\n\r\nhi\r\n")
        line = imap.readline()  # the socket has a 10 s timeout
        while not line.endswith(b"EXISTS\r\n"):
            line = imap.readline()
        assert line == b"* 1 EXISTS\r\n"
        imap.send(b"DONE\r\n")
        while not line.startswith(b"idle1 "):
            line = imap.readline()
        assert line.startswith(b"idle1 OK")
    finally:
        imap.logout()


def test_uid_move_files_a_message_in_processed(
    dovecot: Dovecot, new_user: Callable[..., MailUser]
) -> None:
    erin = new_user("erin")
    box = Mailbox(dovecot, erin)
    box.append(b"From: x@example.test\r\nSubject: done\r\n\r\nhi\r\n")
    imap = box.connect()
    try:
        assert "MOVE" in _capabilities(imap)
        _imap_ok(imap.select("INBOX"))
        [uids] = _imap_ok(imap.uid("SEARCH", "ALL"))
        [uid] = uids.split()
        _imap_ok(imap.uid("MOVE", uid, "processed"))
    finally:
        imap.logout()
    assert box.count("INBOX") == 0
    assert [m["Subject"] for m in box.messages("processed")] == ["done"]


def test_implicit_tls_port_verifies_against_cafile(dovecot_tls: Dovecot) -> None:
    frank = dovecot_tls.new_user("frank")
    assert dovecot_tls.cafile is not None and dovecot_tls.tls_port is not None
    context = ssl.create_default_context(cafile=str(dovecot_tls.cafile))
    with imaplib.IMAP4_SSL(
        dovecot_tls.host, dovecot_tls.tls_port, ssl_context=context, timeout=10
    ) as imap:
        _imap_ok(imap.login(frank.name, frank.password))
        _imap_ok(imap.select("INBOX"))
        assert isinstance(imap.sock, ssl.SSLSocket)
        assert imap.sock.version() in {"TLSv1.2", "TLSv1.3"}
    # Without the test CA the certificate is not trusted: the TLS is real.
    with pytest.raises(ssl.SSLCertVerificationError):
        imaplib.IMAP4_SSL(
            dovecot_tls.host,
            dovecot_tls.tls_port,
            ssl_context=ssl.create_default_context(),
            timeout=10,
        )


def test_starttls_on_the_plain_port(dovecot_tls: Dovecot) -> None:
    grace = dovecot_tls.new_user("grace")
    context = ssl.create_default_context(cafile=str(dovecot_tls.cafile))
    with imaplib.IMAP4(dovecot_tls.host, dovecot_tls.port, timeout=10) as imap:
        assert "STARTTLS" in imap.capabilities
        _imap_ok(imap.starttls(ssl_context=context))
        _imap_ok(imap.login(grace.name, grace.password))
        _imap_ok(imap.select("INBOX"))


def test_relay_with_starttls_and_auth(
    dovecot_tls: Dovecot, smtp_relay_factory: Callable[..., SmtpRelay]
) -> None:
    heidi = dovecot_tls.new_user("heidi")
    relay = smtp_relay_factory(dovecot_tls, tls=True, auth={"desk": "s3cret"})
    assert relay.cafile == dovecot_tls.cafile
    msg, attachment = _move_mail(heidi, "over TLS")
    context = ssl.create_default_context(cafile=str(relay.cafile))
    with smtplib.SMTP(relay.host, relay.port, timeout=10) as smtp:
        with pytest.raises(smtplib.SMTPSenderRefused):  # 530: STARTTLS first
            smtp.send_message(msg, from_addr=REFEREE, to_addrs=[heidi.address])
        smtp.starttls(context=context)
        with pytest.raises(smtplib.SMTPAuthenticationError):
            smtp.login("desk", "wrong")
        smtp.login("desk", "s3cret")
        smtp.send_message(msg, from_addr=REFEREE, to_addrs=[heidi.address])
    [got] = Mailbox(dovecot_tls, heidi, tls=True).messages()
    assert got["Subject"] == "over TLS"
    assert next(got.iter_attachments()).get_content() == attachment


def test_a_missing_dovecot_binary_is_a_clear_error() -> None:
    with pytest.raises(ServerError, match=r"not installed \(\.ci/run"):
        Dovecot(binary="no-such-dovecot-binary").start()
