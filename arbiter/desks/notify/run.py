"""One notify run: read every game, group what waits by channel, send, record.

``plan`` reads everything first — settings, addresses, records, public states — so a bad
``notices.toml`` stops the command before anything is sent or written (the CLI), or skips
only that game (the mail desk). ``deliver`` sends each digest on its own: a webhook that
fails is reported and the others go on; a digest delivered is recorded at once in every
game it names, so a run cut short repeats nothing that was delivered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError, NotReady
from arbiter.core.gamedir import GameDir
from arbiter.desks.notify import digest, sent, settings
from arbiter.desks.notify.settings import Channel
from arbiter.desks.notify.webhook import DeliveryFailed, post


@dataclass
class Digest:
    """One channel's digest: the games waiting for the seats that share the channel."""

    channel: Channel
    items: list[digest.Waiting] = field(default_factory=list)
    folders: dict[str, GameDir] = field(default_factory=dict)
    """Game id -> folder, where the delivery is recorded."""

    def names(self) -> list[str]:
        return sorted({f"{item.game}/{item.seat}" for item in self.items})


@dataclass
class Report:
    """What a run did, for the command's output and the desk's summary."""

    period: tuple[str, str]
    sent: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    """Digests not sent: the channel already had one this period."""
    failed: list[dict[str, Any]] = field(default_factory=list)
    no_mail: list[dict[str, Any]] = field(default_factory=list)
    """Digests by mail that a run without an SMTP config leaves out."""

    def to_json(self) -> dict[str, Any]:
        return {
            "period": {"start": self.period[0], "end": self.period[1]},
            "sent": self.sent,
            "skipped": self.skipped,
            "failed": self.failed,
            "no_mail": self.no_mail,
        }


MailSender = Callable[[str, dict[str, Any]], None]
"""Send the digest ``payload`` to an address; raise ``DeliveryFailed`` when it cannot."""


def games_in(root: Path) -> list[Path]:
    """The game folders right under ``root`` (a desk's games folder), by name."""
    if not root.is_dir():
        raise NotReady(f"{root} is not a folder: give the folder that holds the game folders")
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink() and (p / "game.json").is_file())


def plan(
    folders: list[Path],
    now: str,
    period: int,
    *,
    mail: bool,
    problem: Callable[[str, ArbiterError], None] | None = None,
) -> tuple[list[Digest], list[Digest]]:
    """Return the digests to send now and those already sent this period.

    ``mail``: whether this run can send mail. ``problem``: where a game that cannot be read
    is reported and skipped; ``None`` raises the game's error (nothing sent yet).
    """
    from arbiter.desks.mail import addresses

    start, _ = digest.period_of(now, period)
    last: dict[str, str] = {}
    digests: dict[str, Digest] = {}
    for folder in folders:
        gd = GameDir(folder)
        try:
            gd.require()
            if not gd.referee.is_dir():
                raise NotReady(f"{folder} has no referee/ folder: only the referee sends notices")
            game, seats, items = digest.waiting(gd, now)
            channels = settings.load(gd, seats, addresses.load(gd), mail)
            records = sent.load(gd)
        except ArbiterError as exc:
            if problem is None:
                raise
            problem(str(folder), exc)
            continue
        for key, record in records.items():
            last[key] = max(last.get(key, ""), record["time"])
        for item in items:
            for channel in channels.get(item.seat, []):
                entry = digests.setdefault(channel.key, Digest(channel))
                entry.items.append(item)
                entry.folders[game] = gd
    ordered = sorted(digests.values(), key=lambda d: (d.channel.kind, d.channel.preset, d.channel.target))
    due = [d for d in ordered if last.get(d.channel.key, "") < start]
    done = [d for d in ordered if last.get(d.channel.key, "") >= start]
    return due, done


def deliver(
    due: list[Digest],
    done: list[Digest],
    now: str,
    period: int,
    send_mail: MailSender | None,
) -> Report:
    """Send each digest of ``due``; record each delivery at once; report every failure."""
    start, end = digest.period_of(now, period)
    report = Report((start, end))
    for entry in done:
        report.skipped.append({"channel": entry.channel.label, "games": entry.names()})
    for entry in due:
        payload = digest.notice(entry.items, now, period)
        channel = entry.channel
        if channel.kind == "mail" and send_mail is None:
            report.no_mail.append({"channel": channel.label, "games": entry.names()})
            continue
        try:
            if channel.kind == "mail":
                assert send_mail is not None
                send_mail(channel.target, payload)
            else:
                url, body = digest.body(payload, channel.preset, channel.target)
                post(url, body)
        except DeliveryFailed as exc:
            report.failed.append({"channel": channel.label, "games": entry.names(), "reason": str(exc)})
            continue
        for game, gd in sorted(entry.folders.items()):
            seq = max(item.entry for item in entry.items if item.game == game)
            sent.record(gd, channel.key, now, start, seq)
        report.sent.append({"channel": channel.label, "games": entry.names()})
    return report


def mail_letter(sender: str, to: str, payload: dict[str, Any]) -> Any:
    """The digest as a mail; its Message-ID names the period and the recipient, so the
    same digest sent again after a crash carries the same id."""
    from arbiter.desks.mail import compose

    mid = compose.message_id(sender, "notice", payload["period"]["start"], to.lower())
    subject = payload["title"].removeprefix("arbiter: ")
    body = (
        f"{payload['title']}:\n\n{payload['text']}\n\n"
        "This digest lists only what the public game folders show. Ask the referee to change "
        "where your notices go, or to stop them.\n"
    )
    return compose.letter(sender, to, subject, body, mid)


class SmtpMailer:
    """Send digests through one SMTP connection (the mail desk's ``Outbox``): a
    ``MailSender`` for ``arbiter notify --config``."""

    def __init__(self, smtp: Any):
        from arbiter.desks.mail.transport import Outbox

        self.sender = smtp.sender
        self.outbox = Outbox(smtp)

    def __call__(self, to: str, payload: dict[str, Any]) -> None:
        from arbiter.desks.mail.transport import TransportError

        try:
            self.outbox.send(mail_letter(self.sender, to, payload), [to])
        except TransportError as exc:
            raise DeliveryFailed(exc.message) from None

    def close(self) -> None:
        self.outbox.close()
