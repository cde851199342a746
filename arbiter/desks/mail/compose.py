"""The desk's outgoing mails: receipts, rejections, state files, results. Pure functions.

Every Message-ID is derived from what the mail is about (game, entry, purpose, recipient),
so the same mail sent again after a crash carries the same id and can be recognised.
"""

from __future__ import annotations

import binascii
import hashlib
from email.charset import QP, Charset
from email.header import Header
from email.message import Message
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.nonmultipart import MIMENonMultipart
from email.mime.text import MIMEText
from email.policy import compat32
from email.utils import formatdate, getaddresses
from pathlib import Path

SUBJECT = "[arbiter]"
# Headers are never folded: a folded Message-ID comes back with a leading space.
_POLICY = compat32.clone(max_line_length=998)


def _utf8() -> Charset:
    """UTF-8 text as quoted-printable: readable in the raw mail, unlike base64.

    (MIMEText takes a ``Charset`` as well as a name; typeshed only knows the name.)
    """
    charset = Charset("utf-8")
    charset.body_encoding = QP
    return charset


def domain(sender: str) -> str:
    address = getaddresses([sender])[0][1]
    return address.rpartition("@")[2] or "arbiter.invalid"


def message_id(sender: str, *parts: object) -> str:
    """Return a Message-ID that names what the mail is about (recipients are hashed)."""
    label = ".".join(str(p) for p in parts)
    digest = hashlib.sha256(label.encode()).hexdigest()[:24]
    head = ".".join(str(p) for p in parts[:2])
    safe = "".join(c if c.isalnum() or c in "-." else "-" for c in head)[:80]
    return f"<arbiter.{safe}.{digest}@{domain(sender)}>"


def game_thread(sender: str, game: str) -> str:
    """The Message-ID every mail of one game refers to, so mail clients thread a game."""
    return message_id(sender, game, "game")


def letter(
    sender: str,
    to: str,
    subject: str,
    body: str,
    mid: str,
    *,
    in_reply_to: str | None = None,
    references: list[str] | None = None,
    attachments: list[tuple[str, bytes, str]] | None = None,
) -> Message:
    """Build one mail. Marked auto-generated (RFC 3834) so no robot answers it.

    Built with the classic MIME classes: the modern ``EmailMessage`` API re-parses every
    header it sets and costs a desk more time than judging the move.
    """
    text = MIMEText(body, "plain", _utf8(), policy=_POLICY)  # type: ignore[arg-type]
    message: Message = text
    if attachments:
        message = MIMEMultipart("mixed", policy=_POLICY)
        message.attach(text)
        for name, data, kind in attachments:
            maintype, _, subtype = kind.partition("/")
            part = (
                _text_part(data, subtype)
                if maintype == "text"
                else MIMEApplication(data, subtype, policy=_POLICY)
            )
            part.add_header("Content-Disposition", "attachment", filename=name)
            message.attach(part)
    message["From"] = sender
    message["To"] = to
    message["Subject"] = Header(f"{SUBJECT} {subject}", "utf-8").encode()
    message["Message-ID"] = mid
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
    if references:
        message["References"] = " ".join(references[-20:])
    return message


def _text_part(data: bytes, subtype: str) -> Message:
    """A UTF-8 text attachment as quoted-printable, like ``_utf8``'s, encoded by binascii's
    C encoder: the email package's encoder goes character by character, and a game's log
    grows with every entry."""
    data.decode("utf-8")  # text attachments are UTF-8 (a log), as before
    part = MIMENonMultipart("text", subtype, policy=_POLICY, charset="utf-8")
    part["Content-Transfer-Encoding"] = "quoted-printable"
    part.set_payload(binascii.b2a_qp(data).decode("ascii"))
    return part


def attach(path: Path, name: str, kind: str) -> tuple[str, bytes, str]:
    return (name, path.read_bytes(), kind)


def usage(desk_address: str) -> str:
    """The few lines that tell a player how to answer."""
    return (
        "To move: `arbiter play` reads this mail from your mailbox, lists your choices and "
        "mails your move here\n"
        "(once: `arbiter play add game.json --seat YOUR_SEAT --key YOUR_KEY --via mail "
        f"--config YOUR_MAIL.toml --to {desk_address}`; docs/player-guide.md).\n"
        "Or by hand: `arbiter moves state.json`, then `arbiter move state.json --key YOUR_KEY "
        "--pick N -o move.json`,\n"
        f"and mail move.json (as an attachment, or as the whole text of the mail) to {desk_address}."
    )
