"""Fixtures for the mail desk's tests: a real Dovecot and a real SMTP relay on loopback.

- ``dovecot`` / ``dovecot_tls``: one server per test session each (started on first use).
- ``new_user(hint)``: a fresh account on ``dovecot``; no two tests share a mailbox.
- ``smtp_relay``: an aiosmtpd relay delivering into ``dovecot``, fresh for each test.
- ``smtp_relay_factory(dovecot=None, *, tls=False, auth=None)``: other relays, stopped after.

Every test using these fixtures carries the project's ``needs("dovecot")`` marker: skipped
with the reason on a machine without Dovecot, run (and failed) in CI, where `.ci/run`
installs it. A test that starts its own ``Dovecot`` should carry ``needs_dovecot`` itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping

import pytest
from helpers.tools import needs

from mail.servers import Dovecot, MailUser, SmtpRelay, find_dovecot

SERVER_FIXTURES = frozenset({"dovecot", "dovecot_tls"})
# An absolute path when Dovecot is in /usr/sbin but not on the PATH (a normal Debian user).
needs_dovecot = needs(find_dovecot(), "the mail tests talk to a real IMAP server")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Every test that uses a server fixture (directly or through new_user, smtp_relay...)
    # carries the project's `needs` marker; the desk's server-less tests here do not.
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(needs_dovecot)


def _needs_aiosmtpd() -> None:
    # A test dependency (pyproject's `test` extra): outside CI an older environment skips,
    # in CI a missing package fails like a missing program does.
    if not os.environ.get("CI"):
        pytest.importorskip(
            "aiosmtpd", reason="aiosmtpd is not installed (pip install -e '.[test]')"
        )


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    """Dovecot on 127.0.0.1, IMAP only, no TLS; one per session."""
    with Dovecot() as server:
        yield server


@pytest.fixture(scope="session")
def dovecot_tls() -> Iterator[Dovecot]:
    """Dovecot with STARTTLS on ``port`` and implicit TLS on ``tls_port`` (trust ``cafile``)."""
    with Dovecot(tls=True) as server:
        yield server


@pytest.fixture
def new_user(dovecot: Dovecot) -> Callable[..., MailUser]:
    """``new_user("alice")`` -> a ``MailUser`` named ``alice<n>`` that no other test has."""

    def make(hint: str = "user") -> MailUser:
        return dovecot.new_user(hint)

    return make


@pytest.fixture
def smtp_relay_factory(dovecot: Dovecot) -> Iterator[Callable[..., SmtpRelay]]:
    """Start relays with other options; all are stopped when the test ends."""
    _needs_aiosmtpd()
    started: list[SmtpRelay] = []

    def make(
        server: Dovecot | None = None, *, tls: bool = False, auth: Mapping[str, str] | None = None
    ) -> SmtpRelay:
        relay = SmtpRelay(server or dovecot, tls=tls, auth=auth)
        started.append(relay)
        return relay.start()

    yield make
    for relay in reversed(started):
        relay.stop()


@pytest.fixture
def smtp_relay(smtp_relay_factory: Callable[..., SmtpRelay]) -> SmtpRelay:
    """An SMTP server on 127.0.0.1 (no TLS, no AUTH) delivering into ``dovecot``."""
    return smtp_relay_factory()
