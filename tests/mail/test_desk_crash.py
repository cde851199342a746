"""Exactly once across crashes (issue 11, item 5): the mail desk killed at its write points.

A tally game in progress, two seats with addresses and one observer, each scenario with
fresh Dovecot users. A player mails a move (or a move and a bad file in one mail, or a
mail that cannot be read: issue 24). The reference is a real ``arbiter mail run --once``
that is not killed. Then, for each write point N, a fresh scenario runs the desk with
``ARBITER_FAILPOINT=N`` (SIGKILL there), then once more without it, and must end exactly
as the reference: the same game folder, the same mails in every mailbox (one mail in
flight at the kill may arrive twice, with the same Message-ID), the player's mail in
``processed`` (``quarantine`` for the unreadable one), and ``arbiter verify`` passing.

Message-IDs name their recipient (hashed), and every scenario has its own users, so mails
are compared across scenarios by what they are: (mailbox, folder, From and To as roles,
Subject, In-Reply-To). Within a scenario, one such mail has one Message-ID, whatever the
number of copies, and the desk's records (``referee/mail/<entry>.json``,
``.mail-desk/answered.txt``) list the same mails, in the same order, as the reference's.

Which write point is which comes from a trace: the desk run in this process with
``write_point`` replaced by a recorder (the same code path as the subprocess; the
exhaustive test checks that the subprocess has exactly as many points). The quick test
kills at four points (after submit, after the entry's record is opened, after the first
mail, just before the IMAP move) and once more while recovering; the exhaustive one
(slow: a few minutes) at every point.
"""

from __future__ import annotations

import json
import os
import signal
import smtplib
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from helpers.tables import started

from arbiter.core import gamedir
from arbiter.core.canonical import pretty
from arbiter.desks.mail import records as records_module
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from mail.hostile import nested
from mail.servers import Dovecot, Mailbox, MailUser, SmtpRelay
from mail.test_desk_game import desk_config

REPO = Path(__file__).resolve().parents[2]
KILLED = -signal.SIGKILL
WORKERS = max(2, min(4, os.cpu_count() or 1))
SEATS = ("alice", "bob")
MOVE_ID = "<the-move.1@players.test>"
KINDS = ("move", "move+bad")
# A mail that cannot be read (issue 24): quarantined with one notice; its write points are
# the flood counter and the journal of answers, then the IMAP move.
UNREADABLE = "unreadable"
DESK_MAILS = {"move": 4, "move+bad": 5, UNREADABLE: 1}
# What a kill left behind, before the desk ran again.
BEFORE_COMMIT = "before the chain commit"
BEFORE_MAIL = "after the commit, before any mail"
SOME_MAIL = "after some mails"
BEFORE_MOVE = "every mail sent, before the IMAP move"
# The quick test's kill points.
AFTER_SUBMIT = "after submit, before any mail"
AFTER_RECORD = "after the round's record is opened, before any mail"
AFTER_FIRST_MAIL = "after the first mail, before it is recorded"
LAST = "just before the IMAP move"


# -- one scenario ---------------------------------------------------------------------


@dataclass
class Scenario:
    """One games root with one game, its desk config, and its own mail users."""

    name: str
    dovecot: Dovecot
    games: Path
    folder: Path
    config: Path
    users: dict[str, MailUser]
    move: bytes
    entries: int

    @property
    def roles(self) -> dict[str, str]:
        return {user.address.lower(): role for role, user in self.users.items()}

    def boxes(self) -> Iterable[tuple[str, str]]:
        for role in self.users:
            folders = ("INBOX", "processed", "rejected", "quarantine") if role == "referee" else ("INBOX",)
            for folder in folders:
                yield role, folder

    def mailbox(self, role: str) -> Mailbox:
        return Mailbox(self.dovecot, self.users[role])


def make_scenario(
    tmp: Path, name: str, kind: str, dovecot: Dovecot, relay: SmtpRelay, new_user: Callable
) -> Scenario:
    """Build the game (a copy of one template), the users and the config; mail the move."""
    base = tmp / name
    table = started(base, list(SEATS))
    games = base / "games"
    games.mkdir()
    folder = games / "tally-test"
    table.root.rename(folder)
    table.root = folder
    users = {"referee": new_user("referee"), "watcher": new_user("watcher")}
    for seat in SEATS:
        users[seat] = new_user(seat)
        store(folder, seat, users[seat].address)
    config = desk_config(base, dovecot, relay, users["referee"], games, [users["watcher"].address])
    mover = table.turn()
    legal = table.state(mover)["legal"]
    choice = next((a for a in legal if a["kind"] == "play"), legal[0])
    move = pretty(table.move_file(mover, [choice]))
    message = EmailMessage()
    message["From"] = f"{mover.title()} <{users[mover].address}>"
    message["To"] = users["referee"].address
    message["Subject"] = "my move"
    message["Message-ID"] = MOVE_ID
    message.set_content("my move is attached")
    message.add_attachment(move, maintype="application", subtype="json", filename="move.json")
    if kind == "move+bad":
        bad = bytearray(move)
        at = bad.index(b'"signature"')
        bad[at : at + 11] = b'"signaturE"'  # not a move file any more: refused with a reason
        message.add_attachment(bytes(bad), maintype="application", subtype="json",
                               filename="bad.json")
    with smtplib.SMTP(relay.host, relay.port) as smtp:
        if kind == UNREADABLE:  # 2,000 nested parts, from the mover, with the same id
            raw = nested(users[mover].address, 1).replace(b"<nested.1@corpus.test>", MOVE_ID.encode())
            smtp.sendmail(users[mover].address, [users["referee"].address], raw)
        else:
            smtp.send_message(message)
    return Scenario(name, dovecot, games, folder, config, users, move, chain_length(folder))


# -- running arbiter ------------------------------------------------------------------


def _env(failpoint: int | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ARBITER_FAILPOINT"}
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO / "tests"), str(REPO), os.environ.get("PYTHONPATH")])
    )
    env["ARBITER_ENGINES"] = "tally=testgame:TallyEngine"
    if failpoint is not None:
        env["ARBITER_FAILPOINT"] = str(failpoint)
    return env


def arbiter(*args: Any, failpoint: int | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)],
        capture_output=True, text=True, env=_env(failpoint), timeout=120, check=False,
    )


def run_desk(s: Scenario, failpoint: int | None = None) -> subprocess.CompletedProcess[str]:
    return arbiter("mail", "run", "--config", s.config, "--once", failpoint=failpoint)


def show(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr}"


# -- what a scenario ended with -------------------------------------------------------

Label = tuple[str, str, str, str, str, str]


def mails(s: Scenario) -> dict[Label, list[str]]:
    """(mailbox, folder, From, To, Subject, In-Reply-To) -> the Message-ID of each copy."""
    roles = s.roles

    def role(header: Any) -> str:
        text = str(header or "")
        bare = text.rpartition("<")[2].rstrip(">").strip().lower() if "<" in text else text.lower()
        return roles.get(bare, text)

    found: dict[Label, list[str]] = {}
    for box, folder in s.boxes():
        for message in s.mailbox(box).headers(folder):
            label = (box, folder, role(message["From"]), role(message["To"]),
                     str(message["Subject"]), str(message["In-Reply-To"] or ""))
            found.setdefault(label, []).append(str(message["Message-ID"]))
    return found


def by_id(found: dict[Label, list[str]]) -> dict[str, tuple[str, ...]]:
    """Message-ID -> what the mail is (its label without the mailbox and folder)."""
    return {mid: label[2:] for label, ids in found.items() for mid in ids}


def folder_bytes(s: Scenario) -> dict[str, bytes]:
    """Every file of the game folder but ``referee/mail/``, addresses written as roles."""
    out = {}
    for path in sorted(s.folder.rglob("*")):
        relative = path.relative_to(s.folder).as_posix()
        if not path.is_file() or relative.startswith("referee/mail/"):
            continue
        data = path.read_bytes()
        for address, role in s.roles.items():
            data = data.replace(address.encode(), f"<{role}>".encode())
        out[relative] = data
    return out


def records(s: Scenario, ids: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    """The desk's records, with each Message-ID replaced by what the mail is and each
    address by its role, and the names in its own folder (``senders.json`` holds times:
    only its name is compared)."""
    out: dict[str, Any] = {}
    mail = s.folder / "referee" / "mail"
    for path in sorted(mail.iterdir()) if mail.is_dir() else []:
        record = json.loads(path.read_bytes())
        record["sent"] = [ids.get(mid, mid) for mid in record["sent"]]
        if "reply" in record:  # whom the receipt answers: a role, as every address here
            record["reply"]["to"] = s.roles.get(record["reply"]["to"], record["reply"]["to"])
        out[f"referee/mail/{path.name}"] = record
    desk = s.games / ".mail-desk"
    out[".mail-desk"] = sorted(p.name for p in desk.iterdir()) if desk.is_dir() else []
    journal = desk / "answered.txt"
    if journal.is_file():
        out[".mail-desk/answered.txt"] = [ids.get(mid, mid) for mid in journal.read_text().split()]
    return out


@dataclass
class Ending:
    found: dict[Label, list[str]]
    folder: dict[str, bytes]
    records: dict[str, Any]
    verify: subprocess.CompletedProcess[str]


def ending(s: Scenario) -> Ending:
    found = mails(s)
    return Ending(found, folder_bytes(s), records(s, by_id(found)), arbiter("verify", s.folder))


def desk_mails(found: dict[Label, list[str]]) -> int:
    """Copies of the desk's mails delivered anywhere (not the player's mail)."""
    return sum(len(ids) for label, ids in found.items() if label[2] == "referee")


def chain_length(folder: Path) -> int:
    return len((folder / "chain.jsonl").read_bytes().splitlines())


# -- the comparison -------------------------------------------------------------------


def check_like(reference: Ending, got: Ending, crashes: int, what: str) -> int:
    """Assert ``got`` ended as ``reference``; return the number of mails sent twice."""
    assert got.verify.returncode == 0, f"{what}: arbiter verify\n{show(got.verify)}"
    assert got.folder.keys() == reference.folder.keys(), what
    for name, data in reference.folder.items():
        assert got.folder[name] == data, f"{what}: {name} differs from the reference"
    assert set(got.found) == set(reference.found), (
        f"{what}: mails differ\nmissing: {set(reference.found) - set(got.found)}\n"
        f"extra: {set(got.found) - set(reference.found)}"
    )
    resent = 0
    for label, ids in got.found.items():
        assert len(set(ids)) == 1, f"{what}: copies of {label} carry different Message-IDs: {ids}"
        resent += len(ids) - 1
    assert resent <= crashes, f"{what}: {resent} mails sent twice after {crashes} crash(es)"
    # One mail, one Message-ID: no two different mails share an id.
    seen = Counter(ids[0] for ids in got.found.values())
    assert max(seen.values()) == 1, what
    assert got.records == reference.records, f"{what}: the desk's records differ"
    inbox = [label for label in got.found if label[:2] == ("referee", "INBOX")]
    assert inbox == [], f"{what}: the player's mail is still in the referee's INBOX"
    # The player's mail was filed once, where the reference filed it (processed, or
    # quarantine for the unreadable one).
    filed = [label for label, ids in got.found.items() if MOVE_ID in ids]
    assert len(filed) == 1 and got.found[filed[0]] == [MOVE_ID], what
    assert filed[0][:2] in (("referee", "processed"), ("referee", "quarantine")), what
    return resent


# -- the trace of write points --------------------------------------------------------


@dataclass(frozen=True)
class Point:
    n: int
    path: str
    where: str

    def __str__(self) -> str:
        return f"#{self.n} {self.path} ({self.where})"


def trace(s: Scenario) -> list[Point]:
    """Run the desk here, recording each write point: the file and the step it is at."""
    points: list[Point] = []

    def record() -> None:
        frame = sys._getframe(1)
        local = frame.f_locals
        path = Path(local["path"])
        shown = path.relative_to(s.games).as_posix()
        if frame.f_code.co_name == "atomic_write":
            where = "written" if Path(local["tmp"]).exists() else "replaced"
        else:  # the desk's journal
            where = "appended" if "handle" in local else "answer sent, to append"
        points.append(Point(len(points) + 1, shown, where))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gamedir, "write_point", record)
        patch.setattr(records_module, "write_point", record)
        MailDesk(load(s.config)).run(once=True)
    return points


def chosen(points: list[Point]) -> dict[str, int]:
    """The kill points of the quick test, found in the trace: the entry's record is
    opened (written, replaced) before the first mail, then written after each mail."""
    mail = [p.n for p in points if "/referee/mail/" in p.path]
    assert len(mail) >= 3, points
    return {
        AFTER_SUBMIT: mail[0] - 1,
        AFTER_RECORD: mail[1],
        AFTER_FIRST_MAIL: mail[2],
        LAST: points[-1].n,
    }


# -- the runs -------------------------------------------------------------------------


def stage(s: Scenario, reference_mails: int) -> str:
    """Say where a killed run stopped, from what it left behind."""
    found = mails(s)
    sent = desk_mails(found)
    if chain_length(s.folder) == s.entries:
        return BEFORE_COMMIT
    if sent == 0:
        return BEFORE_MAIL
    if sent < reference_mails:
        return SOME_MAIL
    assert any(label[:2] == ("referee", "INBOX") for label in found), f"{s.name}: moved?"
    return BEFORE_MOVE


def crash_and_recover(
    s: Scenario, failpoints: list[int], reference_mails: int
) -> dict[str, Any]:
    """Run the desk killed at each of ``failpoints`` in turn (the second kill hits the
    recovery), noting where the first kill stopped; then once more without a failpoint."""
    first = run_desk(s, failpoints[0])
    if first.returncode == 0:
        return {"finished": True, "first": first, "ending": ending(s)}
    assert first.returncode == KILLED, f"{s.name}: {show(first)}"
    where = stage(s, reference_mails)
    for failpoint in failpoints[1:]:
        again = run_desk(s, failpoint)
        assert again.returncode == KILLED, f"{s.name} (recovery, #{failpoint}): {show(again)}"
    last = run_desk(s)
    assert last.returncode == 0, f"{s.name} (after the kill): {show(last)}"
    return {"finished": False, "first": first, "stage": where, "ending": ending(s)}


def parallel(function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(function, items))


@pytest.fixture
def world(tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay, new_user):
    """Make scenarios; run the reference and the trace for a kind of mail."""

    def make(name: str, kind: str) -> Scenario:
        return make_scenario(tmp_path, name, kind, dovecot, smtp_relay, new_user)

    def reference(kind: str) -> tuple[Ending, list[Point], bytes]:
        ref = make(f"reference-{kind}", kind)
        result = run_desk(ref)
        assert result.returncode == 0, show(result)
        end = ending(ref)
        assert end.verify.returncode == 0, show(end.verify)
        assert desk_mails(end.found) == DESK_MAILS[kind], end.found
        traced = make(f"trace-{kind}", kind)
        points = trace(traced)
        # The trace ran the same code: it ended as the reference did.
        check_like(end, ending(traced), 0, "the traced run")
        return end, points, ref.move

    return make, reference


def run_points(make: Callable[[str, str], Scenario], kind: str, move: bytes,
               runs: list[list[int]], reference: Ending) -> list[dict[str, Any]]:
    """One fresh scenario per list of failpoints, in parallel."""
    scenarios = [make(f"{kind}-kill-{'-'.join(map(str, r))}", kind) for r in runs]
    for s in scenarios:
        assert s.move == move  # the same signed move everywhere
    total = desk_mails(reference.found)
    return parallel(lambda i: crash_and_recover(scenarios[i], runs[i], total), range(len(runs)))


def check_recovered(outcomes: dict[int, dict[str, Any]], reference: Ending,
                    points: list[Point], crashes: int = 1) -> dict[str, list[int]]:
    """Check every scenario against the reference; return the kill points by stage."""
    stages: dict[str, list[int]] = {}
    failures = []
    for n, outcome in sorted(outcomes.items()):
        what = f"killed at {points[n - 1]}" if n <= len(points) else f"#{n}, not killed"
        try:
            check_like(reference, outcome["ending"], 0 if outcome["finished"] else crashes, what)
        except AssertionError as exc:  # every point's failure at once, not the first
            failures.append(str(exc).splitlines()[0])
        if not outcome["finished"]:
            stages.setdefault(outcome["stage"], []).append(n)
    assert not failures, "\n".join(failures)
    return stages


def resent(outcome: dict[str, Any]) -> int:
    return sum(len(ids) - 1 for ids in outcome["ending"].found.values())


# -- the tests ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_crash_at_three_chosen_points_changes_nothing(world, kind: str) -> None:
    """Killed after submit, after the round's record, after the first mail, just before
    the IMAP move; and killed after the first mail, then again while recovering (its 3rd
    point: the recovery first finishes the round from its record, sending the mail in
    flight again (points 1, 2), then the next mail, killed before its record)."""
    make, reference = world
    end, points, move = reference(kind)
    picked = chosen(points)
    runs = [[picked[AFTER_SUBMIT]], [picked[AFTER_RECORD]], [picked[AFTER_FIRST_MAIL]],
            [picked[LAST]]]
    runs.append([picked[AFTER_FIRST_MAIL], 3])
    *once, twice = run_points(make, kind, move, runs, end)
    outcomes = {r[0]: o for r, o in zip(runs, once, strict=False)}
    assert not any(o["finished"] for o in once)
    stages = check_recovered(outcomes, end, points)
    assert stages == {
        BEFORE_MAIL: [picked[AFTER_SUBMIT], picked[AFTER_RECORD]],
        SOME_MAIL: [picked[AFTER_FIRST_MAIL]],
        BEFORE_MOVE: [picked[LAST]],
    }, stages
    # The mail in flight at the kill arrived twice, under one Message-ID.
    assert resent(outcomes[picked[AFTER_FIRST_MAIL]]) == 1
    quiet = (AFTER_SUBMIT, AFTER_RECORD, LAST)
    assert [resent(outcomes[picked[k]]) for k in quiet] == [0, 0, 0]
    # Two kills, the second while recovering: one mail in flight each time.
    check_recovered({picked[AFTER_FIRST_MAIL]: twice}, end, points, crashes=2)
    assert resent(twice) == 2


@pytest.mark.slow
@pytest.mark.parametrize("kind", [*KINDS, UNREADABLE])
def test_a_crash_at_every_write_point_changes_nothing(world, kind: str) -> None:
    make, reference = world
    end, points, move = reference(kind)
    outcomes: dict[int, dict[str, Any]] = {}
    n = 1
    while not any(o["finished"] for o in outcomes.values()):
        batch = list(range(n, n + WORKERS))
        done = run_points(make, kind, move, [[k] for k in batch], end)
        outcomes |= dict(zip(batch, done, strict=True))
        n += WORKERS
    finished = sorted(k for k, o in outcomes.items() if o["finished"])
    killed = sorted(k for k, o in outcomes.items() if not o["finished"])
    # Every point up to the last one kills; the first run that is not killed had one too
    # many: the subprocess has exactly the points the trace found.
    assert killed == list(range(1, len(points) + 1)), (killed, [str(p) for p in points])
    assert finished[0] == len(points) + 1
    stages = check_recovered(outcomes, end, points)
    if kind == UNREADABLE:  # the game is never touched; the notice, its record, the move
        where = [(p.path, p.where) for p in points]
        assert where[-2:] == [(".mail-desk/answered.txt", "answer sent, to append"),
                              (".mail-desk/answered.txt", "appended")], where
        assert set(stages) == {BEFORE_COMMIT}, stages
    else:
        assert set(stages) == {BEFORE_COMMIT, BEFORE_MAIL, SOME_MAIL, BEFORE_MOVE}, stages
    # A mail sent twice is one that was in flight: sent, its record not yet replaced.
    for k in killed:
        if resent(outcomes[k]):
            assert points[k - 1].where in ("written", "answer sent, to append"), points[k - 1]
