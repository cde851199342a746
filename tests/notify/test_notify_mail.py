"""``arbiter notify --config``: digests by mail through a real SMTP server (aiosmtpd on
loopback, started here), one per recipient per period, beside the webhooks."""

from __future__ import annotations

import email
import email.policy
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from notify.conftest import configure
from notify.hookserver import Hooks

if not os.environ.get("CI"):
    pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed (pip install -e '.[test]')")


@dataclass
class Received:
    """What the SMTP server was given."""

    port: int
    mails: list[tuple[list[str], Any]] = field(default_factory=list)


@pytest.fixture
def smtp() -> Iterator[Received]:
    from aiosmtpd.controller import Controller
    from mail.servers import free_port

    received = Received(0)

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            message = email.message_from_bytes(envelope.content, policy=email.policy.default)
            received.mails.append((list(envelope.rcpt_tos), message))
            return "250 OK"

    controller = Controller(Handler(), hostname="127.0.0.1", port=free_port())
    controller.start()
    received.port = controller.port
    try:
        yield received
    finally:
        controller.stop()


def mail_config(tmp_path: Path, port: int) -> Path:
    path = tmp_path / "mail.toml"
    path.write_text(
        f'[smtp]\nhost = "127.0.0.1"\nport = {port}\ntls = "none"\n'
        'from = "Referee <referee@example.test>"\n',
        encoding="utf-8",
    )
    return path


def test_digest_by_mail_once_per_period(
    cli, make_game, hooks: Hooks, smtp: Received, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g1 = make_game("g1", ["alice", "bob"], deadline=86400)
    g2 = make_game("g2", ["alice", "carol"])
    for folder, seats in ((g1, ("alice", "bob")), (g2, ("alice", "carol"))):
        for seat in seats:
            assert cli("mail", "seat", folder, seat, f"{seat}@example.test").code == 0
    # carol also has a webhook; alice in g2 both (nothing waits for carol: she gets nothing).
    configure(g2, f'[seats.alice]\nwebhook = "{hooks.url("/alice")}"\nmail = true\n'
                  f'[seats.carol]\nwebhook = "{hooks.url("/carol")}"\n')
    config = mail_config(tmp_path, smtp.port)
    monkeypatch.setenv("ARBITER_NOW", "2026-12-01T08:00:00Z")
    result = cli("notify", g1, g2, "--config", config)
    assert result.code == 0, result
    [(to, message)] = smtp.mails
    assert to == ["alice@example.test"]
    assert message["Subject"] == "[arbiter] 2 games wait for your decision"
    assert message["Auto-Submitted"] == "auto-generated"
    assert message["From"] == "Referee <referee@example.test>"
    body = message.get_body(("plain",)).get_content()
    assert "- g1 (tally), seat alice: turn since entry #0, due 2026-12-02T00:00:00Z; then pass" in body
    assert "- g2 (tally), seat alice: turn since entry #0, no deadline" in body
    assert [p.path for p in hooks.posts] == ["/alice"]  # g2 only: g1 has no webhook for alice
    assert "sent: mail to alice@example.test (g1/alice, g2/alice)" in result.out
    first_id = message["Message-ID"]
    # Again the same day: nothing; without --config the address is simply not used.
    monkeypatch.setenv("ARBITER_NOW", "2026-12-01T20:00:00Z")
    assert cli("notify", g1, g2, "--config", config).code == 0
    without = cli("notify", "--desk", g1.parent)
    assert without.code == 0
    assert "already sent this period: json webhook at 127.0.0.1 (g2/alice)" in without.out
    monkeypatch.setenv("ARBITER_NOW", "2026-12-02T07:00:00Z")
    without = cli("notify", "--desk", g1.parent)  # a new day, but no way to send mail
    assert "not sent (no --config for mail): mail to alice@example.test (g2/alice)" in without.out
    assert without.code == 0 and len(hooks.posts) == 2
    assert len(smtp.mails) == 1
    monkeypatch.setenv("ARBITER_NOW", "2026-12-02T08:00:00Z")
    assert cli("notify", g1, g2, "--config", config).code == 0
    assert len(smtp.mails) == 2 and smtp.mails[1][1]["Message-ID"] != first_id
    assert "(1 overdue)" in smtp.mails[1][1]["Subject"]


def test_an_smtp_server_that_is_down_is_reported(
    cli, make_game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mail.servers import free_port

    game = make_game("g1", ["alice", "bob"])
    assert cli("mail", "seat", game, "alice", "alice@example.test").code == 0
    monkeypatch.setenv("ARBITER_NOW", "2026-12-01T08:00:00Z")
    result = cli("notify", game, "--config", mail_config(tmp_path, free_port()))
    assert result.code == 17, result
    assert "failed: mail to alice@example.test (g1/alice): cannot reach the SMTP server" in result.out
    assert result.err.count("\n") == 1
    assert not (game / "referee" / "notices.json").exists()
