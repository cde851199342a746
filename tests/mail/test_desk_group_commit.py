"""The desks' group commit and the mail desk's batched IMAP and SMTP (issue 25).

- ``gamedir.deferred_sync`` leaves the fsyncs out, nothing else: each file is still
  replaced whole, and outside the block every write is fsynced as before;
- ``referee.submit_deferred`` judges exactly as ``submit`` (same result, same bytes in
  every file) and syncs after the signed file, before the chain (the commit order);
- the desk's IMAP batches: one FETCH for the sizes, one for the bodies, a UID set folded;
- the desk's SMTP flattening writes the same bytes as the standard library's, and a text
  attachment encoded by binascii decodes to the same text as the email package's.
"""

from __future__ import annotations

import email
import email.policy
import io
import os
import shutil
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.mime.text import MIMEText
from pathlib import Path

import pytest
from helpers.tables import snapshot, started

from arbiter.core import gamedir
from arbiter.core.canonical import pretty
from arbiter.core.errors import Duplicate
from arbiter.core.referee import submit, submit_deferred
from arbiter.desks.durable import sync_filesystem
from arbiter.desks.mail import compose
from arbiter.desks.mail.config import Imap
from arbiter.desks.mail.transport import Mailbox as DeskMailbox
from arbiter.desks.mail.transport import _LinesAtOnce, _uid_set
from mail.servers import Dovecot, Mailbox, MailUser


def _counting_fsync(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(gamedir.os, "fsync", fsync)
    return calls


def test_deferred_sync_leaves_out_the_fsyncs_only(tmp_path: Path, monkeypatch) -> None:
    calls = _counting_fsync(monkeypatch)
    target = tmp_path / "a" / "file.json"
    with gamedir.deferred_sync():
        assert not gamedir.syncing()
        gamedir.atomic_write(target, b"one\n")
        gamedir.fsync_dir(target.parent)
        with gamedir.deferred_sync():  # nested: the outer block still defers after it
            gamedir.atomic_write(target, b"two\n")
        gamedir.atomic_write(target, b"three\n")
    assert calls == []
    assert target.read_bytes() == b"three\n"
    assert [p.name for p in target.parent.iterdir()] == ["file.json"]  # no temporaries
    assert gamedir.syncing()
    gamedir.atomic_write(target, b"four\n")
    assert len(calls) == 2  # the file, then its folder
    sync_filesystem(tmp_path)  # syncfs(2) (os.sync elsewhere): no error


def test_submit_deferred_judges_as_submit_does(tmp_path: Path, monkeypatch) -> None:
    table = started(tmp_path / "plain", ["alice", "bob"])
    other = tmp_path / "deferred"
    shutil.copytree(table.root, other)
    seat = table.turn()
    move = pretty(table.move_file(seat, [table.state(seat)["legal"][0]]))
    seen: list[tuple[int, int]] = []
    signed, chain = GameDirFiles(other)

    def sync() -> None:  # called between the signed file and the chain
        seen.append((signed.read_bytes().count(b"\n"), chain.read_bytes().count(b"\n")))

    lines = (signed.read_bytes().count(b"\n"), chain.read_bytes().count(b"\n"))
    calls = _counting_fsync(monkeypatch)
    got = submit_deferred(other, move, "move.json", None, sync)
    assert calls == []
    assert seen == [(lines[0] + 1, lines[1])]
    want = submit(table.root, move, "move.json")
    assert calls  # submit itself still fsyncs every write
    assert (got.seq, got.head, got.summary, got.status) == (
        want.seq,
        want.head,
        want.summary,
        want.status,
    )
    assert snapshot(other) == snapshot(table.root)
    # A refusal is the same too, and writes nothing.
    before = snapshot(other)
    with pytest.raises(Duplicate):
        submit_deferred(other, move, "again.json", None, sync)
    assert snapshot(other) == before


def GameDirFiles(root: Path) -> tuple[Path, Path]:
    gd = gamedir.GameDir(root)
    return gd.referee_signed, gd.chain


def test_uid_sets_are_folded() -> None:
    assert _uid_set([7]) == "7"
    assert _uid_set([9, 3, 4, 5, 7, 3]) == "3:5,7,9"


def test_sizes_and_bodies_come_in_one_fetch_each(dovecot: Dovecot, new_user) -> None:
    user: MailUser = new_user("batch")
    box = Mailbox(dovecot, user)
    raws = []
    for n in range(5):
        message = EmailMessage()
        message["From"] = "someone@example.test"
        message["Subject"] = f"mail {n}"
        message.set_content("x" * (100 * n) + "\n")
        raws.append(message.as_bytes().replace(b"\n", b"\r\n"))
        box.append(raws[-1])
    imap = Imap(
        host=dovecot.host,
        port=dovecot.port,
        tls="none",
        user=user.name,
        password=user.password,
        verify_certificate=True,
        cafile=None,
    )
    desk = DeskMailbox(imap)
    try:
        uids = desk.waiting()
        commands: list[tuple[str, ...]] = []
        real = desk.imap.uid

        def uid(*args: str):
            commands.append(args[:1])
            return real(*args)

        desk.imap.uid = uid  # type: ignore[method-assign]
        sizes = desk.sizes(uids)
        bodies = desk.fetch_many(uids[1:])
        assert commands == [("FETCH",), ("FETCH",)]
        assert sizes == {u: len(r) for u, r in zip(uids, raws, strict=True)}
        assert bodies == dict(zip(uids[1:], raws[1:], strict=True))
        assert desk.fetch(uids[2]) == raws[2]  # the same bytes as one mail's fetch
        desk.move(uids[:3], "processed")
        assert desk.waiting() == uids[3:]
        assert box.count("processed") == 3
        assert desk.sizes([]) == {} and desk.fetch_many([]) == {}
    finally:
        desk.close()


def _flat(message, generator) -> bytes:
    out = io.BytesIO()
    generator(out).flatten(message, linesep="\r\n")
    return out.getvalue()


LOG = (
    "# Game g1\n\nFrom the start:\n"
    + "".join(f"- entry {n}: alice plays Æther = {'é' * n}{' ' * (n % 3)}\n" for n in range(120))
    + "a long line " * 20
    + "\n\n"
).encode()


def test_the_desk_flattens_a_mail_to_the_same_bytes() -> None:
    message = compose.letter(
        "Referee <ref@example.test>",
        "alice@example.test",
        "g1: entry #3 — é",
        "Body\nFrom me\n",
        "<id@example.test>",
        references=["<thread@example.test>"],
        attachments=[
            ("state.json", b'{"a": 1}\n' * 200, "application/json"),
            ("log.md", LOG, "text/markdown"),
        ],
    )
    standard = _flat(message, BytesGenerator)  # sets the boundary on the message
    assert _flat(message, _LinesAtOnce) == standard


def test_a_text_attachment_reads_back_as_the_email_package_would_encode_it() -> None:
    ours = compose._text_part(LOG, "markdown")
    theirs = MIMEText(LOG.decode("utf-8"), "markdown", compose._utf8(), policy=compose._POLICY)
    assert ours["Content-Type"] == theirs["Content-Type"]
    assert ours["Content-Transfer-Encoding"] == theirs["Content-Transfer-Encoding"]

    def read(part) -> tuple[bytes, str]:
        back = email.message_from_bytes(_flat(part, BytesGenerator), policy=email.policy.default)
        return back.get_payload(decode=True), back.get_content()

    assert read(ours) == read(theirs)  # (both mangle "From " as the generator does)
    assert "- entry 119: alice plays Æther = " + "é" * 119 + "  \r\n" in read(ours)[1]


def test_a_queued_relay_delivers_after_it_answers(dovecot: Dovecot, new_user) -> None:
    """The benchmark's relay: DATA is answered once queued, ``drain`` waits for delivery."""
    import smtplib

    from mail.servers import SmtpRelay

    user: MailUser = new_user("queued")
    with SmtpRelay(dovecot, queued=True) as relay, smtplib.SMTP(relay.host, relay.port) as smtp:
        for n in range(3):
            message = EmailMessage()
            message["From"] = "someone@example.test"
            message["To"] = user.address
            message["Subject"] = f"queued {n}"
            message.set_content("hello\n")
            smtp.send_message(message)
        relay.drain()
        assert not relay.errors
        assert len(relay.messages) == 3
    assert [m["Subject"] for m in Mailbox(dovecot, user).messages()] == [
        f"queued {n}" for n in range(3)
    ]
