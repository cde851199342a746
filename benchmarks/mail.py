"""Measure the mail desk: a backlog of 200 mails for 20 games, cleared at ≥ 50 messages/s.

    python benchmarks/mail.py [--games 20] [--mails 200] [--profile FILE]

Starts a real Dovecot and an aiosmtpd relay on loopback (tests/mail/servers.py), creates
Mot Coin games (3 seats each, every seat with a mailbox), and fills the referee's INBOX
with the games' joins and moves, interleaved across games as players would send them;
the moves were signed ahead on a scratch copy of each game. Then one `MailDesk.run(once)`
clears the backlog. The desk's time is split into IMAP, judging (`submit`), SMTP and the
durability barriers (`syncfs`) by timing those calls; the rest is parsing mail and the
desk's own records.

The relay runs in its own process and behaves as a real MTA: it answers DATA once the
answer is queued and delivers the queue to the players' Dovecot mailboxes (one IMAP
connection per mailbox). The answers are real: after the run the relay's queue is drained
and every player's INBOX is counted; the count must equal the mails the desk sent. The
time until the last answer is in its mailbox is printed too ("end to end").
Budget (DESIGN.md): ≥ 50 messages/s. Nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from email.message import EmailMessage
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from helpers.tables import make_keys
from mail.servers import Dovecot, Mailbox, SmtpRelay

import arbiter.desks.mail.desk as desk_module
from arbiter.core.canonical import pretty
from arbiter.core.player import load_state, make_join, make_move
from arbiter.core.referee import new_game, submit
from arbiter.core.rng import Rng
from arbiter.desks.mail.addresses import store
from arbiter.desks.mail.config import load
from arbiter.desks.mail.desk import MailDesk
from arbiter.desks.mail.transport import Mailbox as DeskMailbox
from arbiter.desks.mail.transport import Outbox

SEATS = ["alice", "bob", "carol"]
JUDGING = ("submit", "submit_deferred")
"""The referee's entry points the desk may call (timed as judging)."""


def prepare(work: Path, games: int, mails: int, dovecot: Dovecot, relay: SmtpRelay):
    """Return (config path, referee inbox, [mail bytes in sending order])."""
    referee = dovecot.new_user("referee")
    root = work / "games"
    root.mkdir()
    keys = make_keys(work / "keys", SEATS)
    per_game = mails // games
    queues: list[list[bytes]] = []
    players: list[Mailbox] = []
    choices = Rng(b"bench-mail".ljust(32, b"\0"))
    for index in range(games):
        folder = root / f"g{index:02d}"
        new_game(folder, "motcoin", [(s, f"{keys[s]}.pub") for s in SEATS], {},
                 game_id=f"g{index:02d}", created="2026-12-01T00:00:00Z")
        users = {}
        for seat in SEATS:
            users[seat] = dovecot.new_user(seat)
            players.append(Mailbox(dovecot, users[seat]))
            store(folder, seat, users[seat].address)
        scratch = work / "scratch" / folder.name
        shutil.copytree(folder, scratch)
        files = []
        for seat in SEATS:
            join = make_join(folder / "game.json", seat, keys[seat])
            submit(scratch, pretty(join), "join")
            files.append((seat, join))
        while len(files) < per_game:
            public = json.loads((scratch / "public" / "state.json").read_bytes())
            if public["status"] != "playing":
                break
            seat = public["prompt"]["seat"]
            state = load_state(scratch / "players" / seat / "state.json")
            move = make_move(state, keys[seat], [choices.choice(state["legal"])])
            submit(scratch, pretty(move), "move")
            files.append((seat, move))
        queue = []
        for n, (seat, obj) in enumerate(files):
            message = EmailMessage()
            message["From"] = users[seat].address
            message["To"] = referee.address
            message["Subject"] = f"{folder.name} {n}"
            message["Message-ID"] = f"<{folder.name}.{n}@players.example.test>"
            message.set_content("my move")
            message.add_attachment(pretty(obj), maintype="application", subtype="json",
                                   filename=f"{n}.json")
            queue.append(message.as_bytes())
        queues.append(queue)
    order = [mail for round_ in zip(*queues, strict=False) for mail in round_]
    (work / "pw").write_text(referee.password)
    config = work / "desk.toml"
    config.write_text(
        f'[imap]\nhost = "{dovecot.host}"\nport = {dovecot.port}\nuser = "{referee.name}"\n'
        f'password_file = "pw"\ntls = "none"\n\n[smtp]\nhost = "{relay.host}"\n'
        f'port = {relay.port}\ntls = "none"\nfrom = "Referee <{referee.address}>"\n\n'
        f'[desk]\ngames = "{root}"\nmax_per_sender = 100000\n'
    )
    return config, Mailbox(dovecot, referee.name, referee.password), order, players


def timed(spent: dict[str, float], part: str, owner: object, name: str) -> None:
    """Wrap ``owner.name`` so its wall time adds to ``spent[part]``."""
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent[part] += time.perf_counter() - start

    setattr(owner, name, wrapper)


def _relay_process(dovecot: Dovecot, address, stop, report) -> None:
    """Run the SMTP relay in its own process, so its work does not share the desk's GIL;
    once ``stop`` is set, deliver what is queued and report (delivered, errors, when)."""
    with SmtpRelay(dovecot, queued=True) as relay:
        address.put((relay.host, relay.port))
        stop.wait()
        relay.drain()
        report.put((len(relay.messages), [repr(e)[:200] for e in relay.errors], time.monotonic()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--profile", metavar="FILE", help="write the desk run's cProfile stats here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arbiter-bench-mail-"))
    try:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        address, stop, report = context.Queue(), context.Event(), context.Queue()
        with Dovecot() as dovecot:
            child = context.Process(target=_relay_process, args=(dovecot, address, stop, report))
            child.start()
            host, port = address.get(timeout=30)
            relay = SimpleNamespace(host=host, port=port)
            config, inbox, mails, players = prepare(work, args.games, args.mails, dovecot, relay)
            for raw in mails:
                inbox.append(raw)
            spent: dict[str, float] = defaultdict(float)
            for name in ("__init__", "waiting", "size", "sizes", "fetch", "fetch_many", "move", "close"):
                timed(spent, "imap", DeskMailbox, name)
            for name in ("send", "close"):
                timed(spent, "smtp", Outbox, name)
            for name in JUDGING:
                if hasattr(desk_module, name):
                    timed(spent, "judging", desk_module, name)
            if hasattr(desk_module, "sync_filesystem"):
                timed(spent, "syncfs", desk_module, "sync_filesystem")
            start = time.monotonic()
            desk = MailDesk(load(config))
            if args.profile:
                import cProfile

                with cProfile.Profile() as profile:
                    summary = desk.run(once=True)
                profile.dump_stats(args.profile)
            else:
                summary = desk.run(once=True)
            took = time.monotonic() - start
            stop.set()
            delivered, errors, drained = report.get(timeout=600)
            child.join(timeout=30)
            assert inbox.count("INBOX") == 0, "the backlog was not cleared"
            arrived = sum(player.count("INBOX") for player in players)
            assert not errors, f"the relay failed to deliver: {errors[:3]}"
            assert delivered == arrived == summary.sent, (delivered, arrived, summary.sent)
            rest = took - sum(spent.values())
            print(
                f"mail desk: {summary.mails} mails for {args.games} games "
                f"({summary.accepted} accepted, {summary.rejected} refused, {summary.sent} sent) "
                f"in {took:.2f} s = {summary.mails / took:.1f} messages/s; budget ≥ 50/s"
            )
            parts = ("imap", "judging", "smtp", "syncfs")
            print(
                "  time: "
                + ", ".join(f"{part} {spent[part] / took:.0%}" for part in parts)
                + f", parsing and records {rest / took:.0%}"
            )
            print(
                f"  answers: {arrived} delivered to the players' mailboxes, the last "
                f"{drained - start:.2f} s after the start (end to end "
                f"{summary.mails / (drained - start):.1f} messages/s)"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
