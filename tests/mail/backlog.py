"""A referee's INBOX full of good moves with hostile mail between them, and the check that
the desk handled it exactly once. Shared by ``test_desk_hostile_corpus`` (a sample) and
``benchmarks/mail_hostile.py`` (the whole corpus, many times over)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arbiter.core import gamedir
from arbiter.core.replay import verify
from arbiter.desks.mail import records
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk, Summary
from mail.hostile import ANSWERED, Good, good_moves, mixed
from mail.servers import Dovecot, Mailbox, MailUser, SmtpRelay
from mail.test_desk_game import desk_config

REPO = Path(__file__).resolve().parents[2]
SEATS = ("alice", "bob", "carol")


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


def build(tmp: Path, dovecot: Dovecot, relay: SmtpRelay, corpus: dict[str, Callable[[str, int], bytes]],
          kinds: list[str], moves: int, games: int = 1) -> Backlog:
    """Create ``games`` Mot Coin games of ``moves`` files each and fill the referee's INBOX
    with them, the hostile ``kinds`` (built by ``corpus``, from one stranger) spread evenly
    between them."""
    users = {role: dovecot.new_user(role) for role in ("referee", "stranger", *SEATS)}
    root = tmp / "games"
    root.mkdir(parents=True)
    good = [good_moves(tmp, root, users, moves, name=f"g{i + 1}") for i in range(games)]
    hostile = [(kind, corpus[kind](users["stranger"].address, n)) for n, kind in enumerate(kinds)]
    inbox = Mailbox(dovecot, users["referee"])
    for _label, raw in mixed(good, hostile):
        inbox.append(raw)
    config = desk_config(tmp, dovecot, relay, users["referee"], root)
    return Backlog(dovecot, root, config, users, [g for game in good for g in game], list(kinds))


def check(b: Backlog, crashes: int = 0) -> dict[str, int]:
    """Assert every good file was judged and answered once and every hostile mail
    quarantined (answered once when it may be); return the counts."""
    referee = b.box("referee")
    assert referee.count("INBOX") == 0
    assert referee.count("processed") == len(b.good)
    assert referee.count("quarantine") == len(b.hostile)
    assert referee.count("rejected") == 0
    for game in sorted({g.game for g in b.good}):
        folder = b.games / game
        entries = len((folder / "chain.jsonl").read_bytes().splitlines())
        assert entries == 1 + sum(g.game == game for g in b.good), game
        verify(folder)
    copies = 0
    for seat in SEATS:
        mails = b.box(seat).messages()
        by_subject: dict[str, set[str]] = {}
        for message in mails:
            by_subject.setdefault(str(message["Subject"]), set()).add(str(message["Message-ID"]))
        for subject, ids in by_subject.items():
            assert len(ids) == 1, f"{seat}: {subject} under {len(ids)} Message-IDs"
        copies += len(mails) - len(by_subject)
        for g in b.good:
            if g.seat == seat:
                assert f"[arbiter] {g.game}: accepted as entry #{g.seq}" in by_subject, (seat, g.game, g.seq)
        bodies = [m.get_body(("plain",)).get_content() for m in mails]
        assert not [t for t in bodies if "not accepted" in t or "could not be read" in t]
    answers = b.box("stranger").messages()
    ids = Counter(str(m["Message-ID"]) for m in answers)
    assert len(ids) == sum(ANSWERED[k] for k in b.hostile), sorted(str(m["Subject"]) for m in answers)
    assert all("could not be read" in m.get_body(("plain",)).get_content() for m in answers)
    copies += len(answers) - len(ids)
    assert copies <= crashes, f"{copies} mails arrived twice after {crashes} kill(s)"
    return {"good": len(b.good), "hostile": len(b.hostile), "answers": len(ids), "copies": copies}


def points_of_a_run(b: Backlog) -> tuple[list[str], Summary]:
    """Run the desk in this process, noting each write point as 'file: step' (the points
    ``ARBITER_FAILPOINT`` counts in a subprocess)."""
    points: list[str] = []

    def note() -> None:
        frame = sys._getframe(1)
        path = Path(frame.f_locals["path"]).relative_to(b.games).as_posix()
        if frame.f_code.co_name == "atomic_write":
            step = "written" if Path(frame.f_locals["tmp"]).exists() else "replaced"
        else:
            step = "appended" if "handle" in frame.f_locals else "answer sent, to append"
        points.append(f"{path}: {step}")

    saved = gamedir.write_point, records.write_point
    gamedir.write_point = records.write_point = note  # type: ignore[assignment]
    try:
        summary = MailDesk(load(b.config), report=lambda line: None).run(once=True)
    finally:
        gamedir.write_point, records.write_point = saved  # type: ignore[assignment]
    return points, summary


def kill_points(points: list[str]) -> tuple[int, int]:
    """Two kills for a backlog like the traced one: past the middle as a quarantine notice
    is in flight (sent, not yet recorded); then, in the recovery, as the next round's
    mail is in flight (an entry's record written again after its first mail).

    The recovery repeats the traced run's points from the first kill on (the notice is
    sent again, its flood count is not), so its point k is the trace's point first + k - 1.
    """
    first = next(n for n, p in enumerate(points, 1)
                 if n > len(points) // 2 and p.endswith("answer sent, to append"))
    opened: set[str] = set()
    for n, point in enumerate(points, 1):
        path, _, step = point.partition(": ")
        if "/referee/mail/" in path and step == "written":
            if n > first and path in opened:
                return first, n - first + 1
            opened.add(path)
    raise AssertionError("no round of mail after the middle of the run")


def run_desk(b: Backlog, failpoint: int | None = None) -> subprocess.CompletedProcess[str]:
    """`arbiter mail run --once` in its own process, killed at ``failpoint`` if given."""
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_FAILPOINT"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    if failpoint is not None:
        env["ARBITER_FAILPOINT"] = str(failpoint)
    return subprocess.run([sys.executable, "-m", "arbiter", "mail", "run", "--config", str(b.config),
                           "--once"], capture_output=True, text=True, env=env, timeout=3600, check=False)
