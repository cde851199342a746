"""Find the signed files in a mail: JSON attachments of any name or type, or a body that is
one JSON object. Nothing is ever written to disk, so an attachment's name cannot traverse."""

from __future__ import annotations

from dataclasses import dataclass, field
from email import policy
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses

from arbiter.core.canonical import MAX_BYTES, parse_strict
from arbiter.core.errors import ArbiterError
from arbiter.core.safeio import visible

MAX_MESSAGE = 8 * 1024 * 1024
"""A larger mail is not opened: a move file is a few KiB, and the limit bounds the work."""
MAX_PARTS = 64
"""Parts looked at; MAX_FILES files judged per mail."""
MAX_FILES = 10


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
    """The bare From: address (lower case), '' when there is none."""
    message_id: str
    subject: str
    references: list[str]
    automatic: bool
    """An auto-reply, bounce or list mail: never answered (no mail loops)."""
    files: list[Found] = field(default_factory=list)
    problem: str | None = None
    """Why nothing was judged (too large, too many parts), to say so once."""


def read(raw: bytes) -> Letter:
    """Parse one mail; never raises on hostile input."""
    if len(raw) > MAX_MESSAGE:
        head = raw[: 64 * 1024].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
        message = BytesParser(policy=policy.default).parsebytes(head + b"\n\n", headersonly=True)
        letter = _letter(message)
        letter.problem = (
            f"the mail is larger than {MAX_MESSAGE // (1024 * 1024)} MiB: send only the move file"
        )
        return letter
    message = BytesParser(policy=policy.default).parsebytes(raw)
    letter = _letter(message)
    letter.files, letter.problem = _files(message)
    return letter


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
    except (ValueError, TypeError, IndexError):  # a header the parser cannot read
        return ""
    return visible(str(value))[:998] if value is not None else ""


def _letter(message: Message) -> Letter:
    sender_header = _header(message, "From")
    found = getaddresses([sender_header])
    sender = found[0][1].lower() if len(found) == 1 and "@" in found[0][1] else ""
    references = _header(message, "References").split()[-20:]
    return Letter(
        sender=sender,
        message_id=_header(message, "Message-ID").strip(),
        subject=_header(message, "Subject")[:200],
        references=references,
        automatic=_automatic(message, sender),
    )


def _automatic(message: Message, sender: str) -> bool:
    """RFC 3834: never answer auto-submitted mail, bounces, lists or bulk mail."""
    auto = _header(message, "Auto-Submitted").strip().lower()
    precedence = _header(message, "Precedence").strip().lower()
    local = sender.partition("@")[0]
    return (
        (auto not in ("", "no"))
        or precedence in ("bulk", "junk", "list", "auto_reply")
        or bool(_header(message, "List-Id") or _header(message, "X-Autoreply"))
        or local in ("mailer-daemon", "postmaster", "")
        or "mailer-daemon" in sender
        or _header(message, "Content-Type").lower().startswith("multipart/report")
    )


def _files(message: Message) -> tuple[list[Found], str | None]:
    files: list[Found] = []
    parts = 0
    body_seen = False
    for part in message.walk():
        if part.is_multipart():
            continue
        parts += 1
        if parts > MAX_PARTS:
            return [], f"the mail has more than {MAX_PARTS} parts: send the move file alone"
        name = _name(part)
        is_body = not body_seen and name is None and part.get_content_type() == "text/plain"
        body_seen = body_seen or is_body
        try:
            data = part.get_payload(decode=True)
        except (ValueError, TypeError, LookupError):
            continue
        if not isinstance(data, bytes) or len(data) > MAX_BYTES:
            continue
        if is_body:
            data = _body_bytes(part, data)
        game = _arbiter_file(data)
        if game is None:
            continue
        files.append(Found(name or ("the mail's text" if is_body else "an attachment"), data, game or None))
        if len(files) > MAX_FILES:
            return [], f"the mail holds more than {MAX_FILES} files: send at most {MAX_FILES}"
    return files, None


def _body_bytes(part: Message, data: bytes) -> bytes:
    """A body is a file only when it is one JSON object; strip what mail clients add."""
    charset = part.get_content_charset() or "utf-8"
    try:
        text = data.decode(charset)
    except (LookupError, UnicodeDecodeError):
        return data
    return text.strip().encode("utf-8")


def _name(part: Message) -> str | None:
    try:
        filename = part.get_filename()
    except (ValueError, TypeError, IndexError):
        filename = None
    if filename is None:
        return None
    # Shown, never used as a path: the last component, visible, short.
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    return visible(base)[:80] or "an attachment"


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

