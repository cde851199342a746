"""The mail desk against the whole hostile corpus: a backlog of good moves with every kind
of hostile mail between them, on a real Dovecot, cleared once; then the same backlog with
the desk killed (SIGKILL) in the middle and again while recovering (issue 24, item 1).

    python benchmarks/mail_hostile.py [--games 10] [--moves 30] [--repeat 10] [--no-kill]

Each of the 21 hostile kinds of ``tests/mail/hostile.py`` (the 20 of the test suite and a
9 MiB mail) is mailed ``--repeat`` times by one stranger, spread evenly between the joins
and moves of ``--games`` Mot Coin games (``--moves`` files each, signed ahead). The
defaults make 510 mails, as the issue's 500-mail backlog. The check is the test suite's
(``tests/mail/backlog.py``): every good file judged and answered once, every hostile mail
in quarantine and answered once when it may be, every game verified, at most one mail sent
again per kill (the one in flight, under its Message-ID). Prints counts and durations;
the test suite runs a sample (``tests/mail/test_desk_hostile_corpus.py``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
# The tests' helpers (mail.*) and the repository on the path, in place of this folder.
sys.path[0:1] = [str(ROOT / "tests"), str(ROOT)]

from mail.backlog import build, check, kill_points, points_of_a_run, run_desk
from mail.hostile import BENCHMARK_ONLY, HOSTILE
from mail.servers import Dovecot, SmtpRelay


def _relay_process(dovecot: Dovecot, address, stop) -> None:
    """Run the SMTP relay in its own process, so its work does not share the desk's GIL."""
    with SmtpRelay(dovecot) as relay:
        address.put((relay.host, relay.port))
        stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=30, help="files per game (3 joins, then moves)")
    parser.add_argument("--repeat", type=int, default=10, help="mails of each hostile kind")
    parser.add_argument("--no-kill", action="store_true", help="skip the run killed twice")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arbiter-bench-mail-hostile-"))
    try:
        context = multiprocessing.get_context("fork")
        address, stop = context.Queue(), context.Event()
        with Dovecot() as dovecot:
            child = context.Process(target=_relay_process, args=(dovecot, address, stop))
            child.start()
            host, port = address.get(timeout=30)
            relay = SimpleNamespace(host=host, port=port)
            try:
                measure(args, dovecot, relay, work)
            finally:
                stop.set()
                child.join(timeout=30)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(args: argparse.Namespace, dovecot: Dovecot, relay: SimpleNamespace, work: Path) -> None:
    corpus = {**HOSTILE, **BENCHMARK_ONLY}
    kinds = [kind for _ in range(args.repeat) for kind in corpus]
    start = time.perf_counter()
    clean = build(work / "clean", dovecot, relay, corpus, kinds, args.moves, args.games)
    built = time.perf_counter() - start
    mails = len(clean.good) + len(clean.hostile)
    print(f"backlog: {len(clean.good)} good files in {args.games} games, {len(clean.hostile)} "
          f"hostile mails of {len(corpus)} kinds ({mails} mails), built and mailed in {built:.1f} s")
    start = time.perf_counter()
    points, summary = points_of_a_run(clean)
    took = time.perf_counter() - start
    print(f"desk, one run: {summary.mails} mails in {took:.1f} s = {summary.mails / took:.1f} mails/s; "
          f"{summary.accepted} accepted, {summary.quarantined} quarantined, {summary.rejected} refused, "
          f"{summary.sent} mails sent, {len(points)} write points")
    start = time.perf_counter()
    counts = check(clean)
    print(f"  checked in {time.perf_counter() - start:.1f} s: {counts}")
    if args.no_kill:
        return
    first, second = kill_points(points)
    killed = build(work / "killed", dovecot, relay, corpus, kinds, args.moves, args.games)
    runs = []
    for failpoint in (first, second, None):
        start = time.perf_counter()
        done = run_desk(killed, failpoint)
        runs.append(f"{'killed at point ' + str(failpoint) if failpoint else 'finished'} "
                    f"(exit {done.returncode}) in {time.perf_counter() - start:.1f} s")
        expected = 0 if failpoint is None else -9
        assert done.returncode == expected, done.stderr[-2000:]
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
    print("desk killed twice, then run again: " + "; ".join(runs))
    start = time.perf_counter()
    counts = check(killed, crashes=2)
    print(f"  checked in {time.perf_counter() - start:.1f} s: {counts}")


if __name__ == "__main__":
    main()
