"""The desk's IMAP and SMTP connections: TLS modes, certificate checks on by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.core.errors import NotReady
from arbiter.desks.mail.config import Imap, Smtp
from arbiter.desks.mail.transport import Mailbox, Outbox
from mail.servers import Dovecot


def imap(dovecot: Dovecot, user, *, tls: str, port: int, cafile: Path | None, verify: bool = True) -> Imap:
    return Imap(host=dovecot.host, port=port, tls=tls, user=user.name, password=user.password,
                verify_certificate=verify, cafile=cafile)


@pytest.mark.parametrize("mode", ["tls", "starttls"])
def test_imap_over_tls_with_the_servers_ca(dovecot_tls: Dovecot, mode: str) -> None:
    user = dovecot_tls.new_user("referee")
    port = dovecot_tls.tls_port if mode == "tls" else dovecot_tls.port
    assert port is not None
    box = Mailbox(imap(dovecot_tls, user, tls=mode, port=port, cafile=dovecot_tls.cafile))
    try:
        assert box.waiting() == []
        assert "MOVE" in box.capabilities
    finally:
        box.close()


def test_an_unknown_certificate_is_refused_unless_the_config_says_so(dovecot_tls: Dovecot) -> None:
    user = dovecot_tls.new_user("referee")
    port = dovecot_tls.tls_port
    assert port is not None
    with pytest.raises(NotReady) as caught:
        Mailbox(imap(dovecot_tls, user, tls="tls", port=port, cafile=None))
    assert "[imap]" in caught.value.message and "\n" not in caught.value.message
    box = Mailbox(imap(dovecot_tls, user, tls="tls", port=port, cafile=None, verify=False))
    box.close()


def test_a_wrong_password_is_one_line(dovecot_tls: Dovecot) -> None:
    user = dovecot_tls.new_user("referee")
    config = Imap(host=dovecot_tls.host, port=dovecot_tls.port, tls="starttls", user=user.name,
                  password="wrong", verify_certificate=True, cafile=dovecot_tls.cafile)
    with pytest.raises(NotReady, match="IMAP server"):
        Mailbox(config)


def test_smtp_with_starttls_and_auth(dovecot_tls: Dovecot, smtp_relay_factory) -> None:
    from arbiter.desks.mail import compose

    user = dovecot_tls.new_user("alice")
    relay = smtp_relay_factory(dovecot_tls, tls=True, auth={"referee": "pw"})
    sender = "Referee <referee@example.test>"
    base = dict(host=relay.host, port=relay.port, tls="starttls", verify_certificate=True,
                cafile=relay.cafile, sender=sender)
    outbox = Outbox(Smtp(user="referee", password="pw", **base))
    mail = compose.letter(sender, user.address, "hello", "body", compose.message_id(sender, "t"))
    outbox.send(mail, [user.address])
    outbox.close()
    assert len(relay.messages) == 1
    with pytest.raises(NotReady, match="SMTP server"):
        Outbox(Smtp(user="referee", password="nope", **base)).send(mail, [user.address])
