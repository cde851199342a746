"""IMAP in and SMTP out, with the standard library's clients; nothing here knows a game.

IMAP IDLE (RFC 2177) is done by hand: Python 3.11's imaplib has no ``idle``.

A failure of a server or of the connection is a ``TransportError``: the desk stops and
the mail stays where it is for the next run. It is never blamed on the mail at hand (that
would put a good move in quarantine because a server was down).
"""

from __future__ import annotations

import contextlib
import copy as copy_module
import imaplib
import io
import re
import select
import smtplib
import ssl
from collections.abc import Callable, Iterator
from email.generator import NLCRE, BytesGenerator  # type: ignore[attr-defined]
from email.message import Message
from typing import Any

from arbiter.core.errors import NotReady
from arbiter.desks.mail.config import Imap, Server, Smtp

_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
_UID = re.compile(rb"UID (\d+)")


class TransportError(NotReady):
    """The IMAP or SMTP server failed or refused the desk, not the mail at hand."""


@contextlib.contextmanager
def _imap_errors(what: str) -> Iterator[None]:
    try:
        yield
    except (OSError, imaplib.IMAP4.error) as exc:
        raise TransportError(
            f"the IMAP server failed while {what} ({_short(exc)}): run the desk again"
        ) from None


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def tls_context(server: Server) -> ssl.SSLContext:
    """Certificates are checked unless the config says ``verify_certificate = false``."""
    context = ssl.create_default_context(cafile=str(server.cafile) if server.cafile else None)
    if not server.verify_certificate:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


class Mailbox:
    """One IMAP connection to the desk's mailbox."""

    def __init__(self, config: Imap):
        self.config = config
        try:
            if config.tls == "tls":
                self.imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                    config.host, config.port, ssl_context=tls_context(config), timeout=60
                )
            else:
                self.imap = imaplib.IMAP4(config.host, config.port, timeout=60)
                if config.tls == "starttls":
                    self.imap.starttls(tls_context(config))
            if config.user is not None:
                self.imap.login(config.user, config.password or "")
        except (OSError, imaplib.IMAP4.error) as exc:
            raise TransportError(
                f"cannot reach the IMAP server {config.host}:{config.port} ({exc}): "
                "check [imap] in the mail config"
            ) from None
        # imaplib keeps the greeting's list; servers announce more after login (MOVE...).
        status, data = self.imap.capability()
        words = data[0].split() if status == "OK" and data and data[0] else []
        self.capabilities = {c.upper() for c in self.imap.capabilities} | {
            w.decode("ascii", "replace").upper() for w in words
        }
        with _imap_errors("creating the folders"):
            for folder in (config.processed, config.rejected, config.quarantine):
                self.imap.create(_quote(folder))  # NO [ALREADYEXISTS] is fine
            self._select()

    def _select(self) -> None:
        status, _ = self.imap.select(_quote(self.config.mailbox))
        if status != "OK":
            raise NotReady(f"the IMAP mailbox {self.config.mailbox!r} cannot be opened")

    def waiting(self) -> list[int]:
        """Return the UIDs in the mailbox, oldest first (handled mail is moved out)."""
        with _imap_errors("listing the mailbox"):
            self.imap.noop()
            status, data = self.imap.uid("SEARCH", "ALL")
        if status != "OK" or not data or data[0] is None:
            return []
        return sorted(int(uid) for uid in data[0].split())

    def size(self, uid: int) -> int:
        with _imap_errors(f"reading the size of mail {uid}"):
            _status, data = self.imap.uid("FETCH", str(uid), "(RFC822.SIZE)")
        for item in data or []:
            blob = item[0] if isinstance(item, tuple) else item
            found = _SIZE.search(blob or b"")
            if found:
                return int(found.group(1))
        return 0

    def sizes(self, uids: list[int]) -> dict[int, int]:
        """Return the sizes of many mails in one command (a mail gone meanwhile is left
        out)."""
        if not uids:
            return {}
        with _imap_errors("reading the sizes of the waiting mail"):
            _status, data = self.imap.uid("FETCH", _uid_set(uids), "(UID RFC822.SIZE)")
        found: dict[int, int] = {}
        for item in data or []:
            blob = item[0] if isinstance(item, tuple) else item
            uid, size = _UID.search(blob or b""), _SIZE.search(blob or b"")
            if uid and size:
                found[int(uid.group(1))] = int(size.group(1))
        return found

    def fetch_many(self, uids: list[int]) -> dict[int, bytes]:
        """Return many mails' bytes in one command, without marking them seen (a mail gone
        meanwhile is left out)."""
        if not uids:
            return {}
        with _imap_errors("fetching the waiting mail"):
            _status, data = self.imap.uid("FETCH", _uid_set(uids), "(UID BODY.PEEK[])")
        found: dict[int, bytes] = {}
        for item in data or []:
            if isinstance(item, tuple) and len(item) >= 2:
                uid = _UID.search(item[0] or b"")
                if uid:
                    found[int(uid.group(1))] = bytes(item[1])
        return found

    def fetch(self, uid: int, limit: int | None = None) -> bytes:
        """Return the mail's bytes (its first ``limit`` bytes, RFC 3501 §6.4.5 partial
        fetch) without marking it seen (the move is the record)."""
        what = f"(BODY.PEEK[]<0.{limit}>)" if limit is not None else "(BODY.PEEK[])"
        with _imap_errors(f"fetching mail {uid}"):
            _status, data = self.imap.uid("FETCH", str(uid), what)
        for item in data or []:
            if isinstance(item, tuple) and len(item) >= 2:
                return bytes(item[1])
        return b""

    def move(self, uid: int | list[int], folder: str) -> None:
        """Move handled mail out of the mailbox (RFC 6851 MOVE, else copy and expunge):
        one mail, or many in one command.

        A folder deleted while the desk runs is created again: the server answers
        ``NO [TRYCREATE]`` (RFC 3501 §6.4.7, RFC 6851 §3.3). Any other refusal stops the
        desk with the mail still in the mailbox: it is never expunged without its copy.
        """
        shown = uid if isinstance(uid, int) else _uid_set(uid)
        with _imap_errors(f"moving mail {shown} to {folder!r}"):
            status, data = self._move(uid, folder)
            if status != "OK" and b"TRYCREATE" in _text(data).upper():
                self.imap.create(_quote(folder))
                status, data = self._move(uid, folder)
        if status != "OK":
            raise TransportError(
                f"the IMAP server refused to move mail {shown} to {folder!r} "
                f"({_text(data).decode('ascii', 'replace')[:200]}): check that folder"
            )

    def _move(self, uid: int | list[int], folder: str) -> tuple[str, list[Any]]:
        uids = _uid_set(uid if isinstance(uid, list) else [uid])
        if "MOVE" in self.capabilities:
            return self.imap.uid("MOVE", uids, _quote(folder))
        status, data = self.imap.uid("COPY", uids, _quote(folder))
        if status != "OK":
            return status, data
        self.imap.uid("STORE", uids, "+FLAGS.SILENT", r"(\Deleted)")
        if "UIDPLUS" in self.capabilities:
            return self.imap.uid("EXPUNGE", uids)
        return self.imap.expunge()

    def idle(self, seconds: float, stop: Callable[[], bool]) -> None:
        """Wait up to ``seconds`` for new mail (IDLE), checking ``stop`` every second.

        Without IDLE the caller polls; this then just waits.
        """
        if "IDLE" not in self.capabilities:
            _wait(seconds, stop)
            return
        with _imap_errors("waiting for new mail"):
            self._idle(seconds, stop)

    def _idle(self, seconds: float, stop: Callable[[], bool]) -> None:
        imap = self.imap
        tag = imap._new_tag()  # imaplib's own tag counter
        imap.send(tag + b" IDLE\r\n")
        if not imap.readline().startswith(b"+"):
            return
        sock = imap.sock
        left = seconds
        while left > 0 and not stop():
            pending = isinstance(sock, ssl.SSLSocket) and sock.pending() > 0
            ready = pending or select.select([sock], [], [], min(1.0, left))[0]
            left -= 1.0
            if ready:
                line = imap.readline()
                if not line or b"EXISTS" in line or b"RECENT" in line or line.startswith(b"* BYE"):
                    break
        imap.send(b"DONE\r\n")
        while True:
            line = imap.readline()
            if not line or line.startswith(tag):
                break

    def close(self) -> None:
        try:
            self.imap.close()
            self.imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


class _LinesAtOnce(BytesGenerator):
    """``BytesGenerator`` writing each block of lines in one call: the same bytes (line
    endings made ``linesep``), without a call per line of a long attachment.

    It overrides a private method of the standard library's generator (NLCRE and ``_NL``
    are its own), kept byte-identical by tests/mail/test_desk_group_commit.py."""

    def _write_lines(self, lines: str) -> None:
        if lines:
            self.write(self._NL.join(NLCRE.split(lines)))  # type: ignore[attr-defined]


def _uid_set(uids: list[int]) -> str:
    """An IMAP UID set (RFC 3501 §9 ``sequence-set``), runs folded: "3:7,9"."""
    runs: list[list[int]] = []
    for uid in sorted(set(uids)):
        if runs and uid == runs[-1][1] + 1:
            runs[-1][1] = uid
        else:
            runs.append([uid, uid])
    return ",".join(str(a) if a == b else f"{a}:{b}" for a, b in runs)


def _text(data: list[Any] | None) -> bytes:
    return b" ".join(item for item in data or [] if isinstance(item, bytes))


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wait(seconds: float, stop: Callable[[], bool]) -> None:
    from arbiter.core.gamedir import pause

    left = seconds
    while left > 0 and not stop():
        pause(min(1.0, left))
        left -= 1.0


class Outbox:
    """An SMTP connection, opened on first use and reused."""

    def __init__(self, config: Smtp):
        self.config = config
        self.smtp: smtplib.SMTP | None = None

    def _open(self) -> smtplib.SMTP:
        """Connect, with TLS as configured (certificates checked); not logged in yet."""
        config = self.config
        if config.tls == "tls":
            return smtplib.SMTP_SSL(
                config.host, config.port, context=tls_context(config), timeout=60
            )
        smtp = smtplib.SMTP(config.host, config.port, timeout=60)
        if config.tls == "starttls":
            smtp.starttls(context=tls_context(config))
        return smtp

    def _connect(self) -> smtplib.SMTP:
        config = self.config
        try:
            smtp = self._open()
            if config.user is not None:
                smtp.login(config.user, config.password or "")
        except (OSError, smtplib.SMTPException) as exc:
            raise TransportError(
                f"cannot reach the SMTP server {config.host}:{config.port} ({exc}): "
                "check [smtp] in the mail config"
            ) from None
        return smtp

    def send(self, message: Message, recipients: list[str]) -> None:
        """Send one mail; return once the server took it, or refused it for good.

        A permanent refusal of this mail (5xx: the address, the size, the content) is
        final: retrying cannot help, and it must not stop the desk. A temporary one (4xx)
        or a lost connection is tried once more on a new connection, then stops the desk.
        """
        for _attempt in (1, 2):
            try:
                if self.smtp is None:
                    self.smtp = self._connect()
                self._send(message, recipients)
                return
            except smtplib.SMTPRecipientsRefused:
                return  # every recipient refused: an address that no longer exists
            except smtplib.SMTPNotSupportedError:
                return  # the mail needs an extension the server lacks (SMTPUTF8)
            except smtplib.SMTPResponseException as exc:
                if 500 <= exc.smtp_code < 600:
                    return
                error: Exception = exc
            except (smtplib.SMTPException, OSError) as exc:
                error = exc
            self.close()
        raise TransportError(
            f"the SMTP server {self.config.host}:{self.config.port} failed ({_short(error)}): "
            "run the desk again"
        )

    def _send(self, message: Message, recipients: list[str]) -> None:
        """``smtplib``'s ``send_message`` (the same bytes on the wire), with a generator
        that writes a part's lines at once instead of one by one."""
        assert self.smtp is not None
        sender = self.config.address
        try:
            "".join([sender, *recipients]).encode("ascii")
        except UnicodeEncodeError:
            # Rare (an address in UTF-8): the standard library's own path, SMTPUTF8 and all.
            self.smtp.send_message(message, from_addr=sender, to_addrs=recipients)
            return
        self.smtp.ehlo_or_helo_if_needed()
        copy = copy_module.copy(message)
        del copy["Bcc"]
        del copy["Resent-Bcc"]
        with io.BytesIO() as flat:
            _LinesAtOnce(flat).flatten(copy, linesep="\r\n")
            self.smtp.sendmail(sender, recipients, flat.getvalue())

    def close(self) -> None:
        if self.smtp is not None:
            with contextlib.suppress(OSError, smtplib.SMTPException):
                self.smtp.quit()
            self.smtp = None
