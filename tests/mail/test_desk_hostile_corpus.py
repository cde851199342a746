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

from pathlib import Path

from mail.backlog import build, check, kill_points, points_of_a_run, run_desk
from mail.hostile import HOSTILE, SAMPLE
from mail.servers import Dovecot, SmtpRelay

MOVES = 6  # 3 joins and 3 moves


def test_a_hostile_backlog_is_quarantined_and_every_move_answered_once(
    tmp_path: Path, dovecot: Dovecot, smtp_relay: SmtpRelay
) -> None:
    clean = build(tmp_path / "clean", dovecot, smtp_relay, HOSTILE, list(SAMPLE), MOVES)
    points, summary = points_of_a_run(clean)
    assert (summary.accepted, summary.quarantined) == (MOVES, len(SAMPLE))
    check(clean)
    # The same backlog, killed twice: in the middle, as a quarantine notice is in flight;
    # then while recovering, as a round's mail is in flight.
    middle, in_round = kill_points(points)
    killed = build(tmp_path / "killed", dovecot, smtp_relay, HOSTILE, list(SAMPLE), MOVES)
    first = run_desk(killed, middle)
    assert first.returncode == -9, first.stderr
    assert 0 < killed.box("referee").count("INBOX") < MOVES + len(SAMPLE)
    second = run_desk(killed, in_round)
    assert second.returncode == -9, second.stderr
    last = run_desk(killed)
    assert last.returncode == 0, last.stderr
    assert "Traceback" not in first.stderr + second.stderr + last.stderr
    counts = check(killed, crashes=2)
    assert counts["copies"] == 2  # the mail in flight at each kill, sent again
