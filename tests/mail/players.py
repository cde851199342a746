"""A player's side of play by email, as a test drives it: an own mailbox, an own key.

The player reads only their own mailbox (new mail since last time), takes their state
file from the latest mail that carries one, builds and signs a decision with the player
library, and mails the move file to the desk, as any mail client would.
"""

from __future__ import annotations

import imaplib
import json
import smtplib
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

from arbiter.core.canonical import pretty
from arbiter.core.player import make_join, make_move
from arbiter.core.rng import Rng


@dataclass
class Player:
    seat: str
    address: str
    login: str
    password: str
    key: Path
    imap: tuple[str, int]
    smtp: tuple[str, int]
    desk: str
    seen: int = 0
    inbox: list[EmailMessage] = field(default_factory=list)
    state: dict[str, Any] | None = None

    def fetch(self) -> list[EmailMessage]:
        """Read the mail that arrived since the last call (UIDs above the last seen)."""
        imap = imaplib.IMAP4(*self.imap)
        try:
            imap.login(self.login, self.password)
            imap.select("INBOX")
            _, found = imap.uid("SEARCH", f"UID {self.seen + 1}:*")
            new = []
            for uid in sorted(int(u) for u in (found[0] or b"").split()):
                if uid <= self.seen:
                    continue  # "n:*" always matches the last message
                _, parts = imap.uid("FETCH", str(uid), "(BODY.PEEK[])")
                for part in parts:
                    if isinstance(part, tuple):
                        message = BytesParser(policy=policy.default).parsebytes(part[1])
                        assert isinstance(message, EmailMessage)
                        new.append(message)
                self.seen = uid
        finally:
            imap.logout()
        self.inbox += new
        for message in new:
            for part in message.iter_attachments():
                if part.get_filename() == "state.json":
                    self.state = json.loads(part.get_content() if isinstance(part.get_content(), str) else part.get_payload(decode=True))
        return new

    def send(self, name: str, obj: dict[str, Any], as_body: bool = False) -> None:
        message = EmailMessage()
        message["From"] = self.address
        message["To"] = self.desk
        message["Subject"] = f"{self.seat}: {name}"
        message["Message-ID"] = f"<{self.seat}.{name}.{len(self.inbox)}.{self.seen}@players.test>"
        if as_body:
            message.set_content(pretty(obj).decode())
        else:
            message.set_content("my move is attached")
            message.add_attachment(pretty(obj), maintype="application", subtype="json", filename=name)
        with smtplib.SMTP(*self.smtp) as smtp:
            smtp.send_message(message)

    def join(self, manifest: Path) -> None:
        self.send(f"join-{self.seat}.json", make_join(manifest, self.seat, self.key))

    def play(self, choices: Rng) -> bool:
        """Move if the latest state file says it is this seat's turn; return whether it did."""
        state = self.state
        if state is None or state["status"] != "playing" or not state["legal"]:
            return False
        action = choices.choice(state["legal"])
        move = make_move(state, self.key, [action])
        # Every other move goes as the mail's text rather than as an attachment.
        self.send(f"{state['seq'] + 1:04d}-{self.seat}.json", move, as_body=state["seq"] % 2 == 0)
        self.state = None  # wait for the desk's answer before moving again
        return True
