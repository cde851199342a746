"""``arbiter mail run``: take mail oldest first, judge each file, answer, move the mail.

A loop around ``core.referee.submit``, nothing more. For each mail:

1. a mail that cannot be read within the reader's bounds (``mime``: size, header sizes,
   depth, parts, boundaries, charsets, time) goes to the quarantine folder, with one plain
   answer when its sender is plausible and it is not an automatic mail;
2. robots (auto-replies, bounces, lists) and the desk's own mail are moved to the
   rejected folder unanswered: no mail loops;
3. the signed files in it are routed by their ``game`` id to the game folders under
   ``[desk] games`` and judged in order, each exactly as ``arbiter submit`` does;
4. each file is answered: a receipt (entry, chain head, the referee's receipt file) or
   the one-line rejection; after an accepted file every seat with an address gets its own
   state file and log, observers the public ones (``rounds``);
5. the mail is moved to ``processed`` (something was accepted) or ``rejected``.

One mail never stops the desk: any failure while one mail is handled, other than the
servers' own, puts that mail in quarantine and the desk goes on with the next; a round
of mail cut short is finished from its record (``Rounds.finish_rounds``).

Exactly once across crashes: a file accepted before a crash comes back as a duplicate
(exit 9) that names its entry, and the entry's round of mail is completed from the record
in ``referee/mail/<entry>.json`` of ids already sent. Answers that belong to no entry
(rejections, quarantine notices) are recorded in the desk's own ``.mail-desk/`` folder
under the games root (``records``).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError, Duplicate, NotReady
from arbiter.core.gamedir import GameDir, deferred_sync
from arbiter.core.referee import Accepted, submit_deferred
from arbiter.desks.durable import sync_filesystem
from arbiter.desks.mail import compose, extract
from arbiter.desks.mail.chores import Chores
from arbiter.desks.mail.config import Config
from arbiter.desks.mail.records import Journal, Record
from arbiter.desks.mail.rounds import infrastructure, report
from arbiter.desks.mail.transport import Mailbox, Outbox, TransportError

READ_SECONDS = 10.0
"""Time to read one mail; the reader's size bounds keep real mail far below it."""
BATCH = 50
"""Mails fetched in one IMAP command."""
BATCH_BYTES = 32 * 1024 * 1024
"""At most this much mail fetched at once (a mail may be ``extract.MAX_MESSAGE``)."""


@dataclass
class Summary:
    """What one run did."""

    mails: int = 0
    files: int = 0
    accepted: int = 0
    rejected: int = 0
    sent: int = 0
    ignored: int = 0
    quarantined: int = 0
    timeouts: int = 0
    reminders: int = 0
    bot_moves: int = 0
    notices: int = 0
    """Turn-notice digests delivered (``[notices]``), by mail or webhook."""


@dataclass
class Outcome:
    """One file's fate, for the answer."""

    name: str
    game: str | None
    accepted: Accepted | None = None
    error: ArbiterError | None = None
    entry: int | None = None


@dataclass
class Mail:
    """The mail being handled, as far as it got (for the quarantine if it fails)."""

    uid: int
    raw: bytes = b""
    letter: extract.Letter | None = None
    key: str = ""
    entry: int | None = None
    """The chain entry of the file being handled, once it has one (its round is then
    the answer, finished from its record whatever happens to the mail)."""


@dataclass
class MailDesk(Chores):
    """The desk: a mailbox, an outbox and the games root."""

    config: Config
    mailbox: Mailbox | None = None
    outbox: Outbox | None = None
    summary: Summary = field(default_factory=Summary)
    stopping: bool = False
    games: dict[str, Path] = field(default_factory=dict)
    """Game id -> folder under the games root (``_folder``)."""
    now: Callable[[], datetime.datetime] = lambda: datetime.datetime.now(datetime.UTC)
    report: Callable[[str], None] = report
    """Where the referee is told of a quarantined mail or a failure (stderr)."""
    closed: dict[Path, set[int]] = field(default_factory=dict)
    heads: dict[Path, int] = field(default_factory=dict)
    fetched: dict[int, tuple[int, bytes]] = field(default_factory=dict)
    """The batch's mails fetched ahead: UID -> (size, bytes)."""
    written: bool = False
    """Whether the desk wrote since its last sync (``_durable``)."""
    moved: set[Path] = field(default_factory=set)
    """The games whose chain the mail at hand extended (their bot seats may be next)."""

    @property
    def journal(self) -> Journal:  # type: ignore[override]
        return Journal(self.config.desk.games)

    # -- the loop ------------------------------------------------------------------------
    def run(self, once: bool = False) -> Summary:
        """Handle every waiting mail; without ``once`` keep waiting for more (IDLE or poll)
        until SIGTERM or SIGINT, which let the current mail finish first."""
        # Signals reach only the main thread; a desk run in another thread is stopped by
        # setting ``stopping``.
        main = threading.current_thread() is threading.main_thread()
        signals = (signal.SIGTERM, signal.SIGINT) if main else ()
        previous = {sig: signal.signal(sig, self._stop) for sig in signals}
        try:
            self.mailbox = self.mailbox or Mailbox(self.config.imap)
            self.outbox = self.outbox or Outbox(self.config.smtp)
            while True:
                self.announce_reveals()
                self.finish_rounds()
                self.deal_groups()
                self.check_deadlines()
                self.play_bots()
                self.send_notices()
                self._clear(self.mailbox.waiting())
                if once or self.stopping:
                    break
                self.mailbox.idle(self.config.desk.poll_seconds, lambda: self.stopping)
                if self.stopping:
                    break
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            if self.mailbox is not None:
                self.mailbox.close()
            if self.outbox is not None:
                self.outbox.close()
        return self.summary

    def _stop(self, signum: int, frame: Any) -> None:
        self.stopping = True

    def stamp(self) -> str:
        """The desk's clock as the referee records it (UTC, to the second)."""
        return self.now().astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def _hour(self) -> tuple[str, str]:
        """Now and an hour ago, as the flood guard compares them."""
        now = self.now()
        return now.isoformat(), (now - datetime.timedelta(hours=1)).isoformat()

    # -- a batch of mail -----------------------------------------------------------------
    def _clear(self, uids: list[int]) -> None:
        """Handle ``uids`` oldest first, fetched a batch at a time (one IMAP command)."""
        assert self.mailbox is not None
        for start in range(0, len(uids), BATCH):
            if self.stopping:
                break
            batch = uids[start : start + BATCH]
            self._prefetch(batch)
            try:
                for uid in batch:
                    if self.stopping:
                        break
                    self.handle(uid)
                    if self.moved:
                        self.play_bots(self.moved)
                        self.moved = set()
            finally:
                self.fetched.clear()
                if self.written:
                    self._durable()  # the last records of the batch

    def _prefetch(self, uids: list[int]) -> None:
        """Fetch the batch's mails that the reader will read whole, within ``BATCH_BYTES``
        (a larger mail, or one left out, is fetched when its turn comes)."""
        assert self.mailbox is not None
        sizes = self.mailbox.sizes(uids)
        wanted, total = [], 0
        for uid in uids:
            size = sizes.get(uid)
            if size is None or size > extract.MAX_MESSAGE or total + size > BATCH_BYTES:
                continue
            wanted.append(uid)
            total += size
        for uid, raw in self.mailbox.fetch_many(wanted).items():
            self.fetched[uid] = (sizes[uid], raw)

    def _put(self, uid: int, folder: str) -> None:
        """Move a handled mail out of the mailbox, into ``folder``.

        Its answers' records may not be durable yet (the next sync makes them so): a
        machine that loses power meanwhile sends those answers again, with the same
        Message-IDs (``desks/durable.py``); a killed desk loses nothing.
        """
        assert self.mailbox is not None
        self.mailbox.move(uid, folder)

    def _durable(self) -> None:
        """Make what the desk wrote durable (``durable``: one syncfs for many files)."""
        sync_filesystem(self.config.desk.games)
        self.written = False

    # -- one mail ------------------------------------------------------------------------
    def handle(self, uid: int) -> None:
        """Judge and answer one mail, then move it out of the mailbox; never raise for
        what the mail holds (only the servers' failures stop the desk)."""
        self.summary.mails += 1
        self.written = True
        mail = Mail(uid)
        try:
            with deferred_sync():  # made durable where owed: ``_durable``
                self._handle(mail)
        except TransportError:
            raise  # the server, not the mail: the mail waits for the next run
        except Exception as exc:  # whatever the mail did, it alone pays
            if infrastructure(exc):
                raise
            self.report(f"mail {uid}: {type(exc).__name__}: {exc}")
            with deferred_sync():
                self._quarantine(mail, "the desk failed while handling it; the referee has been told")

    def _handle(self, mail: Mail) -> None:
        assert self.mailbox is not None
        if mail.uid in self.fetched:
            size, mail.raw = self.fetched.pop(mail.uid)
        else:
            size = self.mailbox.size(mail.uid)
            too_big = size > extract.MAX_MESSAGE
            mail.raw = self.mailbox.fetch(mail.uid, limit=extract.HEAD if too_big else None)
        mail.key = "sha256:" + hashlib.sha256(mail.raw).hexdigest()
        deadline = self.now() + datetime.timedelta(seconds=READ_SECONDS)
        mail.letter = letter = extract.read(mail.raw, size=size, expired=lambda: self.now() > deadline)
        mail.key = letter.message_id or mail.key
        if letter.unreadable is not None:
            self._quarantine(mail, letter.unreadable)
            return
        own = letter.sender and letter.sender == self.config.smtp.address
        if letter.automatic or own or not letter.sender:
            self.summary.ignored += 1
            self._put(mail.uid, self.config.imap.rejected)
            return
        if letter.problem is None and not letter.files:
            letter.problem = (
                "this mail holds no arbiter file: nothing to judge. Attach the move file "
                "that `arbiter move` wrote (or paste it as the whole text of the mail)"
            )
        if letter.problem is None and not self.journal.allowed(
            letter.sender, mail.key, len(letter.files), self.config.desk.max_per_sender, *self._hour()
        ):
            limit = self.config.desk.max_per_sender
            letter.problem = (
                f"more than {limit} files from {letter.sender} within an hour: "
                "wait a while, then send the move again"
            )
            if self.journal.warned(letter.sender, *self._hour()):
                self.summary.ignored += 1
                self._put(mail.uid, self.config.imap.rejected)
                return
        if letter.problem is not None:
            self._answer(mail.key, letter, "problem", letter.problem, None)
            self._put(mail.uid, self.config.imap.rejected)
            return
        accepted = failed = False
        for index, found in enumerate(letter.files):
            mail.entry = None
            try:
                accepted |= self._file(mail, index, found)
            except TransportError:
                raise
            except Exception as exc:  # one file's failure: the next file goes on
                if infrastructure(exc):
                    raise
                failed = True
                self.report(f"mail {mail.uid}, {found.name}: {type(exc).__name__}: {exc}")
                if mail.entry is None:  # not in the chain: say so, without the details
                    text = (
                        f"{found.name} was not judged: the desk failed while judging it and "
                        "the referee has been told. It was not accepted; send it again later."
                    )
                    self._answer(mail.key, letter, f"file{index}", text, found.game)
        if failed:
            self.summary.quarantined += 1
            self._put(mail.uid, self.config.imap.quarantine)
            return
        self._put(mail.uid, self.config.imap.processed if accepted else self.config.imap.rejected)

    def _file(self, mail: Mail, index: int, found: extract.Found) -> bool:
        """Judge one file and answer it; return whether it is in the chain."""
        assert mail.letter is not None
        letter = mail.letter
        outcome = self._judge(found)
        self.summary.files += 1
        seq = outcome.accepted.seq if outcome.accepted is not None else outcome.entry
        if seq is None:
            self.summary.rejected += 1
            self._answer(mail.key, letter, f"file{index}", _rejection(outcome), outcome.game)
            return False
        mail.entry = seq
        folder = self._folder(outcome.game or "")
        assert folder is not None
        self.moved.add(folder)
        gd = GameDir(folder)
        record = Record(gd, seq)
        origin = [mail.key, index]
        reply = {"to": letter.sender, "name": found.name, "in_reply_to": letter.message_id or None}
        fresh = outcome.accepted is not None or not record.exists
        if fresh:
            # Fresh, or accepted just before a crash that came before its record: this
            # mail's round. The record is written before any mail goes out.
            record.open(origin, reply)
        self._durable()  # the entry and its record, before any mail speaks of them
        if fresh:
            self.finish_round(gd, record)
        elif record.origin == origin:
            self.finish_round(gd, record)  # this very file, read again after a crash
        else:
            self.finish_round(gd, record, copy=reply)  # a copy: the same receipt, once
        return True

    def _judge(self, found: extract.Found) -> Outcome:
        outcome = Outcome(found.name, found.game)
        folder = self._folder(found.game) if found.game else None
        if folder is None:
            shown = (found.game or "")[:60]
            outcome.error = NotReady(
                f"{found.name}: no game {shown!r} is refereed here: check the game id"
                if shown
                else f"{found.name}: the file names no game: send the file `arbiter move` wrote"
            )
            return outcome
        try:
            outcome.accepted = submit_deferred(folder, found.data, found.name, self.stamp(), self._durable)
            self.summary.accepted += 1
        except Duplicate as exc:
            outcome.error, outcome.entry = exc, exc.entry
        except ArbiterError as exc:
            outcome.error = exc
        return outcome

    def _quarantine(self, mail: Mail, reason: str) -> None:
        """Move a mail that cannot be read (or whose handling failed) to the quarantine
        folder, answering its sender once when it may be answered.

        The answer speaks of the mail only (its structure, its size), never of a game:
        the mail could not be read, so nothing in it was judged. A mail that already
        gave a file a chain entry gets no such answer: that entry's receipt is its answer.
        """
        assert self.mailbox is not None
        letter = mail.letter
        if letter is None:
            letter = self._envelope(mail)
        own = letter is not None and letter.sender == self.config.smtp.address
        self.report(f"mail {mail.uid} quarantined: {reason}")
        if letter is not None and letter.answerable and not own and mail.entry is None:
            key = mail.key or "sha256:" + hashlib.sha256(mail.raw).hexdigest()
            text = (
                f"Your mail could not be read, so nothing in it was judged: {reason}.\n"
                "It is kept aside for the referee. To play, send the move file that "
                "`arbiter move` wrote as the only attachment of a plain mail (or paste it as "
                "the whole text of the mail)."
            )
            self.guarded(f"mail {mail.uid}, quarantine notice", self._notice, key, letter, text)
        self.summary.quarantined += 1
        self._put(mail.uid, self.config.imap.quarantine)

    def _envelope(self, mail: Mail) -> extract.Letter | None:
        try:
            return extract.envelope(mail.raw)
        except Exception:  # then nobody is answered
            return None

    def _notice(self, key: str, letter: extract.Letter, text: str) -> None:
        now, hour = self._hour()
        # A flood of unreadable mail (perhaps with a forged sender) gets no flood of answers.
        if self.journal.allowed(letter.sender, key, 1, self.config.desk.max_per_sender, now, hour):
            self._answer(key, letter, "quarantine", text, None)

    def _folder(self, game: str) -> Path | None:
        """Return the folder under the games root whose game.json names ``game``.

        The games are indexed once per run, and again when an id is not found (a game
        created while the desk runs).
        """
        if game not in self.games:
            self.games = self._index()
        return self.games.get(game)

    def _index(self) -> dict[str, Path]:
        root = self.config.desk.games
        found: dict[str, Path] = {}
        for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink()):
            try:
                game = json.loads((folder / "game.json").read_bytes()).get("game")
            except (ValueError, OSError, AttributeError):
                continue
            if isinstance(game, str):
                found.setdefault(game, folder)
        return found

    # -- answers -------------------------------------------------------------------------
    def _answer(
        self, key: str, letter: extract.Letter, purpose: str, text: str, game: str | None
    ) -> None:
        """Send one answer to the mail's sender, once (recorded in the desk's journal)."""
        sender = self.config.smtp.sender
        mid = compose.message_id(sender, game or "desk", key, purpose, letter.sender)
        if mid in self.journal.answered():
            return
        subject = f"Re: {letter.subject}" if letter.subject else "your mail"
        mail = compose.letter(
            sender,
            letter.sender,
            subject.removeprefix(f"{compose.SUBJECT} "),
            text + "\n",
            mid,
            in_reply_to=letter.message_id or None,
            references=[*letter.references, letter.message_id] if letter.message_id else None,
        )
        self._send(mail, [letter.sender])
        self.journal.add(mid)


def _rejection(outcome: Outcome) -> str:
    error = outcome.error
    assert error is not None
    message = " ".join(error.message.split())
    return (
        f"{outcome.name} was not accepted: {message}\n"
        f"(exit {error.exit_code}, {error.code}; see the exit codes in arbiter's README)"
    )
