"""Split a mail into its parts within fixed bounds, with a loop instead of recursion.

The standard library's parser recurses once per nested part (2,000 nested
``multipart/mixed`` parts end in ``RecursionError``) and bounds neither the number of
parts nor the size of a header. This reader walks the MIME tree with an explicit stack
and stops at the first bound a mail crosses, raising ``Unreadable`` with a reason its
sender can act on. The work is linear in the mail's size, and ``expired`` (the desk's
clock, passed in: this module reads none) is asked at every part.

Only the structure is read here (RFC 2045, 2046): headers, boundaries, transfer
encodings. What the parts mean is ``extract``'s business.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message

MAX_MESSAGE = 8 * 1024 * 1024
"""A larger mail is not opened: a move file is a few KiB, and the limit bounds the work."""
MAX_HEADER = 128 * 1024
"""A mail's own header (and a forwarded mail's); Postfix refuses 100 KiB by default."""
MAX_PART_HEADER = 16 * 1024
MAX_FIELD = 4 * 1024
"""A Content-* field that is parsed (longer ones are hostile: parameter parsing is not
linear in the standard library)."""
MAX_DEPTH = 16
"""Nesting of multipart and message/rfc822 parts; mail clients write 3 or 4."""
MAX_PARTS = 64
"""Parts of every kind, containers included."""
MAX_BOUNDARY = 200
"""RFC 2046 §5.1.1 allows 70 characters; a little leeway, still bounded."""


class Unreadable(Exception):
    """The mail cannot be read within the bounds; ``reason`` says why, in plain words."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Header:
    """A header's fields in order: (lower-case name, unfolded value as bytes)."""

    fields: list[tuple[str, bytes]]
    complete: bool = True
    """False when only the start of a header too large to read was kept."""

    def raw(self, name: str) -> bytes | None:
        for field, value in self.fields:
            if field == name:
                return value
        return None

    def text(self, name: str) -> str:
        """The first ``name`` field as text ('' if absent); bytes that are not UTF-8 are
        replaced (RFC 6532 allows raw UTF-8, nothing else)."""
        value = self.raw(name)
        return value.decode("utf-8", "replace").strip() if value is not None else ""

    def count(self, name: str) -> int:
        return sum(1 for field, _ in self.fields if field == name)

    def content(self) -> Message:
        """The Content-* fields as a ``Message``, for the standard library's parameter
        parsing; a field that is too long or not UTF-8 makes the part unreadable."""
        message = Message()
        for field in ("content-type", "content-disposition", "content-transfer-encoding"):
            value = self.raw(field)
            if value is None:
                continue
            if len(value) > MAX_FIELD:
                raise Unreadable(f"a part's {_title(field)} header is longer than {MAX_FIELD // 1024} KiB")
            try:
                message[field] = value.decode("utf-8").strip()
            except UnicodeDecodeError:
                raise Unreadable(
                    f"a part's {_title(field)} header is not valid UTF-8 "
                    "(a file name in another character set must be encoded as RFC 2231 says)"
                ) from None
        return message


@dataclass
class Leaf:
    """A part that holds data: its header, its type and its body (transfer-encoded)."""

    header: Message
    kind: str
    body: bytes

    def payload(self) -> bytes:
        """The body with its Content-Transfer-Encoding undone (RFC 2045 §6)."""
        encoding = str(self.header.get("content-transfer-encoding", "")).strip().lower()
        if encoding == "base64":
            return _base64(self.body)
        if encoding == "quoted-printable":
            return binascii.a2b_qp(self.body)
        return self.body  # 7bit, 8bit, binary; an unknown encoding is left as it is


_END = re.compile(rb"\n\r?\n")
_NAME = re.compile(rb"[!-9;-~]+")  # RFC 5322 §2.2: printable US-ASCII but the colon


def split(data: bytes, limit: int) -> tuple[Header, bytes]:
    """Return the header of ``data`` and its body; raise if the header exceeds ``limit``."""
    if data.startswith((b"\n", b"\r\n")):
        return Header([]), data[data.index(b"\n") + 1 :]
    found = _END.search(data, 0, limit + 3)
    # The header is its lines up to the blank line, each with its line break.
    if found is None or found.start() + 1 > limit:
        if found is not None or len(data) > limit:
            raise Unreadable(f"its header is larger than {limit // 1024} KiB")
        return Header(_fields(data)), b""
    return Header(_fields(data[: found.start()])), data[found.end() :]


def envelope(raw: bytes) -> Header:
    """The mail's own header as far as it can be read: whole, or its first ``MAX_HEADER``
    bytes cut at a line (``complete`` False) when it is larger."""
    try:
        return split(raw, MAX_HEADER)[0]
    except Unreadable:
        head = raw[:MAX_HEADER]
        return Header(_fields(head[: head.rfind(b"\n") + 1]), complete=False)


def _fields(block: bytes) -> list[tuple[str, bytes]]:
    """Unfold a header block (RFC 5322 §2.2.3) into (name, value) pairs.

    A line that is neither a field nor a continuation (an mbox ``From `` line, garbage) is
    skipped, as mail readers do.
    """
    fields: list[tuple[str, list[bytes]]] = []
    for line in block.split(b"\n"):
        line = line.removesuffix(b"\r")
        if line[:1] in (b" ", b"\t"):
            if fields:
                fields[-1][1].append(line)
            continue
        name, colon, value = line.partition(b":")
        name = name.rstrip(b" \t")
        if colon and _NAME.fullmatch(name):
            fields.append((name.decode("ascii").lower(), [value]))
    return [(name, b"".join(pieces).strip()) for name, pieces in fields]


def walk(raw: bytes, expired: Callable[[], bool] = lambda: False) -> tuple[Header, list[Leaf]]:
    """Return the mail's own header and its leaves in reading order (depth first).

    Raises ``Unreadable`` at the first bound crossed: size, header sizes, depth, parts,
    a multipart whose boundary is missing or never closed, or time.
    """
    if not raw.strip():
        raise Unreadable("it is empty")
    if len(raw) > MAX_MESSAGE:
        raise Unreadable(f"it is larger than {MAX_MESSAGE // (1024 * 1024)} MiB: send only the move file")
    top, _ = split(raw, MAX_HEADER)
    leaves: list[Leaf] = []
    # (bytes of the part, depth, header limit, default type): RFC 2046 §5.1.5, a digest's
    # parts are mails unless they say otherwise.
    stack: list[tuple[bytes, int, int, str]] = [(raw, 0, MAX_HEADER, "text/plain")]
    parts = 0
    while stack:
        if expired():
            raise Unreadable("reading it took too long")
        data, depth, limit, default = stack.pop()
        parts += 1
        if parts > MAX_PARTS:
            raise Unreadable(f"it has more than {MAX_PARTS} parts: send the move file alone")
        header, body = split(data, limit)
        content = header.content()
        content.set_default_type(default)
        kind = _safe(content.get_content_type)
        if kind.startswith("multipart/"):
            if depth >= MAX_DEPTH:
                raise Unreadable(f"its parts are nested more than {MAX_DEPTH} deep")
            children = _children(body, content, MAX_PARTS - parts)
            inner = "message/rfc822" if kind == "multipart/digest" else "text/plain"
            stack.extend((child, depth + 1, MAX_PART_HEADER, inner) for child in reversed(children))
        elif kind == "message/rfc822" and _identity(content):
            if depth >= MAX_DEPTH:
                raise Unreadable(f"its parts are nested more than {MAX_DEPTH} deep")
            stack.append((body, depth + 1, MAX_HEADER, "text/plain"))  # a forwarded mail
        else:
            leaves.append(Leaf(content, kind, body))
    return top, leaves


def _identity(content: Message) -> bool:
    """Whether a message/rfc822 body is a mail as it stands (RFC 2046 §5.2.1 allows only
    7bit, 8bit or binary); an encoded one is read as an attachment."""
    encoding = str(content.get("content-transfer-encoding", "7bit")).strip().lower()
    return encoding in ("7bit", "8bit", "binary", "")


def _children(body: bytes, content: Message, room: int) -> list[bytes]:
    """Split a multipart body at its boundary (RFC 2046 §5.1.1) into at most ``room`` parts."""
    boundary = _safe(content.get_boundary)
    if not boundary:
        raise Unreadable("a multipart part names no boundary")
    try:
        marker = boundary.encode("utf-8")
    except UnicodeEncodeError:
        raise Unreadable("a multipart boundary is not text") from None
    if len(marker) > MAX_BOUNDARY:
        raise Unreadable(f"a multipart boundary is longer than {MAX_BOUNDARY} characters")
    # A delimiter is a whole line: "--" boundary, "--" more at the end, then only spaces.
    delimiter = re.compile(rb"^--" + re.escape(marker) + rb"(--)?[ \t]*\r?$", re.MULTILINE)
    children: list[bytes] = []
    start: int | None = None
    for found in delimiter.finditer(body):
        if start is not None:
            children.append(_chomp(body[start : found.start()]))
            if len(children) > room:
                raise Unreadable(f"it has more than {MAX_PARTS} parts: send the move file alone")
        if found.group(1):
            return children
        start = found.end() + (2 if body[found.end() : found.end() + 2] == b"\r\n" else 1)
    if start is None:
        raise Unreadable("a multipart part never uses its boundary")
    raise Unreadable("its last part is never closed (was the mail cut off?)")


def _chomp(part: bytes) -> bytes:
    """Drop the line break before a delimiter: it belongs to the delimiter (RFC 2046)."""
    if part.endswith(b"\r\n"):
        return part[:-2]
    return part[:-1] if part.endswith(b"\n") else part


def _base64(body: bytes) -> bytes:
    # Lenient like mail readers: characters outside the alphabet are skipped, missing
    # padding is added; only data that cannot be base64 at all is refused.
    data = re.sub(rb"[^A-Za-z0-9+/]", b"", body)
    try:
        return binascii.a2b_base64(data + b"=" * (-len(data) % 4))
    except binascii.Error:
        raise Unreadable("an attachment's base64 is broken") from None


def _safe(method: Callable[[], str | None]) -> str:
    """Call one of ``Message``'s parameter readers; they raise on hostile parameters
    (an RFC 2231 charset holding NUL, unbalanced quotes)."""
    try:
        return method() or ""
    except (ValueError, LookupError, TypeError, IndexError, UnicodeError):
        raise Unreadable("a part's Content-Type header cannot be read") from None


def _title(field: str) -> str:
    return "-".join(word.capitalize() for word in field.split("-"))
