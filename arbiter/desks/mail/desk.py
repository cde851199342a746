"""``arbiter mail run``: take mail oldest first, judge each file, answer, move the mail.

A loop around ``core.referee.submit``, nothing more. For each mail:

1. robots (auto-replies, bounces, lists) and the desk's own mail are moved to the
   rejected folder unanswered: no mail loops;
2. the signed files in it are routed by their ``game`` id to the game folders under
   ``[desk] games`` and judged in order, each exactly as ``arbiter submit`` does;
3. each file is answered: a receipt (entry, chain head, the referee's receipt file) or
   the one-line rejection; after an accepted file every seat with an address gets its own
   state file and log, observers the public ones;
4. the mail is moved to ``processed`` (something was accepted) or ``rejected``.

Exactly once across crashes: a file accepted before a crash comes back as a duplicate
(exit 9) that names its entry, and the entry's round of mail is completed from the record
in ``referee/mail/<entry>.json`` of ids already sent. Answers that belong to no entry
(rejections) are recorded in the desk's own ``.mail-desk/`` folder under the games root.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.canonical import parse_strict, pretty
from arbiter.core.errors import ArbiterError, Duplicate, NotReady
from arbiter.core.gamedir import GameDir, ensure_dir, write_point
from arbiter.core.referee import Accepted, submit
from arbiter.desks.mail import addresses, compose, extract
from arbiter.desks.mail.config import Config
from arbiter.desks.mail.transport import Mailbox, Outbox

SENT_FORMAT = "arbiter.mail-sent/1"


@dataclass
class Summary:
    """What one run did."""

    mails: int = 0
    files: int = 0
    accepted: int = 0
    rejected: int = 0
    sent: int = 0
    ignored: int = 0
    timeouts: int = 0
    reminders: int = 0
    bot_moves: int = 0


# Bot moves in one go for one game (a game of bots only ends long before this).
MAX_BOT_MOVES = 2000


@dataclass
class Outcome:
    """One file's fate, for the answer."""

    name: str
    game: str | None
    accepted: Accepted | None = None
    error: ArbiterError | None = None
    entry: int | None = None


@dataclass
class MailDesk:
    """The desk: a mailbox, an outbox and the games root."""

    config: Config
    mailbox: Mailbox | None = None
    outbox: Outbox | None = None
    summary: Summary = field(default_factory=Summary)
    stopping: bool = False
    games: dict[str, Path] = field(default_factory=dict)
    """Game id -> folder under the games root (``_folder``)."""
    now: Callable[[], datetime.datetime] = lambda: datetime.datetime.now(datetime.UTC)

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
                self.check_deadlines()
                self.play_bots()
                for uid in self.mailbox.waiting():
                    if self.stopping:
                        break
                    self.handle(uid)
                    self.play_bots()
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

    # -- one mail ------------------------------------------------------------------------
    def handle(self, uid: int) -> None:
        """Judge and answer one mail, then move it out of the mailbox."""
        assert self.mailbox is not None
        self.summary.mails += 1
        size = self.mailbox.size(uid)
        too_big = size > extract.MAX_MESSAGE
        raw = self.mailbox.fetch(uid, headers_only=too_big)
        letter = extract.read(raw)
        if too_big and letter.problem is None:
            letter.problem = (
                f"the mail is larger than {extract.MAX_MESSAGE // (1024 * 1024)} MiB: "
                "send only the move file"
            )
        key = letter.message_id or "sha256:" + hashlib.sha256(raw).hexdigest()
        own = letter.sender and letter.sender == self.config.smtp.address
        if letter.automatic or own or not letter.sender:
            self.summary.ignored += 1
            self.mailbox.move(uid, self.config.imap.rejected)
            return
        if letter.problem is None and not letter.files:
            letter.problem = (
                "this mail holds no arbiter file: nothing to judge. Attach the move file "
                "that `arbiter move` wrote (or paste it as the whole text of the mail)"
            )
        if letter.problem is None and not self._allowed(letter.sender, len(letter.files)):
            limit = self.config.desk.max_per_sender
            letter.problem = (
                f"more than {limit} files from {letter.sender} within an hour: "
                "wait a while, then send the move again"
            )
            if self._warned(letter.sender):
                self.summary.ignored += 1
                self.mailbox.move(uid, self.config.imap.rejected)
                return
        if letter.problem is not None:
            self._answer(key, letter, "problem", letter.problem, None)
            self.mailbox.move(uid, self.config.imap.rejected)
            return
        accepted = False
        for index, found in enumerate(letter.files):
            outcome = self._judge(found)
            self.summary.files += 1
            if outcome.accepted is not None or outcome.entry is not None:
                accepted = True
                fresh = outcome.accepted is not None
                self._round(key, letter, outcome, [key, index], fresh=fresh)
            else:
                self.summary.rejected += 1
                assert outcome.error is not None
                self._answer(key, letter, f"file{index}", _rejection(outcome), outcome.game)
        self.mailbox.move(uid, self.config.imap.processed if accepted else self.config.imap.rejected)

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
            outcome.accepted = submit(folder, found.data, found.name, now=self.stamp())
            self.summary.accepted += 1
        except Duplicate as exc:
            outcome.error, outcome.entry = exc, exc.entry
        except ArbiterError as exc:
            outcome.error = exc
        return outcome

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
        if mid in self._journal():
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
        self._journal_add(mid)

    def _round(
        self, key: str, letter: extract.Letter, outcome: Outcome, origin: list[Any], fresh: bool
    ) -> None:
        """Send everything an accepted entry calls for, skipping what was already sent.

        ``origin`` (the mail's key, the file's index in it) names the file whose round it is:
        the same file read again after a crash finishes the round and tells nobody it was a
        duplicate; another mail with it is told, once."""
        folder = self._folder(outcome.game or "")
        assert folder is not None
        gd = GameDir(folder)
        seq = outcome.accepted.seq if outcome.accepted is not None else outcome.entry
        assert seq is not None
        record = _Record(gd, seq)
        if record.origin is None and not record.done:
            record.origin = origin
        sender = self.config.smtp.sender
        state = json.loads(gd.public_state.read_bytes())
        chain = _chain_entry(gd, seq)
        game = state["game"]
        known = addresses.load(gd)
        thread = compose.game_thread(sender, game)
        seat = chain["seat"]
        # The receipt: to whoever sent the file, and to the seat's own address.
        receivers = [letter.sender]
        if known.get(seat) and known[seat].lower() != letter.sender:
            receivers.append(known[seat])
        receipt = gd.receipt(seq)
        summary = chain["summary"]
        for to in receivers:
            mid = compose.message_id(sender, game, seq, "receipt", to.lower())
            if record.has(mid):
                continue
            body = (
                f"{outcome.name} was accepted as entry #{seq} of game {game} "
                f"({chain['kind']} by {seat}).\nChain head: {chain['hash']}\n\n"
                + "\n".join(f"  {line}" for line in summary)
                + "\n\nKeep the attached receipt: `arbiter verify GAME --receipt FILE` "
                "proves the referee accepted this file.\n"
            )
            files = []
            if receipt.is_file():
                files.append(
                    compose.attach(receipt, f"receipt-{game}-{seq}.json", "application/json")
                )
            # The sender's copy answers their mail; the seat's copy starts from the game.
            reply = to == letter.sender and bool(letter.message_id)
            mail = compose.letter(
                sender,
                to,
                f"{game}: accepted as entry #{seq}",
                body,
                mid,
                in_reply_to=letter.message_id if reply else None,
                references=[thread, letter.message_id] if reply else [thread],
                attachments=files,
            )
            self._send(mail, [to])
            record.add(mid)
        again = record.origin == origin  # this very file, read again after a crash
        if not fresh and outcome.accepted is None and record.has_round() and not again:
            # A duplicate from a mail already answered: tell the sender, once.
            self._answer(key, letter, "duplicate", _rejection(outcome), game)
        # Every seat with an address: its own files, the new public lines.
        if state["seq"] != seq:
            record.close_round()  # a later entry's round supersedes this one's state mail
            return
        self._send_states(gd, record, seq, summary)

    def _send_states(self, gd: GameDir, record: _Record, seq: int, summary: list[str]) -> None:
        """Send each seat with an address its files at entry ``seq``, and the observers
        the public ones; then close the entry's round."""
        sender = self.config.smtp.sender
        state = json.loads(gd.public_state.read_bytes())
        game = state["game"]
        known = addresses.load(gd)
        thread = compose.game_thread(sender, game)
        over = state["status"] == "over"
        result = _result_section(gd.public_log) if over else ""
        waiting = ", ".join(state["waiting_for"]) or "nobody"
        for seat_name in state["seats"]:
            address = known.get(seat_name)
            if not address:
                continue
            mid = compose.message_id(sender, game, seq, "state", seat_name, address.lower())
            if record.has(mid):
                continue
            body = (
                f"Game {game}, entry #{seq}:\n"
                + "\n".join(f"  {line}" for line in summary)
                + (f"\n\n{result}\n" if result else f"\n\nWaiting for {waiting}.\n")
                + ("" if over else "\n" + compose.usage(self.config.smtp.address) + "\n")
            )
            files = [
                compose.attach(gd.seat_state(seat_name), "state.json", "application/json"),
                compose.attach(gd.seat_log(seat_name), "log.md", "text/markdown"),
            ]
            title = f"{game}: {'game over' if over else f'entry #{seq}'} — your files ({seat_name})"
            mail = compose.letter(
                sender, address, title, body, mid, references=[thread], attachments=files
            )
            self._send(mail, [address])
            record.add(mid)
        for to in self.config.desk.observers:
            mid = compose.message_id(sender, game, seq, "observer", to.lower())
            if record.has(mid):
                continue
            body = (
                f"Game {game}, entry #{seq}:\n" + "\n".join(f"  {line}" for line in summary)
                + (f"\n\n{result}\n" if result else "\n")
            )
            files = [
                compose.attach(gd.public_state, "state.json", "application/json"),
                compose.attach(gd.public_log, "log.md", "text/markdown"),
            ]
            mail = compose.letter(
                sender, to, f"{game}: entry #{seq} (public)", body, mid,
                references=[thread], attachments=files,
            )
            self._send(mail, [to])
            record.add(mid)
        record.close_round()

    # -- deadlines -------------------------------------------------------------------------
    def stamp(self) -> str:
        """The desk's clock as the referee records it (UTC, to the second)."""
        return self.now().astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def check_deadlines(self) -> None:
        """For each game with deadlines: apply the timeout policy once the waiting seat's
        grace has run out (and send everyone the new entry), else remind that seat once at
        half time and once when its grace starts (docs/tournaments.md)."""
        from arbiter.core.deadlines import terms_of
        from arbiter.core.referee import timeout

        stamp = self.stamp()
        for game, folder in sorted(self._index().items()):
            gd = GameDir(folder)
            try:
                manifest = json.loads(gd.manifest.read_bytes())
                terms = terms_of(manifest)
            except (ValueError, OSError, KeyError, TypeError, AttributeError):
                continue
            if terms is None or gd.reveal_record.is_file() or not gd.referee.is_dir():
                continue
            try:
                waiting = timeout(folder, stamp)
            except ArbiterError:
                continue  # not started, or over: no clock runs
            done = waiting.timed_out
            if done is not None:
                self.summary.timeouts += 1
                self._send_states(gd, _Record(gd, done.seq), done.seq, done.summary)
                continue
            state = json.loads(gd.public_state.read_bytes())
            for label, when in (("half", terms.half(waiting.since)), ("grace", waiting.due)):
                if stamp >= when:
                    self._remind(gd, game, state["seq"], waiting, label)

    def play_bots(self) -> None:
        """Let the bot seats of every game move while the game waits for one of them: each
        decides from its own state file, signs with its seat's key, and the entry's round
        goes out like a player's (docs/bots.md)."""
        from arbiter.bots.levels import bot_rng, decide
        from arbiter.core.canonical import pretty as pretty_json
        from arbiter.core.player import load_state, make_move
        from arbiter.core.registry import get
        from arbiter.desks.mail import bots

        for _game, folder in sorted(self._index().items()):
            gd = GameDir(folder)
            if not gd.referee.is_dir() or gd.reveal_record.is_file():
                continue
            try:
                seats = bots.load(gd)
            except ArbiterError:
                continue
            for _ in range(MAX_BOT_MOVES if seats else 0):
                public = load_state(gd.public_state)
                prompt = public["prompt"]
                if public["status"] != "playing" or prompt is None or prompt["seat"] not in seats:
                    break
                bot = seats[prompt["seat"]]
                state = load_state(gd.seat_state(prompt["seat"]))
                engine = get(state["engine"]["name"])
                actions = decide(engine, state, bot.level, bot_rng(bot.seed, state))
                move = make_move(state, bot.key, actions)
                try:
                    done = submit(folder, pretty_json(move), f"bot-{prompt['seat']}.json", now=self.stamp())
                except ArbiterError:
                    break  # a bot's file refused: leave the seat to the clock and the referee
                self.summary.bot_moves += 1
                self._send_states(gd, _Record(gd, done.seq), done.seq, done.summary)

    def _remind(self, gd: GameDir, game: str, seq: int, waiting: Any, label: str) -> None:
        """Send the waiting seat one reminder of ``label`` for the head ``seq``."""
        address = addresses.load(gd).get(waiting.seat)
        if not address:
            return
        sender = self.config.smtp.sender
        mid = compose.message_id(sender, game, seq, f"reminder-{label}", address.lower())
        if mid in self._journal():
            return
        grace = f", then a grace period until {waiting.final}" if waiting.final != waiting.due else ""
        lead = "Half your time is gone" if label == "half" else "Your time is up; the grace period runs"
        body = (
            f"{lead}: game {game} waits for your decision ({waiting.seat}) since entry #{seq}.\n"
            f"Deadline: {waiting.due}{grace}. After that the referee applies the game's "
            f"timeout policy: {waiting.policy}.\n\n"
            + compose.usage(self.config.smtp.address) + "\n"
        )
        mail = compose.letter(
            sender, address, f"{game}: reminder — your decision is due {waiting.due}", body, mid,
            references=[compose.game_thread(sender, game)],
        )
        self._send(mail, [address])
        self._journal_add(mid)
        self.summary.reminders += 1

    def announce_reveals(self) -> None:
        """Tell every seat and observer once that a game was revealed (`arbiter reveal`)."""
        root = self.config.desk.games
        if not root.is_dir():
            raise NotReady(f"desk.games {root} is not a folder: create it or fix the config")
        sender = self.config.smtp.sender
        for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink()):
            gd = GameDir(folder)
            if not gd.reveal_record.is_file() or not gd.referee.is_dir():
                continue
            record = _Record(gd, "reveal")
            if record.done:
                continue
            reveal = json.loads(gd.reveal_record.read_bytes())
            game = reveal["game"]
            forced = " before the end (forced)" if reveal["forced"] else ""
            body = (
                f"The referee revealed game {game}{forced}: the secret and every signed file are "
                "published under reveal/.\nAnyone can now replay the whole game and check every "
                "byte: `arbiter verify GAME`.\n"
            )
            result = _result_section(gd.public_log)
            body += f"\n{result}\n" if result else ""
            for to in [*addresses.load(gd).values(), *self.config.desk.observers]:
                mid = compose.message_id(sender, game, "reveal", to.lower())
                if record.has(mid):
                    continue
                mail = compose.letter(
                    sender, to, f"{game}: revealed", body, mid,
                    references=[compose.game_thread(sender, game)],
                    attachments=[compose.attach(gd.reveal_record, "reveal.json", "application/json")],
                )
                self._send(mail, [to])
                record.add(mid)
            record.close_round()

    def _send(self, mail: Any, recipients: list[str]) -> None:
        assert self.outbox is not None
        self.outbox.send(mail, recipients)
        self.summary.sent += 1

    # -- the desk's own records ----------------------------------------------------------
    @property
    def _state_dir(self) -> Path:
        return self.config.desk.games / ".mail-desk"

    def _journal(self) -> set[str]:
        path = self._state_dir / "answered.txt"
        try:
            return set(path.read_text(encoding="ascii").split())
        except FileNotFoundError:
            return set()

    def _journal_add(self, mid: str) -> None:
        path = self._state_dir / "answered.txt"
        write_point()  # the answer is sent, not recorded yet
        ensure_dir(self._state_dir, 0o700)
        with open(path, "a", encoding="ascii") as handle:
            handle.write(mid + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        write_point()  # recorded, the mail not moved yet

    def _allowed(self, sender: str, files: int) -> bool:
        """Count ``files`` for ``sender``; return whether they stay within the hourly limit."""
        path = self._state_dir / "senders.json"
        try:
            counts = json.loads(path.read_bytes())
        except (FileNotFoundError, ValueError):
            counts = {}
        now = self.now()
        hour = (now - datetime.timedelta(hours=1)).isoformat()
        recent = [t for t in counts.get(sender, []) if isinstance(t, str) and t > hour]
        allowed = len(recent) + files <= self.config.desk.max_per_sender
        if allowed:
            recent += [now.isoformat()] * files
        counts = {s: [t for t in ts if t > hour] for s, ts in counts.items() if isinstance(ts, list)}
        counts[sender] = recent
        ensure_dir(self._state_dir, 0o700)
        from arbiter.core.gamedir import atomic_write

        _remove_strays(path)
        atomic_write(path, json.dumps(counts, sort_keys=True).encode(), mode=0o600)
        return allowed

    def _warned(self, sender: str) -> bool:
        """Return whether ``sender`` was already told of the limit this hour (then tell once)."""
        path = self._state_dir / "warned.json"
        try:
            warned = json.loads(path.read_bytes())
        except (FileNotFoundError, ValueError):
            warned = {}
        hour = (self.now() - datetime.timedelta(hours=1)).isoformat()
        if isinstance(warned.get(sender), str) and warned[sender] > hour:
            return True
        warned[sender] = self.now().isoformat()
        from arbiter.core.gamedir import atomic_write

        _remove_strays(path)
        atomic_write(path, json.dumps(warned, sort_keys=True).encode(), mode=0o600)
        return False


class _Record:
    """What was sent for one chain entry: ``referee/mail/<entry>.json``."""

    def __init__(self, gd: GameDir, seq: int | str):
        self.gd = gd
        self.path = gd.referee / "mail" / f"{seq}.json"
        self.seq = seq
        _remove_strays(self.path)
        self.origin: list[Any] | None = None
        try:
            data = parse_strict(self.path.read_bytes(), str(self.path))
            self.sent: list[str] = list(data.get("sent", []))
            self.done: bool = bool(data.get("done"))
            self.origin = data.get("origin")
        except (FileNotFoundError, ArbiterError, AttributeError):
            self.sent, self.done = [], False
        self.had_round = self.done

    def has(self, mid: str) -> bool:
        return mid in self.sent

    def has_round(self) -> bool:
        """Whether this entry's round was complete before this mail was handled."""
        return self.had_round

    def add(self, mid: str) -> None:
        self.sent.append(mid)
        self._save()

    def close_round(self) -> None:
        if not self.done:
            self.done = True
            self._save()

    def _save(self) -> None:
        record = {"format": SENT_FORMAT, "entry": self.seq, "sent": self.sent, "done": self.done}
        if self.origin is not None:
            record["origin"] = self.origin
        self.gd.write(self.path, pretty(record))


def _remove_strays(path: Path) -> None:
    """Delete the temporary files a write of ``path`` killed half-way left behind."""
    for stray in path.parent.glob(f".{path.name}.*.tmp"):
        stray.unlink(missing_ok=True)


def _chain_entry(gd: GameDir, seq: int) -> dict[str, Any]:
    with open(gd.chain, "rb") as handle:
        for index, line in enumerate(handle):
            if index == seq:
                return dict(json.loads(line))
    raise NotReady(f"chain entry #{seq} is missing from {gd.chain}")


def _result_section(log: Path) -> str:
    text = log.read_text(encoding="utf-8")
    start = text.find("## Result")
    if start < 0:
        return ""
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None].strip()


def _rejection(outcome: Outcome) -> str:
    error = outcome.error
    assert error is not None
    message = " ".join(error.message.split())
    return (
        f"{outcome.name} was not accepted: {message}\n"
        f"(exit {error.exit_code}, {error.code}; see the exit codes in arbiter's README)"
    )
