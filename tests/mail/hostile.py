"""A corpus of hostile mails for the mail desk (issue 24, item 1), and good moves to mix in.

Every builder takes the sender's address and a number (for a Message-ID of its own) and
returns the raw mail. Each hostile mail must end in the desk's quarantine folder, with
one plain answer when ``ANSWERED[kind]`` (a plausible sender, not an automatic mail,
RFC 3834 §2) and none otherwise.

The three mails that stopped the desk on the issue's day (``CRASHERS``) are built as the
issue describes them. Two things real Dovecot does shape the corpus: it refuses to store a
zero-byte mail ("Can't save a zero byte message"), so the empty mail here is one blank
line; and it stores a NUL byte of a header as 0x80, so the NUL-carrying charset that
reaches the desk through Dovecot is the RFC 2231 form ``charset*=''utf-8%00``, which the
standard library decodes back to ``"utf-8\\0"``. The raw-NUL form is kept for the tests
that need no server.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

DESK = "referee@example.test"
MOVE_LIKE = b'{"format": "arbiter.move/1", "game": "g1"}'


def _head(sender: str, kind: str, n: int, extra: bytes = b"") -> bytes:
    return (
        f"From: Mallory <{sender}>\r\nTo: {DESK}\r\nSubject: {kind}\r\n"
        f"Message-ID: <{kind}.{n}@corpus.test>\r\nMIME-Version: 1.0\r\n"
    ).encode() + extra


def nested(sender: str, n: int, depth: int = 2000) -> bytes:
    """``depth`` nested multipart/mixed parts (RecursionError in the standard library's
    parser from about 1,000 on)."""
    opening = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth)
    )
    closing = b"".join(b"\r\n--b%d--" % i for i in reversed(range(depth)))
    return _head(sender, "nested", n) + opening + b"Content-Type: text/plain\r\n\r\nhello" + closing + b"\r\n"


def _padded(raw: bytes, size: int) -> bytes:
    """Lengthen the Subject so the mail is exactly ``size`` bytes (as the issue's was)."""
    missing = size - len(raw)
    assert missing >= 0, (len(raw), size)
    return raw.replace(b"\r\nMessage-ID:", b"x" * missing + b"\r\nMessage-ID:", 1)


def nul_charset(sender: str, n: int) -> bytes:
    """The issue's 173-byte mail: a text part with ``charset="utf-8\\0"`` (ValueError)."""
    raw = (
        f"From: <{sender}>\r\nTo: {DESK}\r\nSubject: n\r\nMessage-ID: <nul.{n}@c.test>\r\n".encode()
        + b'Content-Type: text/plain; charset="utf-8\0"\r\n\r\n{}\r\n'
    )
    return _padded(raw, 173)


def nul_charset_2231(sender: str, n: int) -> bytes:
    """The same charset as it survives Dovecot: RFC 2231 percent-encoding."""
    return _head(sender, "nul-2231", n, b"Content-Type: text/plain; charset*=''utf-8%00\r\n\r\n") + MOVE_LIKE + b"\r\n"


def utf7_surrogate(sender: str, n: int) -> bytes:
    """The issue's 190-byte mail: a UTF-7 text that decodes to a lone surrogate
    (UnicodeEncodeError)."""
    raw = (
        f"From: <{sender}>\r\nTo: {DESK}\r\nSubject: u\r\nMessage-ID: <utf7.{n}@c.test>\r\n".encode()
        + b'MIME-Version: 1.0\r\nContent-Type: text/plain; charset="utf-7"\r\n\r\n+2AA-\r\n'
    )
    return _padded(raw, 190)


def _text(charset: bytes, body: bytes) -> Callable[[str, int], bytes]:
    def build(sender: str, n: int) -> bytes:
        kind = "charset-" + charset.decode("ascii", "replace")[:20]
        return _head(sender, kind, n, b'Content-Type: text/plain; charset="' + charset + b'"\r\n\r\n') + body + b"\r\n"

    return build


def _multipart(kind: str, content_type: bytes, body: bytes) -> Callable[[str, int], bytes]:
    def build(sender: str, n: int) -> bytes:
        return _head(sender, kind, n, b"Content-Type: " + content_type + b"\r\n\r\n") + body

    return build


def _attachment(kind: str, disposition: bytes, body: bytes = b"x", encoding: bytes = b"7bit") -> Callable[[str, int], bytes]:
    def build(sender: str, n: int) -> bytes:
        return _head(sender, kind, n) + (
            b'Content-Type: multipart/mixed; boundary="B"\r\n\r\n--B\r\n'
            b"Content-Type: text/plain\r\n\r\nmy move\r\n--B\r\n"
            b"Content-Type: application/json\r\nContent-Transfer-Encoding: " + encoding + b"\r\n"
            b"Content-Disposition: " + disposition + b"\r\n\r\n" + body + b"\r\n--B--\r\n"
        )

    return build


def big_header(sender: str, n: int, size: int = 1024 * 1024) -> bytes:
    """A 1 MiB header: one field folded over 14,000 lines."""
    lines = size // 76
    folded = b"X-Filler: " + b"y" * 64 + (b"\r\n " + b"y" * 73) * lines + b"\r\n"
    return _head(sender, "big-header", n, folded + b"Content-Type: text/plain\r\n\r\n") + MOVE_LIKE + b"\r\n"


def many_parts(sender: str, n: int, parts: int = 10_000) -> bytes:
    body = b"".join(b"--P\r\nContent-Type: text/plain\r\n\r\npart %d\r\n" % i for i in range(parts)) + b"--P--\r\n"
    return _head(sender, "many-parts", n, b'Content-Type: multipart/mixed; boundary="P"\r\n\r\n') + body


def empty(sender: str, n: int) -> bytes:
    """A mail of one blank line: no header, no body (Dovecot stores no zero-byte mail)."""
    return b"\r\n"


def nested_rfc822(sender: str, n: int, depth: int = 200) -> bytes:
    inner = b"From: <a@corpus.test>\r\n\r\nhello\r\n"
    for _ in range(depth):
        inner = b"From: <a@corpus.test>\r\nContent-Type: message/rfc822\r\n\r\n" + inner
    return _head(sender, "nested-rfc822", n, b"Content-Type: message/rfc822\r\n\r\n") + inner


def robot(sender: str, n: int) -> bytes:
    """An auto-reply that cannot be read either: quarantined, never answered."""
    return _head(sender, "robot", n, b"Auto-Submitted: auto-replied\r\n") + nested(sender, n, 40).split(b"MIME-Version: 1.0\r\n", 1)[1]


def bounce(sender: str, n: int) -> bytes:
    """A null return path (a bounce, RFC 5321 §4.5.5): quarantined, never answered."""
    return b"Return-Path: <>\r\n" + _text(b"x-no-such-charset", b"hello")(sender, n)


HOSTILE: dict[str, Callable[[str, int], bytes]] = {
    "nested-2000": nested,
    "nul-charset": nul_charset_2231,
    "utf7-surrogate": utf7_surrogate,
    "unknown-charset": _text(b"x-no-such-charset", MOVE_LIKE),
    "lying-charset": _text(b"utf-8", b"caf\xe9 " + MOVE_LIKE),
    "escape-charset": _text(b"unicode_escape", b"\\ud800"),
    "boundary-unused": _multipart("boundary-unused", b'multipart/mixed; boundary="b1"', b"--b2\r\n\r\nx\r\n--b2--\r\n"),
    "boundary-missing": _multipart("boundary-missing", b"multipart/mixed", b"--b1\r\n\r\nx\r\n--b1--\r\n"),
    "boundary-unclosed": _multipart("boundary-unclosed", b'multipart/mixed; boundary="b1"', b"--b1\r\n\r\nx\r\n"),
    "boundary-long": _multipart("boundary-long", b'multipart/mixed; boundary="' + b"b" * 500 + b'"', b"x\r\n"),
    "header-1mb": big_header,
    "parts-10000": many_parts,
    "empty": empty,
    "nested-rfc822": nested_rfc822,
    "name-latin1": _attachment("name-latin1", b'attachment; filename="caf\xe9.json"', MOVE_LIKE),
    "name-utf7": _attachment("name-utf7", b"attachment; filename*=utf-7''%2B2AA-.json", MOVE_LIKE),
    "name-nul": _attachment("name-nul", b"attachment; filename*=utf-8%00''move.json", MOVE_LIKE),
    "base64-broken": _attachment("base64-broken", b'attachment; filename="m.json"', b"QUJDR", b"base64"),
    "robot": robot,
    "bounce": bounce,
}
"""Every hostile kind, as it reaches the desk through Dovecot."""

def huge(sender: str, n: int) -> bytes:
    """A 9 MiB mail, over the desk's 8 MiB: only its header is fetched (the benchmark's)."""
    return _attachment("huge", b'attachment; filename="big.bin"', b"A" * (9 * 1024 * 1024))(sender, n)


BENCHMARK_ONLY: dict[str, Callable[[str, int], bytes]] = {"huge-9mb": huge}
"""Kinds too slow to mail in the default test run."""

ANSWERED = {kind: kind not in ("empty", "header-1mb", "robot", "bounce") for kind in [*HOSTILE, *BENCHMARK_ONLY]}
"""Whether the desk answers the kind: not without a sender, a header read whole, or a
human behind it."""

CRASHERS: dict[str, Callable[[str, int], bytes]] = {
    "nested-2000": nested,
    "nul-charset": nul_charset,
    "utf7-surrogate": utf7_surrogate,
}
"""The issue's three mails that each stopped the desk for good, byte for byte as described."""

SAMPLE = ("nested-2000", "nul-charset", "utf7-surrogate", "lying-charset", "boundary-unused",
          "boundary-unclosed", "header-1mb", "parts-10000", "empty", "name-latin1", "robot", "bounce")
"""The kinds the default test run mixes in (the benchmark sends them all, many times)."""


# -- good moves -----------------------------------------------------------------------


@dataclass
class Good:
    """One good file, mailed by its seat: the game, the entry it must become, the mail."""

    game: str
    seq: int
    seat: str
    raw: bytes


def good_moves(work: Path, games: Path, users: dict[str, object], count: int,
               name: str = "g1") -> list[Good]:
    """Create Mot Coin game ``name`` (3 seats with addresses) under ``games`` and return
    ``count`` signed joins and moves in playing order, each in its seat's mail.

    The moves are signed ahead on a scratch copy, as players would have sent them.
    """
    from helpers.tables import make_keys

    from arbiter.core.canonical import pretty
    from arbiter.core.player import load_state, make_join, make_move
    from arbiter.core.referee import new_game, submit
    from arbiter.core.rng import Rng
    from arbiter.desks.mail.addresses import store

    seats = ["alice", "bob", "carol"]
    keys = make_keys(work / f"keys-{name}", seats)
    folder = games / name
    new_game(folder, "motcoin", [(s, f"{keys[s]}.pub") for s in seats], {}, game_id=name,
             created="2026-12-01T00:00:00Z")
    for seat in seats:
        store(folder, seat, users[seat].address)  # type: ignore[attr-defined]
    scratch = work / "scratch" / name
    shutil.copytree(folder, scratch)
    files: list[tuple[str, dict]] = []
    for seat in seats:
        join = make_join(folder / "game.json", seat, keys[seat])
        submit(scratch, pretty(join), "join.json")
        files.append((seat, join))
    choices = Rng(b"hostile-corpus".ljust(32, b"\0"))
    while len(files) < count:
        public = json.loads((scratch / "public" / "state.json").read_bytes())
        if public["status"] != "playing":
            break
        seat = public["prompt"]["seat"]
        state = load_state(scratch / "players" / seat / "state.json")
        move = make_move(state, keys[seat], [choices.choice(state["legal"])])
        submit(scratch, pretty(move), "move.json")
        files.append((seat, move))
    shutil.rmtree(scratch)
    good = []
    for seq, (seat, obj) in enumerate(files, start=1):
        message = EmailMessage()
        message["From"] = users[seat].address  # type: ignore[attr-defined]
        message["To"] = DESK
        message["Subject"] = f"{name} entry {seq}"
        message["Message-ID"] = f"<{name}.{seq}@players.test>"
        message.set_content("my move")
        message.add_attachment(pretty(obj), maintype="application", subtype="json",
                               filename=f"{seq:04d}-{seat}.json")
        good.append(Good(name, seq, seat, message.as_bytes()))
    return good


def mixed(good: list[list[Good]], hostile: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """Interleave the games' files (round robin) and the hostile mails, evenly, keeping
    each game's order: [(label, raw)], label "good:<game>:<seq>" or the hostile kind."""
    goods = [(f"good:{g.game}:{g.seq}", g.raw) for round_ in _rounds(good) for g in round_]
    out: list[tuple[str, bytes]] = []
    step = max(1, len(goods) // max(1, len(hostile)))
    pending = list(hostile)
    for index, item in enumerate(goods):
        if pending and index % step == 0:
            out.append(pending.pop(0))
        out.append(item)
    return out + pending


def _rounds(good: list[list[Good]]) -> list[list[Good]]:
    longest = max((len(g) for g in good), default=0)
    return [[g[i] for g in good if i < len(g)] for i in range(longest)]
