"""The desk's outgoing mails: receipts, rejections, state files, results. Pure functions.

Every Message-ID is derived from what the mail is about (game, entry, purpose, recipient),
so the same mail sent again after a crash carries the same id and can be recognised.
"""

from __future__ import annotations

import hashlib
from email.message import EmailMessage
from email.utils import formatdate, getaddresses
from pathlib import Path

SUBJECT = "[arbiter]"


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
) -> EmailMessage:
    """Build one mail. Marked auto-generated (RFC 3834) so no robot answers it."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = f"{SUBJECT} {subject}"
    message["Message-ID"] = mid
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Auto-Submitted"] = "auto-replied" if in_reply_to else "auto-generated"
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
    if references:
        message["References"] = " ".join(references[-20:])
    message.set_content(body)
    for name, data, kind in attachments or []:
        maintype, _, subtype = kind.partition("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message


def attach(path: Path, name: str, kind: str) -> tuple[str, bytes, str]:
    return (name, path.read_bytes(), kind)


def usage(desk_address: str) -> str:
    """The few lines that tell a player how to answer."""
    return (
        "To move: `arbiter moves state.json` lists your choices;\n"
        "`arbiter move state.json --key YOUR_KEY --action '{...}' -o move.json` signs one.\n"
        f"Then mail move.json (as an attachment, or as the whole text of the mail) to {desk_address}."
    )
