"""Find the signed files in a mail: JSON attachments of any name or type, or a body that is
one JSON object. Nothing is ever written to disk, so an attachment's name cannot traverse.

``read`` never raises on what a mail holds: a mail the bounded reader (``mime``) cannot
read, or whose text or file names cannot be decoded, comes back with ``unreadable`` set,
and the desk puts it in quarantine.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import Message
from email.utils import getaddresses

from arbiter.core.canonical import MAX_BYTES, parse_strict
from arbiter.core.errors import ArbiterError
from arbiter.core.safeio import visible
from arbiter.desks.mail import mime
from arbiter.desks.mail.mime import MAX_MESSAGE, Unreadable

__all__ = ["HEAD", "MAX_FILES", "MAX_MESSAGE", "Found", "Letter", "envelope", "read"]

MAX_FILES = 10
"""Files judged per mail."""
HEAD = mime.MAX_HEADER + 4
"""Bytes fetched of a mail too large to open: enough for its whole header."""


@dataclass
class Found:
    """A signed file found in a mail: its shown name and bytes, and its game id."""

    name: str
    data: bytes
    game: str | None


@dataclass
class Letter:
    """What the desk needs from one incoming mail."""

    sender: str
    """The bare From: address (lower case); '' unless there is exactly one plausible one."""
    message_id: str
    subject: str
    references: list[str]
    automatic: bool
    """An auto-reply, bounce or list mail: never answered (no mail loops)."""
    complete: bool = True
    """Whether the whole header was read (else whether it is automatic is unknown)."""
    files: list[Found] = field(default_factory=list)
    problem: str | None = None
    """Why nothing was judged (no file, too many), to say so once."""
    unreadable: str | None = None
    """Why the mail cannot be read: it goes to quarantine."""

    @property
    def answerable(self) -> bool:
        """Whether an answer may go to the sender: one plausible address, a header read
        whole, and not an automatic mail (RFC 3834 §2)."""
        return bool(self.sender) and self.complete and not self.automatic


def read(raw: bytes, size: int | None = None, expired: Callable[[], bool] = lambda: False) -> Letter:
    """Read one mail (``raw`` is its start only when ``size`` says it is larger)."""
    if size is not None and size > MAX_MESSAGE:
        letter = envelope(raw)
        letter.unreadable = f"it is larger than {MAX_MESSAGE // (1024 * 1024)} MiB: send only the move file"
        return letter
    try:
        top, leaves = mime.walk(raw, expired)
        letter = _letter(top)
        letter.files, letter.problem = _files(leaves, expired)
    except Unreadable as exc:
        letter = envelope(raw)
        letter.unreadable = exc.reason
    return letter


def envelope(raw: bytes) -> Letter:
    """The sender and ids of a mail that cannot be read, as far as its header allows."""
    return _letter(mime.envelope(raw))


def _letter(header: mime.Header) -> Letter:
    froms = [header.text("from")] if header.count("from") == 1 else []
    found = getaddresses([value[:2000] for value in froms])
    sender = found[0][1].lower() if len(found) == 1 and _plausible(found[0][1]) else ""
    return Letter(
        sender=sender,
        message_id=_shown(header.text("message-id"), 998).strip(),
        subject=_shown(_subject(header.text("subject")[:2000]), 200),
        references=_shown(header.text("references")[:20_000], 20_000).split()[-20:],
        automatic=_automatic(header, sender),
        complete=header.complete,
    )


def _shown(text: str, limit: int) -> str:
    return visible(text)[:limit]


def _subject(text: str) -> str:
    """Decode RFC 2047 encoded words; a subject that will not decode is shown as sent."""
    from email.header import decode_header, make_header

    try:
        return str(make_header(decode_header(text)))
    except Exception:  # any charset or syntax: the subject is only shown
        return text


def _plausible(address: str) -> bool:
    """One address that a reply could reach: local@domain, printable, not too long."""
    local, at, domain = address.rpartition("@")
    if not at or not local or "." not in domain or len(address) > 254:
        return False
    if not address.isprintable() or any(c in address for c in " <>,;\"\\"):
        return False
    try:
        Address(username=local, domain=domain)
    except (ValueError, IndexError):
        return False
    return True


# RFC 3834 §2: no automatic response to these local parts (bounces, list owners).
_ROBOT = re.compile(r"mailer-daemon|postmaster|owner-.*|.*-request")


# RFC 2369 and RFC 2919 list fields, and a common auto-responder mark.
_LIST_FIELDS = ("list-id", "list-post", "list-unsubscribe", "x-autoreply")


def _automatic(header: mime.Header, sender: str) -> bool:
    """RFC 3834 §2: never answer auto-submitted mail, bounces, lists or bulk mail, nor a
    mail whose return path is null ("<>", a bounce by RFC 5321 §4.5.5)."""
    auto = header.text("auto-submitted").split(";")[0].strip().lower()
    precedence = header.text("precedence").lower()
    return_path = header.raw("return-path")
    local = sender.partition("@")[0]
    return (
        auto not in ("", "no")
        or precedence in ("bulk", "junk", "list", "auto_reply")
        or any(header.raw(name) is not None for name in _LIST_FIELDS)
        or (return_path is not None and return_path.replace(b" ", b"") == b"<>")
        or bool(_ROBOT.fullmatch(local))
        or "mailer-daemon" in sender
        or header.text("content-type").lower().startswith("multipart/report")
    )


def _files(leaves: list[mime.Leaf], expired: Callable[[], bool]) -> tuple[list[Found], str | None]:
    files: list[Found] = []
    body_seen = False
    for leaf in leaves:
        if expired():
            raise Unreadable("reading it took too long")
        name = _name(leaf.header)
        is_body = not body_seen and name is None and leaf.kind == "text/plain"
        body_seen = body_seen or is_body
        data = leaf.payload()
        if is_body:
            # The mail's text is read in its declared charset (RFC 2046 §4.1.2).
            charset = _charset(leaf.header)
            data = text(data, charset, "its text").strip().encode("utf-8")
        if len(data) > MAX_BYTES:
            continue
        game = _arbiter_file(data)
        if game is None:
            continue
        files.append(Found(name or ("the mail's text" if is_body else "an attachment"), data, game or None))
        if len(files) > MAX_FILES:
            return [], f"the mail holds more than {MAX_FILES} files: send at most {MAX_FILES}"
    return files, None


# Codecs that are not character sets of mail; punycode's decoder is also quadratic.
_NOT_MAIL = frozenset({"punycode", "idna", "unicode-escape", "raw-unicode-escape", "undefined"})


def text(data: bytes, charset: str, what: str) -> str:
    """Decode ``data`` as ``charset`` or raise ``Unreadable``: an unknown or malformed
    charset name, bytes that are not valid in it, or a decoding that is not text (UTF-7
    and the escape codecs can yield lone surrogates)."""
    shown = visible(charset)[:40]
    if not re.fullmatch(r"[A-Za-z0-9!#$%&'+^_`{}~.:-]{1,40}", charset):  # RFC 2978 §2.3
        raise Unreadable(f'{what} declares the character set "{shown}", which is not a character set name')
    try:
        if codecs.lookup(charset).name in _NOT_MAIL:
            raise LookupError(charset)
        decoded = data.decode(charset)
        decoded.encode("utf-8")
    except LookupError:
        raise Unreadable(f'{what} declares the character set "{shown}", which is unknown') from None
    except (UnicodeError, ValueError):
        raise Unreadable(f"{what} is not valid in the character set it declares ({shown})") from None
    return decoded


def _charset(header: Message) -> str:
    try:
        value = header.get_param("charset")
    except (ValueError, LookupError, TypeError, IndexError, UnicodeError):
        raise Unreadable("a part's Content-Type header cannot be read") from None
    if isinstance(value, tuple):  # an RFC 2231 charset parameter of a charset: hostile
        raise Unreadable("a part declares its character set in a way that cannot be read")
    return value.strip() if isinstance(value, str) and value.strip() else "utf-8"


def _name(header: Message) -> str | None:
    """The part's file name (Content-Disposition, else Content-Type's ``name``), shown only."""
    for where, param in (("content-disposition", "filename"), ("content-type", "name")):
        try:
            value = header.get_param(param, None, where)
        except (ValueError, LookupError, TypeError, IndexError, UnicodeError):
            raise Unreadable("an attachment's name cannot be read") from None
        if value is None:
            continue
        if isinstance(value, tuple):  # RFC 2231: charset, language, percent-decoded bytes
            charset, _language, encoded = value
            value = text(encoded.encode("raw-unicode-escape"), charset or "us-ascii", "an attachment's name")
        # Shown, never used as a path: the last component, visible, short.
        base = str(value).replace("\\", "/").rsplit("/", 1)[-1]
        return visible(base)[:80] or "an attachment"
    return None


def _arbiter_file(data: bytes) -> str | None:
    """Return the file's game id ('' if it names none) when ``data`` is an arbiter file."""
    stripped = data.strip()
    if not stripped.startswith(b"{"):
        return None
    try:
        obj = parse_strict(stripped, "attachment")
    except ArbiterError:
        # Looks like JSON but is broken: judge it, so the sender hears what is wrong.
        return "" if b'"arbiter.' in stripped[:4096] else None
    if not isinstance(obj, dict) or not str(obj.get("format", "")).startswith("arbiter."):
        return None
    game = obj.get("game")
    return game if isinstance(game, str) else ""
