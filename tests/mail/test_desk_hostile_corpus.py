"""A backlog of good moves with hostile mail mixed in, on real Dovecot (issue 24, item 1).

A sample of the hostile corpus (``hostile.SAMPLE``) between the joins and moves of a Mot
Coin game, all waiting in the referee's INBOX. One run of the desk must judge and answer
every good file exactly once, put every hostile mail in quarantine (answered once when it
may be), and leave the game verifiable. The same backlog with the desk killed (SIGKILL)
in the middle, twice, must end the same way: nothing lost, nothing answered twice (the
one mail in flight at a kill may arrive twice, under one Message-ID). The whole corpus,
many times over: ``benchmarks/mail_hostile.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from arbiter.core import gamedir
from arbiter.core.replay import verify
from arbiter.desks.mail import records
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from mail.hostile import ANSWERED, HOSTILE, SAMPLE, Good, good_moves, mixed
from mail.servers import Dovecot, Mailbox, MailUser, SmtpRelay
from mail.test_desk_game import desk_config

REPO = Path(__file__).resolve().parents[2]
MOVES = 6  # 3 joins and 3 moves


@dataclass
class Backlog:
    dovecot: Dovecot
    games: Path
    config: Path
    users: dict[str, MailUser]
    good: list[Good]
    hostile: list[str]

    def box(self, role: str) -> Mailbox:
        return Mailbox(self.dovecot, self.users[role])


def backlog(tmp: Path, dovecot: Dovecot, relay: SmtpRelay, kinds: tuple[str, ...] = SAMPLE,
            moves: int = MOVES) -> Backlog:
    users = {role: dovecot.new_user(role) for role in ("referee", "stranger", "alice", "bob", "carol")}
    games = tmp / "games"
    games.mkdir(parents=True)
    good = good_moves(tmp, games, users, moves)
    hostile = [(kind, HOSTILE[kind](users["stranger"].address, n)) for n, kind in enumerate(kinds)]
    inbox = Mailbox(dovecot, users["referee"])
    for _label, raw in mixed([good], hostile):
        inbox.append(raw)
    config = desk_config(tmp, dovecot, relay, users["referee"], games)
    return Backlog(dovecot, games, config, users, good, list(kinds))


def check(b: Backlog, crashes: int = 0) -> dict[str, int]:
    """Assert the backlog was handled exactly once; return counts for the record."""
    referee = b.box("referee")
    assert referee.count("INBOX") == 0
    assert referee.count("processed") == len(b.good)
    assert referee.count("quarantine") == len(b.hostile)
    assert referee.count("rejected") == 0
    folder = b.games / b.good[0].game
    assert len((folder / "chain.jsonl").read_bytes().splitlines()) == 1 + len(b.good)
    verify(folder)
    copies = 0
    for seat in ("alice", "bob", "carol"):
        mails = b.box(seat).messages()
        by_subject: dict[str, set[str]] = {}
        for message in mails:
            by_subject.setdefault(str(message["Subject"]), set()).add(str(message["Message-ID"]))
        for subject, ids in by_subject.items():
            assert len(ids) == 1, f"{seat}: {subject} under {len(ids)} Message-IDs"
        copies += len(mails) - len(by_subject)
        mine = [g for g in b.good if g.seat == seat]
        for g in mine:
            assert f"[arbiter] {g.game}: accepted as entry #{g.seq}" in by_subject, (seat, g.seq)
        bodies = [m.get_body(("plain",)).get_content() for m in mails]
        assert not [t for t in bodies if "not accepted" in t or "could not be read" in t]
    answers = b.box("stranger").messages()
    ids = Counter(str(m["Message-ID"]) for m in answers)
    assert len(ids) == sum(ANSWERED[k] for k in b.hostile), sorted(str(m["Subject"]) for m in answers)
    assert all("could not be read" in m.get_body(("plain",)).get_content() for m in answers)
    copies += len(answers) - len(ids)
    assert copies <= crashes, f"{copies} mails arrived twice after {crashes} kill(s)"
    return {"good": len(b.good), "hostile": len(b.hostile), "answers": len(ids), "copies": copies}


def points_of_a_run(b: Backlog) -> list[str]:
    """Run the desk here, noting each write point as 'file: step' (as the subprocess has them)."""
    points: list[str] = []

    def note() -> None:
        frame = sys._getframe(1)
        path = Path(frame.f_locals["path"]).relative_to(b.games).as_posix()
        if frame.f_code.co_name == "atomic_write":
            step = "written" if Path(frame.f_locals["tmp"]).exists() else "replaced"
        else:
            step = "appended" if "handle" in frame.f_locals else "answer sent, to append"
        points.append(f"{path}: {step}")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gamedir, "write_point", note)
        patch.setattr(records, "write_point", note)
        MailDesk(load(b.config), report=lambda line: None).run(once=True)
    return points


def run_desk(b: Backlog, failpoint: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_FAILPOINT"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    if failpoint is not None:
        env["ARBITER_FAILPOINT"] = str(failpoint)
    return subprocess.run([sys.executable, "-m", "arbiter", "mail", "run", "--config", str(b.config),
                           "--once"], capture_output=True, text=True, env=env, timeout=300, check=False)


def test_a_hostile_backlog_is_quarantined_and_every_move_answered_once(
    tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay
) -> None:
    clean = backlog(tmp_path / "clean", dovecot, smtp_relay)
    points = points_of_a_run(clean)
    check(clean)
    # The same backlog, killed twice: in the middle, as a quarantine notice is in flight
    # (sent, not yet recorded); then while recovering, as a round's mail is in flight.
    middle = next(n for n, p in enumerate(points, 1)
                  if n > len(points) // 2 and p.endswith("answer sent, to append"))
    killed = backlog(tmp_path / "killed", dovecot, smtp_relay)
    first = run_desk(killed, middle)
    assert first.returncode == -9, first.stderr
    referee = killed.box("referee")
    assert 0 < referee.count("INBOX") < len(killed.good) + len(killed.hostile)
    round_mail = next(n for n, p in enumerate(points, 1) if "/referee/mail/" in p and n > 2) + 2
    second = run_desk(killed, round_mail)
    assert second.returncode == -9, second.stderr
    last = run_desk(killed)
    assert last.returncode == 0, last.stderr
    assert "quarantined" in last.stderr and "Traceback" not in first.stderr + second.stderr + last.stderr
    counts = check(killed, crashes=2)
    assert counts["copies"] >= 1  # the notice in flight at the first kill, sent again
