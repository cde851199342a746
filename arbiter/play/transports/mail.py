"""Play by mail: deliver over SMTP to the desk, fetch the state mails from the player's
own IMAP mailbox.

Delivery is ``arbiter mail send``'s mail (``compose.letter``, a Message-ID derived from
the file, no Auto-Submitted header: a person's move, which the desk answers), but a server
that refuses it is an error here, not a silence: the file stays in the player's outbox.

Fetching reads the mailbox read-only (EXAMINE, ``BODY.PEEK``): the player's mail is never
moved, flagged or deleted. Among the mails whose ``state.json`` attachment is this game's
and this seat's, the one with the highest ``seq`` wins (the subject only preselects which
mails are downloaded; the attachment decides). The last files found and the position in
the mailbox (UIDVALIDITY and the last UID read, RFC 3501 §2.3.1.1) are kept in ``cache``,
so a later fetch reads only newer mail.
"""

from __future__ import annotations

import contextlib
import imaplib
import json
import re
import smtplib
from collections.abc import Iterator
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import Message
from email.utils import parsedate_tz
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError, NotReady, UsageError
from arbiter.core.gamedir import PRIVATE_DIR, PRIVATE_FILE, atomic_write, ensure_dir
from arbiter.core.safeio import read_input, shown, visible
from arbiter.desks.mail.config import Imap, Smtp
from arbiter.desks.mail.transport import Outbox, tls_context
from arbiter.play.transports.base import Fetched, Transport, plain_name

CACHE_FORMAT = "arbiter.play-mail/1"
_BATCH = 200  # UIDs per FETCH command: bounds the command line and the answer
_UID = re.compile(rb"UID (\d+)")
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


@dataclass(frozen=True)
class PlayerMail:
    """The player's mail settings: ``[imap]`` (their own mailbox) and ``[smtp]``."""

    imap: Imap
    smtp: Smtp
    path: Path


@contextlib.contextmanager
def read_only(imap: Imap, where: str) -> Iterator[tuple[imaplib.IMAP4, int]]:
    """The player's mailbox opened read-only (EXAMINE: nothing is ever marked, moved or
    deleted), and its UIDVALIDITY; logged out after."""
    box = _open_imap(imap, where)
    try:
        with _imap_errors(imap, where):
            status, data = box.select(_quote(imap.mailbox), readonly=True)
            if status != "OK":
                raise UsageError(
                    f"the IMAP mailbox {visible(imap.mailbox)[:60]!r} cannot be opened "
                    f"({_said(data)}): check imap.mailbox in {where}"
                )
            _, found = box.response("UIDVALIDITY")
            yield box, int(found[0]) if found and found[0] else 0
    finally:
        with contextlib.suppress(OSError, imaplib.IMAP4.error):
            box.logout()


def load_player_config(path: Path) -> PlayerMail:
    """Read the player's TOML: the ``[smtp]`` and ``[imap]`` sections of the desk's
    format (``arbiter/desks/mail/config.py``; passwords only from a file or a variable).
    A bad file is one ``UsageError`` line naming the key."""
    from arbiter.desks.mail.config import load_mailboxes

    imap, smtp = load_mailboxes(path)
    return PlayerMail(imap, smtp, path)


class MailTransport(Transport):
    """One seat of a game played through a mail desk."""

    name = "mail"

    def __init__(self, config: Path, to: str, game: str, seat: str, cache: Path):
        from arbiter.desks.mail.addresses import normalise

        self.settings = load_player_config(config)
        self.to = normalise(to)
        self.game = game
        self.seat = seat
        self.cache = cache
        self.where = shown(config)

    # -- deliver -------------------------------------------------------------------
    def deliver(self, name: str, data: bytes) -> str:
        from arbiter.desks.mail import compose

        plain_name(name)
        smtp = self.settings.smtp
        mid = compose.message_id(smtp.sender, self.game, "player", data.hex()[:64], self.to)
        mail = compose.letter(
            smtp.sender,
            self.to,
            f"{self.game}: {name}",
            f"{name} for game {self.game}.\n",
            mid,
            attachments=[(name, data, "application/json")],
        )
        del mail["Auto-Submitted"]  # a person's move: the desk must answer it
        outbox = PlayerOutbox(smtp, self.where)
        try:
            outbox.send(mail, [self.to])
        finally:
            outbox.close()
        return f"mailed {name} to {self.to}"

    # -- fetch ---------------------------------------------------------------------
    def fetch(self) -> Fetched:
        """The newest state file of this seat in the player's mailbox (or, when no newer
        mail carries one, the one fetched before) and its log; the mail's Date as time."""
        kept = self._load_cache()
        imap = self.settings.imap
        account = f"{imap.user or ''}@{imap.host}:{imap.port}/{imap.mailbox}"
        if kept is not None and kept["account"] != account:
            kept = None  # another mailbox: what was kept says nothing about this one
        with self._mailbox() as (box, validity):
            # Mail UIDs keep their meaning only while UIDVALIDITY does (RFC 3501 §2.3.1.1).
            same = kept is not None and kept["uidvalidity"] == validity
            after = kept["uid"] if kept is not None and same else 0
            uids = _search_after(box, after)
            best = self._newest(box, _candidates(box, uids, self.game))
        last = max(uids, default=after)
        if best is not None and (
            kept is None
            or best.seq > kept["seq"]
            or (best.seq == kept["seq"] and same and best.uid > kept["uid_of_state"])
        ):
            self._store(best, account, validity, last)
        elif kept is not None and (kept["uid"], kept["uidvalidity"]) != (last, validity):
            position = {"uidvalidity": validity, "uid": last}
            if not same:
                position["uid_of_state"] = 0  # its old UID means nothing now
            self._write_record({**kept, **position})
        return self._cached_files(account)

    def _mailbox(self) -> contextlib.AbstractContextManager[tuple[imaplib.IMAP4, int]]:
        return read_only(self.settings.imap, self.where)

    def _newest(self, box: imaplib.IMAP4, uids: list[int]) -> _StateMail | None:
        """The mail among ``uids`` whose state.json is this seat's with the highest seq."""
        best: _StateMail | None = None
        imap = self.settings.imap
        for start in range(0, len(uids), _BATCH):
            chunk = uids[start : start + _BATCH]
            with _imap_errors(imap, self.where):
                _, data = box.uid("FETCH", _uid_set(chunk), "(UID BODY.PEEK[])")
            for item in data or []:
                if not (isinstance(item, tuple) and len(item) >= 2):
                    continue
                uid = _UID.search(item[0] or b"")
                if uid is None:
                    continue
                found = _state_mail(
                    int(uid.group(1)), bytes(item[1]), self.game, self.seat, self.to
                )
                if found is not None and (
                    best is None or (found.seq, found.uid) > (best.seq, best.uid)
                ):
                    best = found
        return best

    # -- the cache -----------------------------------------------------------------
    def _load_cache(self) -> dict[str, Any] | None:
        try:
            record = json.loads(read_input(self.cache / "mail.json", limit=64 * 1024))
        except (ArbiterError, ValueError, RecursionError):
            return None  # none yet, or damaged: read the mailbox again, nothing is lost
        if not isinstance(record, dict) or record.get("format") != CACHE_FORMAT:
            return None
        if (record.get("game"), record.get("seat")) != (self.game, self.seat):
            return None
        keys = {"account": str, "uidvalidity": int, "uid": int, "seq": int, "uid_of_state": int}
        if not all(isinstance(record.get(k), t) for k, t in keys.items()):
            return None
        if not (self.cache / "state.json").is_file():
            return None
        return record

    def _store(self, best: _StateMail, account: str, validity: int, last: int) -> None:
        # The files first, the position last: a crash between them reads the mail again.
        ensure_dir(self.cache, PRIVATE_DIR)
        atomic_write(self.cache / "state.json", best.state, mode=PRIVATE_FILE)
        if best.log is not None:
            atomic_write(self.cache / "log.md", best.log, mode=PRIVATE_FILE)
        else:
            with contextlib.suppress(FileNotFoundError):
                (self.cache / "log.md").unlink()
        self._write_record(
            {
                "account": account,
                "uidvalidity": validity,
                "uid": last,
                "seq": best.seq,
                "uid_of_state": best.uid,
                "time": best.time,
                "where": best.where,
            }
        )

    def _write_record(self, record: dict[str, Any]) -> None:
        body = {"format": CACHE_FORMAT, "game": self.game, "seat": self.seat, **record}
        atomic_write(
            self.cache / "mail.json", json.dumps(body, indent=1).encode() + b"\n", mode=PRIVATE_FILE
        )

    def _cached_files(self, account: str) -> Fetched:
        record = self._load_cache()
        if record is None or record["account"] != account:
            imap = self.settings.imap
            raise NotReady(
                f"no state mail for game {self.game}, seat {self.seat} in "
                f"{visible(imap.user or imap.host)[:60]}'s {visible(imap.mailbox)[:40]} yet: "
                "wait for the desk's mail (join first if you have not)"
            )
        state = read_input(self.cache / "state.json")
        log_path = self.cache / "log.md"
        log = read_input(log_path).decode("utf-8", "replace") if log_path.is_file() else None
        time = record.get("time") if isinstance(record.get("time"), str) else None
        where = record.get("where") if isinstance(record.get("where"), str) else "a state mail"
        return Fetched(state, log, time, str(where))


@dataclass(frozen=True)
class _StateMail:
    uid: int
    seq: int
    state: bytes
    log: bytes | None
    time: str | None
    where: str


def _state_mail(uid: int, raw: bytes, game: str, seat: str, desk: str) -> _StateMail | None:
    """The mail's state file when it is ``seat``'s of ``game`` and comes from the desk's
    address (read with the desk's bounded MIME reader, validated), else ``None``.

    State mails are not signed (a state file's head is checked by the referee when the
    move comes back): the sender check keeps a stranger's mail from posing as the newest
    state without cost; a forged sender still gets nothing signed but a stale move."""
    from arbiter.core.canonical import parse_strict
    from arbiter.core.schemas import validate
    from arbiter.desks.mail import mime

    try:
        top, leaves = mime.walk(raw)
    except mime.Unreadable:
        return None
    if _sender(top.text("from")) != desk.lower():
        return None
    files: dict[str, bytes] = {}
    for leaf in leaves:
        name = _filename(leaf.header)
        if name in ("state.json", "log.md") and name not in files:
            files[name] = leaf.payload()
    if "state.json" not in files:
        return None
    try:
        state = parse_strict(files["state.json"], "state.json")
        validate("state", state, "state.json")
    except ArbiterError:
        return None
    if state["game"] != game or state["seat"] != seat:
        return None
    time = _utc(top.text("date"))
    where = f"the state mail of entry #{state['seq']}" + (f" ({time})" if time else "")
    return _StateMail(uid, state["seq"], files["state.json"], files.get("log.md"), time, where)


def _sender(header: str) -> str | None:
    """The one address of a From header, normalised as the desk's (``None``: not one)."""
    from email.utils import getaddresses

    from arbiter.desks.mail.addresses import normalise

    found = [address for _, address in getaddresses([header]) if address]
    if len(found) != 1:
        return None
    try:
        return normalise(found[0]).lower()
    except ArbiterError:
        return None


def _filename(header: Message) -> str | None:
    for where, param in (("content-disposition", "filename"), ("content-type", "name")):
        try:
            value = header.get_param(param, None, where)
        except (ValueError, LookupError, TypeError, IndexError, UnicodeError):
            return None
        if isinstance(value, str):
            return value
    return None


def _utc(date: str) -> str | None:
    """A Date header as ``YYYY-MM-DDTHH:MM:SSZ`` (UTC), or ``None`` when it cannot be read.

    By the deadlines' own calendar arithmetic: the player's side imports no clock module
    (tests/core/test_no_hidden_entropy.py)."""
    from arbiter.core.deadlines import add, check_time

    parsed = parsedate_tz(date)
    if parsed is None:
        return None
    year, month, day, hour, minute, second = parsed[:6]
    local = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"
    try:
        return add(check_time(local), -(parsed[9] or 0))  # "-0000" (zone unknown): as UTC
    except UsageError:
        return None


def _search_after(box: imaplib.IMAP4, after: int) -> list[int]:
    """UIDs above ``after``, oldest first ("n:*" always matches the newest mail, even one
    below n: filtered here)."""
    _, data = box.uid("SEARCH", f"UID {after + 1}:*")
    words = data[0].split() if data and data[0] else []
    return sorted(u for u in (int(w) for w in words) if u > after)


def _candidates(box: imaplib.IMAP4, uids: list[int], game: str) -> list[int]:
    """The mails worth downloading: a subject naming the game, a size the MIME reader
    takes. Only headers are read here; the state file decides later."""
    from arbiter.desks.mail.mime import MAX_MESSAGE

    found = []
    for start in range(0, len(uids), _BATCH):
        chunk = uids[start : start + _BATCH]
        _, data = box.uid(
            "FETCH", _uid_set(chunk), "(UID RFC822.SIZE BODY.PEEK[HEADER.FIELDS (SUBJECT)])"
        )
        for item in data or []:
            if not (isinstance(item, tuple) and len(item) >= 2):
                continue
            uid, size = _UID.search(item[0] or b""), _SIZE.search(item[0] or b"")
            if uid is None or (size is not None and int(size.group(1)) > MAX_MESSAGE):
                continue
            if game in _subject(bytes(item[1])):
                found.append(int(uid.group(1)))
    return sorted(found)


def _subject(header: bytes) -> str:
    text = header.decode("ascii", "replace").partition(":")[2]
    text = " ".join(text.split())  # unfolded
    try:
        return str(make_header(decode_header(text)))
    except (ValueError, LookupError, UnicodeError):
        return text


def _uid_set(uids: list[int]) -> str:
    return ",".join(str(u) for u in uids)


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _said(data: Any) -> str:
    words = b" ".join(d for d in data or [] if isinstance(d, bytes))
    return visible(words.decode("utf-8", "replace"))[:120] or "no reason given"


def _short(exc: BaseException) -> str:
    return visible(" ".join(str(exc).split()))[:160] or type(exc).__name__


def _open_imap(imap: Imap, where: str) -> imaplib.IMAP4:
    """Connect and log in: a server that cannot be reached is ``NotReady``, a login it
    refuses a ``UsageError`` (the user or password in the config)."""
    try:
        if imap.tls == "tls":
            box: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                imap.host, imap.port, ssl_context=tls_context(imap), timeout=60
            )
        else:
            box = imaplib.IMAP4(imap.host, imap.port, timeout=60)
            if imap.tls == "starttls":
                box.starttls(tls_context(imap))
    except (OSError, imaplib.IMAP4.error) as exc:
        raise NotReady(
            f"cannot reach the IMAP server {imap.host}:{imap.port} ({_short(exc)}): "
            f"check that it is up and [imap] in {where}, then try again"
        ) from None
    if imap.user is not None:
        try:
            box.login(imap.user, imap.password or "")
        except (OSError, imaplib.IMAP4.abort) as exc:
            raise NotReady(
                f"the IMAP server {imap.host}:{imap.port} failed at login ({_short(exc)}): try again"
            ) from None
        except imaplib.IMAP4.error as exc:
            if "UNAVAILABLE" in str(exc).upper():  # RFC 5530: the server's trouble, not yours
                raise NotReady(
                    f"the IMAP server {imap.host} cannot log you in now ({_short(exc)}): try again later"
                ) from None
            raise UsageError(
                f"the IMAP server {imap.host} refused the login of {visible(imap.user)[:60]} "
                f"({_short(exc)}): check imap.user and the password in {where}"
            ) from None
    return box


@contextlib.contextmanager
def _imap_errors(imap: Imap, where: str) -> Iterator[None]:
    try:
        yield
    except (OSError, imaplib.IMAP4.abort) as exc:
        raise NotReady(
            f"the IMAP server {imap.host}:{imap.port} failed ({_short(exc)}): try again"
        ) from None
    except imaplib.IMAP4.error as exc:
        raise NotReady(
            f"the IMAP server {imap.host}:{imap.port} refused a command ({_short(exc)}): "
            f"check [imap] in {where}, then try again"
        ) from None


class PlayerOutbox(Outbox):
    """The desk's SMTP client for one mail of a player, with the player's errors: a
    server that is down is ``NotReady``; a login, a sender or a recipient it refuses is a
    ``UsageError`` naming what to check. Never silent: the desk lets a refused answer go,
    a player must know the move did not."""

    def __init__(self, config: Smtp, where: str):
        super().__init__(config)
        self.where = where

    def _connect(self) -> smtplib.SMTP:
        config = self.config
        try:
            smtp = self._open()
        except (OSError, smtplib.SMTPException) as exc:
            raise NotReady(
                f"cannot reach the SMTP server {config.host}:{config.port} ({_short(exc)}): "
                f"check that it is up and [smtp] in {self.where}, then try again"
            ) from None
        if config.user is not None:
            try:
                smtp.login(config.user, config.password or "")
            except smtplib.SMTPAuthenticationError as exc:
                smtp.close()
                raise UsageError(
                    f"the SMTP server {config.host} refused the login of {visible(config.user)[:60]} "
                    f"({_short(exc)}): check smtp.user and the password in {self.where}"
                ) from None
            except (OSError, smtplib.SMTPException) as exc:
                smtp.close()
                raise NotReady(
                    f"the SMTP server {config.host}:{config.port} failed at login ({_short(exc)}): "
                    "try again"
                ) from None
        return smtp

    def send(self, message: Message, recipients: list[str]) -> None:
        config = self.config
        try:
            if self.smtp is None:
                self.smtp = self._connect()
            self._send(message, recipients)
        except smtplib.SMTPRecipientsRefused as exc:
            said = "; ".join(
                f"{code} {_short(Exception(text))}" for code, text in exc.recipients.values()
            )
            raise UsageError(
                f"the SMTP server refused the address {', '.join(recipients)} ({said[:160]}): "
                "check the desk's address"
            ) from None
        except smtplib.SMTPResponseException as exc:
            text = _short(
                Exception(
                    exc.smtp_error.decode("utf-8", "replace")
                    if isinstance(exc.smtp_error, bytes)
                    else exc.smtp_error
                )
            )
            if 500 <= exc.smtp_code < 600:
                raise UsageError(
                    f"the SMTP server {config.host} refused the mail ({exc.smtp_code} {text}): "
                    f"check [smtp] in {self.where} and the desk's address"
                ) from None
            raise NotReady(
                f"the SMTP server {config.host} cannot take the mail now ({exc.smtp_code} {text}): "
                "try again later"
            ) from None
        except (smtplib.SMTPException, OSError) as exc:
            raise NotReady(
                f"the SMTP server {config.host}:{config.port} failed ({_short(exc)}): try again"
            ) from None
