"""A peer game by mail (docs/peer.md §6, ``--via mail``): each player keeps its own copy of
the folder, and mail carries the files between the copies.

Sending: each new file (game.json at ``new``, then each message and each reveal) goes as
one attachment of one mail, subject ``[arbiter-peer GAME] <file name>``, to every other
seat's address in game.json (game.json to every seat's), through the player's own SMTP
server: the player desk's client and settings (``load_player_config``). The mail goes
first, to every address or to none, and the file enters the copy only once the server
took it: a refused send leaves the copy as it was, and the seat still owes the file. Until
both are done the file waits in the seat's private outbox, so that a machine stopped in
between sends that very file again, never a second, different one.

Reading, before every command: the player's own mailbox, read-only (EXAMINE and
BODY.PEEK: nothing is moved, flagged or deleted), from the last mail read on (UIDVALIDITY
and the last UID, kept beside the seat's secret). An attachment is taken into the copy by
its name, which must be exactly ``game.json``, ``messages/NNNNNN-SEAT.json`` or
``reveals/SEAT.json``: game.json only while the copy has none; a message or a reveal only
when it is the file its name says and its seat's signature holds. The protocol's own
checks then run as the folder is read. Anything else is refused with a warning and
changes nothing (a stranger's mail costs the game nothing). A file in the copy is never
replaced: a second, different file of one name that its seat signed is that seat's
equivocation, and the read stops with the file and the mail's sender named.
"""

from __future__ import annotations

import contextlib
import hashlib
import imaplib
import json
import re
import smtplib
from collections.abc import Iterator
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import Message
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import compat32
from email.utils import formatdate
from pathlib import Path
from typing import Any, NoReturn

from arbiter.core import schemas, signing
from arbiter.core.canonical import digest, parse_strict
from arbiter.core.errors import ArbiterError, NotReady, Tampered, UsageError
from arbiter.core.gamedir import PRIVATE_DIR, PRIVATE_FILE, atomic_write, ensure_dir
from arbiter.core.safeio import read_input, shown, visible
from arbiter.desks.mail import mime
from arbiter.desks.mail.config import Imap
from arbiter.peer import folder as files
from arbiter.play.transports.mail import (
    _BATCH,
    _UID,
    PlayerOutbox,
    _filename,
    _search_after,
    _sender,
    _short,
    _uid_set,
    load_player_config,
    read_only,
)

CACHE_FORMAT = "arbiter.peer-mail/1"
MAX_FILE = 1024 * 1024
"""An attachment's bound (``parse_strict``'s): a message is a few KiB, a shuffle of 54
cards 9 KiB."""
MAX_MAIL = 2 * MAX_FILE
"""A larger mail is not downloaded: one file, base64, and a few lines of text fit."""
_BODIES = 16  # whole mails per FETCH: bounds what one answer holds to 16 × MAX_MAIL
_NOTES = 12  # warnings shown per read; a flood of junk mail is counted, not listed
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
_MESSAGE = re.compile(r"messages/([0-9]{6})-([a-z][a-z0-9_-]{0,31})\.json", re.ASCII)
_REVEAL = re.compile(r"reveals/([a-z][a-z0-9_-]{0,31})\.json", re.ASCII)
_TIMEOUT = re.compile(
    r"timeouts/([0-9]{6})-([a-z][a-z0-9_-]{0,31})\.([a-z][a-z0-9_-]{0,31})\.json", re.ASCII
)
_POLICY = compat32.clone(max_line_length=998)  # headers never folded, as the desk's
_OTHER = "an earlier game with the same id? give each game by mail an id of its own"


def tag(game: str) -> str:
    return f"[arbiter-peer {game}]"


# -- game.json's addresses ---------------------------------------------------------------


def addresses(pairs: list[str], seats: list[str], every: bool) -> dict[str, str]:
    """``--address NAME=EMAIL`` checked: each NAME a seat, given once, one plain address;
    ``every``: a game by mail, which needs every seat's."""
    found: dict[str, str] = {}
    for text in pairs:
        name, sep, value = text.partition("=")
        if not sep or not name or not value:
            raise UsageError(f"--address {text!r}: write it as NAME=EMAIL")
        if name not in seats:
            raise UsageError(f"--address {name}: no --seat is named {name!r}: name a seat")
        if name in found:
            raise UsageError(f"--address {name} is given twice: give each seat one address")
        found[name] = _address(name, value)
    missing = [s for s in seats if s not in found]
    if every and missing:
        raise UsageError(
            f"--via mail needs every seat's address: add --address {missing[0]}=EMAIL"
            + (f" (and for {', '.join(missing[1:])})" if missing[1:] else "")
        )
    return found


def _address(name: str, value: str) -> str:
    from arbiter.desks.mail.addresses import normalise

    bare = normalise(value) if value.isascii() else ""
    if not re.fullmatch(r"[^@\s<>]+@[^@\s<>]+", bare) or len(bare) > 254:
        raise UsageError(
            f"--address {name}={value[:60]!r} is not one plain mail address: "
            f"write e.g. {name}=alice@example.org"
        )
    return bare


def recipients(terms: dict[str, Any], sender: str | None) -> list[str]:
    """Every seat's address but ``sender``'s (None: every seat's), each once, and the
    notary's when it has one (it runs the deadlines); a seat without one is a one-line
    ``UsageError``."""
    others = [s for s in terms["seats"] if s["seat"] != sender]
    missing = [s["seat"] for s in others if not s.get("address")]
    if missing:
        raise UsageError(
            f"game.json gives no address for {', '.join(missing)}: a game by mail needs every "
            "seat's (arbiter peer new --address NAME=EMAIL), else play it --via folder or git"
        )
    notary = (terms.get("notary") or {}).get("address")
    extra = [notary] if notary and sender != "notary" else []
    return list(dict.fromkeys([*(s["address"] for s in others), *extra]))


# -- the names a copy takes --------------------------------------------------------------


def author(name: str) -> str | None:
    """The seat that signs the file ``name`` (None for game.json); ``ValueError`` for a
    name the game never sends. Matched whole on the name as it came: no path, no other
    spelling of a digit or a letter."""
    if name == "game.json":
        return None
    found = _MESSAGE.fullmatch(name) or _REVEAL.fullmatch(name) or _TIMEOUT.fullmatch(name)
    if found is None:
        raise ValueError("not a file of a peer game (game.json, messages/, reveals/, timeouts/)")
    return found[found.lastindex or 0]


def check(terms: dict[str, Any], name: str, data: bytes) -> Any:
    """The content of ``data`` when it is the file ``name`` of this game, signed by its
    seat; else an ``ArbiterError`` or ``ValueError`` saying why."""
    seat = author(name)
    doc = parse_strict(data, name)
    if seat is None:
        _check_terms(doc, terms["game"])
        return doc
    if name.startswith("timeouts/"):
        return _check_timeout(terms, name, doc)
    keys = {s["seat"]: s["key"] for s in terms["seats"]}
    if seat not in keys:
        raise ValueError(f"{seat} is no seat of peer game {terms['game']}")
    if not isinstance(doc, dict) or doc.get("seat") != seat or doc.get("game") != terms["game"]:
        raise Tampered(f"it is not {seat}'s file of peer game {terms['game']}, as its name says")
    if name.startswith("messages/"):
        round_ = doc.get("round")
        if type(round_) is not int or f"messages/{round_:06d}-{seat}.json" != name:
            raise Tampered("its round is not the one its name says")
        if round_ == 0 and doc.get("after") != digest(terms):
            raise Tampered(f"it was made for other terms of peer game {terms['game']}: {_OTHER}")
        signing.verify(doc, keys[seat], files.NAMESPACE)
    else:
        from arbiter.peer.verify import NAMESPACE

        schemas.validate("peer-reveal", doc, name)
        signing.verify(doc, keys[seat], NAMESPACE)
    return doc


def _check_timeout(terms: dict[str, Any], name: str, doc: Any) -> Any:
    """A timeout (docs/peer.md §7): its name's round, absent seat and signer, and the
    signer's signature (a seat's, or the notary's)."""
    from arbiter.peer import timeouts

    keys = timeouts.signer_keys(terms)
    found = _TIMEOUT.fullmatch(name)
    assert found is not None
    round_, absent, signer = int(found[1]), found[2], found[3]
    if signer not in keys or absent not in keys or absent == timeouts.escrow.NOTARY:
        raise ValueError(f"{name} is no timeout of peer game {terms['game']}'s seats")
    schemas.validate("peer-timeout", doc, name)
    if (doc["game"], doc["round"], doc["absent"], doc["signer"]) != (
        terms["game"], round_, absent, signer,
    ):  # fmt: skip
        raise Tampered("it is not the timeout its name says")
    signing.verify(doc, keys[signer], timeouts.NAMESPACE)
    return doc


def _check_terms(doc: Any, game: str) -> None:
    if not isinstance(doc, dict) or doc.get("format") != files.FORMAT:
        raise ValueError("it is not a peer game's terms")
    schemas.validate("peer-game", doc, "game.json")
    if doc["game"] != game:
        raise ValueError(f"it is the terms of peer game {doc['game']}, not {game}")


# -- the mail ----------------------------------------------------------------------------


def letter(sender: str, to: list[str], game: str, name: str, data: bytes) -> Message:
    """One file as one mail. Marked auto-generated (RFC 3834): no robot answers it. Its
    Message-ID is derived from the file, so a file sent again is recognisable."""
    from arbiter.desks.mail.compose import message_id

    mail = MIMEMultipart("mixed", policy=_POLICY)
    mail.attach(MIMEText(
        f"{name} of peer game {game}, sent by arbiter.\n"
        "arbiter peer ... --via mail takes it from this mailbox into your copy of the game.\n",
        "plain", "us-ascii", policy=_POLICY,
    ))  # fmt: skip
    part = MIMEApplication(data, "json", policy=_POLICY)
    part.add_header("Content-Disposition", "attachment", filename=name)
    mail.attach(part)
    mail["From"] = sender
    mail["To"] = ", ".join(to)
    mail["Subject"] = f"{tag(game)} {name}"
    mail["Message-ID"] = message_id(sender, game, "peer", name, hashlib.sha256(data).hexdigest())
    mail["Date"] = formatdate(usegmt=True)
    mail["Auto-Submitted"] = "auto-generated"
    return mail


class _Outbox(PlayerOutbox):
    """The player desk's SMTP client, all or nothing: the mail is handed over only once
    the server took every address, so no seat gets a file another never will."""

    def _send(self, message: Message, recipients: list[str]) -> None:
        smtp, config = self.smtp, self.config
        assert smtp is not None
        data = message.as_bytes(policy=_POLICY.clone(linesep="\r\n"))
        try:
            smtp.ehlo_or_helo_if_needed()
            code, said = smtp.mail(config.address)
            if code != 250:
                self._refused(code, said, f"the sender {config.address}",
                              f"check smtp.from in {self.where}")  # fmt: skip
            answers = {to: smtp.rcpt(to) for to in recipients}
            refused = [to for to, (code, _) in answers.items() if code not in (250, 251)]
            if refused:
                code, said = answers[refused[0]]
                self._refused(code, said, ", ".join(refused), "check their addresses in game.json")
            code, said = smtp.data(data)
            if code != 250:
                self._refused(code, said, "the mail", f"check [smtp] in {self.where}")
        except smtplib.SMTPResponseException as exc:
            self._refused(
                exc.smtp_code, exc.smtp_error, "the mail", f"check [smtp] in {self.where}"
            )
        except UnicodeEncodeError:
            raise UsageError(
                f"an address is not plain ASCII: check smtp.from in {self.where} and game.json"
            ) from None

    def _refused(self, code: int, said: bytes | str, what: str, fix: str) -> NoReturn:
        with contextlib.suppress(smtplib.SMTPException, OSError):
            assert self.smtp is not None
            self.smtp.rset()  # nothing of this mail stays on the server
        text = _short(
            Exception(said.decode("utf-8", "replace") if isinstance(said, bytes) else said)
        )
        host = self.config.host
        if 500 <= code < 600:
            raise UsageError(f"the SMTP server {host} refused {what} ({code} {text}): "
                             f"nothing was sent; {fix}")  # fmt: skip
        raise NotReady(f"the SMTP server {host} cannot take {what} now ({code} {text}): "
                       "nothing was sent; try again later")  # fmt: skip


@dataclass
class _Copy:
    """A file found in the mailbox: its bytes, its content and who mailed it."""

    data: bytes
    content: Any
    sender: str
    uid: int


class PeerMail:
    """One player's copy of a peer game (``root``) and its mailbox (``config``)."""

    def __init__(self, root: Path, config: Path, seat: str | None):
        self.root = root
        self.seat = seat
        self.settings = load_player_config(config)
        self.where = shown(config)
        self.notes: list[str] = []
        self.refused = 0
        self.game = root.resolve().name

    # -- sending -------------------------------------------------------------------------
    def deliver(self, path: Path, data: bytes) -> None:
        """Mail the file ``path`` of the copy, then write it there (``Folder.write``'s
        ``deliver``); a send the server refuses leaves the copy as it was.

        A seat's file waits in its private outbox until both are done: if the machine
        stops after the mail went and before the copy has the file, the next command sends
        that very file again instead of the seat signing a second, different one."""
        name = path.resolve().relative_to(self.root.resolve()).as_posix()
        try:
            seat = author(name)
        except ValueError:
            raise UsageError(
                f"--via mail does not carry {name} yet: play this game --via folder or git"
            ) from None
        terms = files.load_terms(self.root)
        to = recipients(terms, seat)
        pending = None if seat is None else self._outbox(terms["game"], seat) / name
        if pending is not None:
            ensure_dir(pending.parent, PRIVATE_DIR)
            atomic_write(pending, data, mode=PRIVATE_FILE)
        outbox = _Outbox(self.settings.smtp, self.where)
        try:
            outbox.send(letter(self.settings.smtp.sender, to, terms["game"], name, data), to)
        except ArbiterError:
            if pending is not None:
                pending.unlink(missing_ok=True)
            if name == "game.json":  # `new` wrote it just before: take it back, as git does
                path.unlink(missing_ok=True)
            raise
        finally:
            outbox.close()
        if not (path.is_file() and path.read_bytes() == data):
            atomic_write(path, data)
        if pending is not None:
            pending.unlink(missing_ok=True)

    def _outbox(self, game: str, seat: str) -> Path:
        return files.secret_home() / f"{game}.{seat}.outbox"

    def _finish(self) -> None:
        """Send again each file of this seat a stopped command mailed but did not put
        in the copy (the same bytes: a second mail of it changes nothing)."""
        if self.seat is None:
            return
        outbox = self._outbox(self.game, self.seat)
        for pending in sorted(outbox.glob("*/*.json")):
            name = pending.relative_to(outbox).as_posix()
            if (self.root / name).is_file():
                pending.unlink()  # it reached the copy; only the clean-up was cut short
            else:
                self.deliver(self.root / name, pending.read_bytes())

    def check_terms(self) -> None:
        """Refuse, before anything is drawn or sent, a game whose other seats have no
        address."""
        recipients(files.load_terms(self.root), self.seat)

    # -- reading -------------------------------------------------------------------------
    def pull(self) -> list[str]:
        """Take every new file of this game from the mailbox into the copy; return the
        warnings about what was refused."""
        self.notes, self.refused = [], 0
        fresh = not (self.root / "game.json").is_file()
        if fresh and self.seat is None:
            return []  # `new` makes the terms, it takes none; a copy starts with `join`
        # No terms yet: the copy is named after the game, as `new` names it by default.
        self.game = self.root.resolve().name if fresh else files.load_terms(self.root)["game"]
        terms = None if fresh else files.load_terms(self.root)
        if not fresh:
            self._finish()
        account = self._account()
        kept = None if fresh else self._load_cache(account)
        found: dict[str, _Copy] = {}
        twins: dict[str, _Copy] = {}
        with self._mailbox() as (box, validity):
            if kept is not None and kept["uidvalidity"] == validity:
                after, data = kept["uid"], None
            else:
                first, data = self._terms_mail(box, terms)
                after = first - 1
            if data is not None:
                terms = json.loads(data)
            assert terms is not None
            uids = _search_after(box, after)
            for uid, sender, name, body in self._attachments(box, uids):
                self._sort(terms, uid, sender, name, body, found, twins)
        if data is not None:
            ensure_dir(self.root / "messages")
            atomic_write(self.root / "game.json", data)
        self._take(found, twins)
        self._save_cache(account, validity, max(uids, default=after))
        return self._summary()

    def _terms_mail(self, box: imaplib.IMAP4, mine: Any) -> tuple[int, bytes | None]:
        """On a first read: the UID of the mail that brought this copy's game.json, from
        which on the game's files come (what came before is an earlier game's with the same
        id), and that game.json when the copy has none (``mine`` None)."""
        notes, refused = list(self.notes), self.refused  # the read that follows notes
        seen: list[tuple[int, str, Any, bytes]] = []  # the first mail of each other version
        for uid, sender, name, data in self._attachments(box, _search_after(box, 0)):
            try:
                content = parse_strict(data, name) if name == "game.json" else None
                _check_terms(content, self.game)
            except (ArbiterError, ValueError, TypeError, LookupError, RecursionError):
                continue
            if mine is not None and content == mine:
                break
            if len(seen) < 2 and all(content != other for _, _, other, _ in seen):
                seen.append((uid, sender, content, data))
        else:
            uid = 1  # no mail holds the copy's terms (made by hand): every mail may count
        self.notes, self.refused = notes, refused
        if mine is not None:
            return uid, None
        if not seen:
            raise NotReady(
                f"no game.json of peer game {visible(self.game)[:63]} in {self._box()} yet: "
                "wait for the mail of whoever made the game (name your copy's folder after "
                "the game's id)"
            )
        if len(seen) > 1:
            raise UsageError(
                f"{self._box()} holds several game.json of peer game {visible(self.game)[:63]} "
                f"(from {visible(seen[0][1])[:80]} and {visible(seen[1][1])[:80]}): an id used "
                f"twice? put the one of your game in {shown(self.root)} yourself, then run this again"
            )
        return seen[0][0], seen[0][3]

    def _sort(self, terms: dict[str, Any], uid: int, sender: str, name: str, data: bytes,
              found: dict[str, _Copy], twins: dict[str, _Copy]) -> None:  # fmt: skip
        """Keep the first good copy of each file, and the first other one its seat signed
        against the same history."""
        try:
            content = check(terms, name, data)
        except (ArbiterError, ValueError, TypeError, LookupError, RecursionError) as error:
            self._refuse(uid, sender, name, str(error))
            return
        if name == "game.json":
            if content != terms:
                self._refuse(uid, sender, name, "it is not the game.json you have, which is kept")
            return
        first = found.setdefault(name, _Copy(data, content, sender, uid))
        if first.content == content:
            return
        if _history(first.content) != _history(content):
            self._refuse(uid, sender, name, _ELSEWHERE)
        else:
            twins.setdefault(name, _Copy(data, content, sender, uid))

    def _take(self, found: dict[str, _Copy], twins: dict[str, _Copy]) -> None:
        """Write each new file into the copy, once none is a second version of a file."""
        for name, copy in list(found.items()):
            path = self.root / name
            mine = _content(path) if path.is_file() else copy.content
            if mine != copy.content and _history(mine) != _history(copy.content):
                self._refuse(copy.uid, copy.sender, name, _ELSEWHERE)
                del found[name]
                continue
            if mine != copy.content:
                other, first = copy, "the copy you have"
            elif name in twins:
                other, first = twins[name], "one mailed before"
            else:
                continue
            raise Tampered(
                f"{name} from {visible(other.sender)[:80]} differs from {first}: "
                f"{author(name)} signed two different files of one name (the first is kept, "
                "the other stays in your mailbox to show it)"
            )
        for name, copy in found.items():
            if not (self.root / name).is_file():
                atomic_write(self.root / name, copy.data)

    def _attachments(
        self, box: imaplib.IMAP4, uids: list[int]
    ) -> Iterator[tuple[int, str, str, bytes]]:
        """(UID, sender, name, bytes) of each attachment with a name of a game's file, in
        the mails of this game (by subject) that are small enough; the rest is refused."""
        wanted = self._wanted(box, uids)
        for start in range(0, len(wanted), _BODIES):
            _, data = box.uid(
                "FETCH", _uid_set(wanted[start : start + _BODIES]), "(UID BODY.PEEK[])"
            )
            for item in data or []:
                uid = (
                    _UID.search(item[0] or b"")
                    if isinstance(item, tuple) and len(item) >= 2
                    else None
                )
                if uid is None:
                    continue
                raw = bytes(item[1])
                sender = _sender(mime.envelope(raw).text("from")) or "an unknown sender"
                try:
                    _, leaves = mime.walk(raw)
                except mime.Unreadable as error:
                    self._refuse(int(uid[1]), sender, "a mail", error.reason)
                    continue
                for leaf in leaves:
                    name = _filename(leaf.header)
                    if name is None:
                        if _named(leaf.header):  # RFC 2231: never a name the game sends
                            self._refuse(int(uid[1]), sender, "an attachment",
                                         "its name is not plain ASCII")  # fmt: skip
                        continue  # else the mail's text
                    try:
                        author(name)
                        body = leaf.payload()
                    except (ValueError, mime.Unreadable) as error:
                        self._refuse(int(uid[1]), sender, name, str(error))
                        continue
                    if len(body) > MAX_FILE:
                        self._refuse(
                            int(uid[1]), sender, name, f"it is over {MAX_FILE // 1024} KiB"
                        )
                        continue
                    yield int(uid[1]), sender, name, body

    def _wanted(self, box: imaplib.IMAP4, uids: list[int]) -> list[int]:
        """The mails whose subject names this game and whose size is bounded (only their
        headers are read here)."""
        found = []
        for start in range(0, len(uids), _BATCH):
            _, data = box.uid("FETCH", _uid_set(uids[start : start + _BATCH]),
                              "(UID RFC822.SIZE BODY.PEEK[HEADER.FIELDS (SUBJECT FROM)])")  # fmt: skip
            for item in data or []:
                if not (isinstance(item, tuple) and len(item) >= 2):
                    continue
                uid, size = _UID.search(item[0] or b""), _SIZE.search(item[0] or b"")
                header = mime.envelope(bytes(item[1]))
                if uid is None or tag(self.game) not in _decoded(header.text("subject")):
                    continue
                if size is not None and int(size[1]) > MAX_MAIL:
                    sender = _sender(header.text("from")) or "an unknown sender"
                    self._refuse(int(uid[1]), sender, "a mail",
                                 f"it is over {MAX_MAIL // 1024 // 1024} MiB")  # fmt: skip
                    continue
                found.append(int(uid[1]))
        return sorted(found)

    def _refuse(self, uid: int, sender: str, name: str, why: str) -> None:
        self.refused += 1
        if len(self.notes) < _NOTES:
            self.notes.append(
                f"refused {visible(name)[:80]} from {visible(sender)[:80]} (mail {uid} in "
                f"{self._box()}): {visible(why)[:160]}"
            )

    def _summary(self) -> list[str]:
        more = self.refused - len(self.notes)
        return self.notes + ([f"and {more} more refused attachments"] if more > 0 else [])

    # -- the mailbox ---------------------------------------------------------------------
    def _mailbox(self) -> contextlib.AbstractContextManager[tuple[imaplib.IMAP4, int]]:
        """The player's mailbox opened read-only (EXAMINE), and its UIDVALIDITY."""
        return read_only(self.settings.imap, self.where)

    def _account(self) -> str:
        imap: Imap = self.settings.imap
        return f"{imap.user or ''}@{imap.host}:{imap.port}/{imap.mailbox}"

    def _box(self) -> str:
        imap = self.settings.imap
        return f"{visible(imap.user or imap.host)[:60]}'s {visible(imap.mailbox)[:40]}"

    # -- where the last read stopped (in the player's private folder) ---------------------
    def _cache(self) -> Path:
        return files.secret_home() / f"{self.game}.{self.seat or 'peer'}.mail.json"

    def _load_cache(self, account: str) -> dict[str, Any] | None:
        """The position of the last read of this mailbox into this copy, if any."""
        try:
            record = json.loads(read_input(self._cache(), limit=64 * 1024))
        except (ArbiterError, ValueError, RecursionError):
            return None  # none yet, or damaged: read the mailbox again, nothing is lost
        if not isinstance(record, dict) or record.get("format") != CACHE_FORMAT:
            return None
        if (record.get("account"), record.get("folder")) != (account, str(self.root.resolve())):
            return None  # another mailbox or another copy: the position says nothing here
        if not all(isinstance(record.get(k), int) for k in ("uidvalidity", "uid")):
            return None
        return record

    def _save_cache(self, account: str, validity: int, uid: int) -> None:
        # Written after the files: a crash between them reads the same mail again.
        record = {"format": CACHE_FORMAT, "account": account, "folder": str(self.root.resolve()),
                  "uidvalidity": validity, "uid": uid}  # fmt: skip
        ensure_dir(self._cache().parent, PRIVATE_DIR)
        atomic_write(
            self._cache(), json.dumps(record, indent=1).encode() + b"\n", mode=PRIVATE_FILE
        )


def _decoded(subject: str) -> str:
    """A Subject with its RFC 2047 words decoded (as it came when they cannot be)."""
    try:
        return str(make_header(decode_header(subject)))
    except (ValueError, LookupError, UnicodeError):
        return subject


def _named(header: Message) -> bool:
    """Whether a part names a file in a form ``_filename`` does not read (RFC 2231)."""
    for where, param in (("content-disposition", "filename"), ("content-type", "name")):
        try:
            if header.get_param(param, None, where) is not None:
                return True
        except (ValueError, LookupError, TypeError, IndexError, UnicodeError):
            return True
    return False


_ELSEWHERE = (
    "it was made after another history of this game (an earlier game with the same id?): "
    "the first copy is kept"
)


def _history(content: Any) -> Any:
    """The chain head a message was made against (a reveal has none): two different
    messages of one name made against one head are its seat's equivocation; against two
    heads, one of them belongs to another game."""
    return content.get("after") if isinstance(content, dict) else None


def _content(path: Path) -> Any:
    """A file of the copy as JSON (None when it cannot be read: then any copy differs)."""
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
