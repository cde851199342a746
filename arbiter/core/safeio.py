"""Read files without being tricked: no symlinks, no FIFOs or devices, never unbounded.

Every file arbiter reads from outside goes through here. A file is opened with
``O_NOFOLLOW`` (a symlink committed to a shared inbox must not make the referee read
``referee/secret``) and ``O_NONBLOCK`` (a FIFO must not hang the referee), then ``fstat``
must say "regular file" on the very descriptor that is read, and at most ``limit + 1``
bytes are read (``/dev/zero`` or a 10 GB file cannot exhaust memory). Messages name the
path (escaped and shortened) and never quote a byte of the file.

- ``read_input``: a file the user names (a move or join file, a key, a data or state
  file). Refusals are ``MalformedInput`` (exit 3), a missing or unreadable path is
  ``NotReady`` (exit 17).
- ``open_nofollow_read`` / ``open_nofollow``: a file of the game folder itself. A
  symlink, a special file or an oversized file there means the folder was tampered with
  (``Tampered``, exit 15); a missing file raises the plain ``FileNotFoundError`` so callers
  keep their own meaning for "not there yet".
- ``refuse_links``: walk a folder (never following links) and refuse the first symlink,
  FIFO, socket or device in it (``Tampered``).

Only the final path component is checked: a game folder may itself live behind a
symlinked directory (``~/games -> /mnt/games``).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from arbiter.core.errors import ArbiterError, MalformedInput, NotReady, Tampered

MAX_BYTES = 1024 * 1024
"""The size limit of every input file (equal to ``canonical.MAX_BYTES``)."""

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_CHUNK = 64 * 1024
_SHOWN = 120  # characters of a path shown in a message

# C0 and C1 controls, DEL, lone surrogates (undecodable bytes of a file name), line and
# paragraph separators and the bidirectional overrides: none may reach a terminal as is.
# Compiled on first need: most text is printable and never needs it.
_INVISIBLE = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """Return ``text`` with every control character written as a visible escape (``\\x1b``)."""
    if text.isprintable():  # no control, format, surrogate or separator character at all
        return text
    return re.sub(_INVISIBLE, _escape_char, text)


def shown(path: Path | str) -> str:
    """Return a path as a message shows it: control characters escaped, long ones shortened."""
    text = visible(os.fspath(path))
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def cut_short(root: Path) -> str:
    """The end of a message about a published file the chain has moved past: a crash
    between the chain's commit and that file's write leaves it so, and the referee's next
    command that writes brings it back to the head (DESIGN.md "Crash recovery")."""
    return (
        f" (a write cut short by a crash?): `arbiter repair {shown(root)}` on the referee's "
        "folder, or its next submit, brings it up to date; on a copy, fetch the folder again"
    )


def _size(limit: int) -> str:
    if limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB"
    if limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit} bytes"


def _kind(mode: int) -> str | None:
    """Name what a non-regular file is (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _refusal(name: str, kind: str) -> str:
    if kind == "a symlink":
        return f"{name} is a symlink: give the file itself, not a link to it"
    return f"{name} is {kind}: give a regular file"


def _open_regular(path: Path | str, name: str, refuse: type[ArbiterError]) -> int:
    """Open ``path`` read-only without following a final symlink; return a descriptor of a
    regular file or raise ``refuse``. ``OSError`` (a missing file...) is left to the caller."""
    # lstat first, so a device is refused before it is even opened (opening some has
    # side effects); fstat after, on the descriptor itself, closes the race.
    before = os.lstat(path)
    kind = _kind(before.st_mode)
    if kind is not None:
        raise refuse(_refusal(name, kind))
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # swapped for a symlink since lstat
            raise refuse(_refusal(name, "a symlink")) from None
        raise
    try:
        kind = _kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise refuse(_refusal(name, kind))
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_bounded(fd: int, name: str, limit: int, refuse: type[ArbiterError]) -> bytes:
    """Read at most ``limit + 1`` bytes; raise ``refuse`` when there are more than ``limit``."""
    chunks: list[bytes] = []
    total = 0
    while total <= limit:
        try:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
        except BlockingIOError:  # a regular file never blocks; be safe anyway
            break
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > limit:
        raise refuse(f"{name} is larger than {_size(limit)}: send a smaller file")
    return b"".join(chunks)


def read_input(path: Path | str, what: str | None = None, limit: int = MAX_BYTES) -> bytes:
    """Return the bytes of a file the user named, at most ``limit`` of them.

    Raises ``MalformedInput`` (exit 3) for a symlink, FIFO, socket, device or directory, or
    a file over ``limit``; ``NotReady`` (exit 17) for a missing or unreadable path. ``what``
    names the file in messages (default: the path, escaped and shortened).
    """
    name = what if what is not None else shown(path)
    try:
        fd = _open_regular(path, name, MalformedInput)
    except FileNotFoundError:
        raise NotReady(f"cannot read {name}: not found, check the path") from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise NotReady(
            f"cannot read {name} ({reason}): check the path and its permissions"
        ) from None
    try:
        return _read_bounded(fd, name, limit, MalformedInput)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise NotReady(f"cannot read {name} ({reason}): check the file") from None
    finally:
        os.close(fd)


def open_nofollow_read(path: Path | str, limit: int = MAX_BYTES) -> bytes:
    """Return the bytes of a game folder's own file, refusing a symlink or special file.

    Raises ``Tampered`` (exit 15) when the final component of ``path`` is a symlink, a
    FIFO, socket, device or directory, or holds more than ``limit`` bytes (at most
    ``limit + 1`` are read). ``FileNotFoundError`` and other ``OSError`` propagate
    unchanged.
    """
    name = shown(path)
    fd = _open_regular(path, name, Tampered)
    try:
        return _read_bounded(fd, name, limit, Tampered)
    finally:
        os.close(fd)


def open_nofollow(path: Path | str) -> BinaryIO:
    """Open a game folder's own file for streaming (``rb``), refusing a symlink or special
    file with ``Tampered``; ``OSError`` (a missing file...) propagates. The caller bounds
    what it reads (``readline(limit)``)."""
    fd = _open_regular(path, shown(path), Tampered)
    return os.fdopen(fd, "rb")


def refuse_links(root: Path, what: str) -> None:
    """Raise ``Tampered`` naming the first symlink, FIFO, socket or device under ``root``.

    The walk never follows a link and goes in sorted order, so the same folder always
    names the same entry. ``root`` itself may be reached through a symlink. A missing
    ``root`` is ``NotReady``.
    """
    root = Path(root)
    if not root.is_dir():
        raise NotReady(f"{what} not found at {shown(root)}: check the path")
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except FileNotFoundError:  # removed while the walk ran: nothing left to refuse
            continue
        subfolders = []
        for entry in entries:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except FileNotFoundError:
                continue
            if stat.S_ISDIR(mode):
                subfolders.append(Path(entry.path))
                continue
            kind = _kind(mode)
            if kind is not None:
                where = shown(Path(entry.path).relative_to(root))
                raise Tampered(
                    f"{what}: {where} is {kind}, not a regular file: "
                    "replace it with the real file (or restore the folder from a backup)"
                )
        pending.extend(reversed(subfolders))  # the first subfolder is walked next


def lines(handle: BinaryIO, what: str, limit: int = MAX_BYTES + 1) -> Iterator[bytes]:
    """Yield the lines of an open file, each at most ``limit`` bytes with its newline.

    A longer line raises ``Tampered``: no line of a game folder is that long, and reading
    it whole could exhaust memory (verify may be run on anybody's folder).
    """
    while True:
        raw = handle.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit:
            raise Tampered(f"{what} has a line longer than {_size(limit)}: it was damaged")
        yield raw
