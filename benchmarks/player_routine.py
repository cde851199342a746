"""Measure the player's routine per decision: today's commands against one `arbiter play`.

    python benchmarks/player_routine.py [--decisions 20] [--transports desk,mail,git]
                                        [--out FILE] [--table]

Issue 26, item 8. For each transport a 2-player Mottainai game (the tests' fixed keys and
secret: the same deal every run and in both routines) is played for N decisions, two ways,
every player command run as its own process (`python -m arbiter ...`, `git ...`) and
timed with the wall clock; thinking is not measured (the decision is always the first
legal one, so both routines play the same game):

- desk (a kitchen table: the referee's folder on this machine). Today: `arbiter status`,
  `arbiter moves STATE --json`, `arbiter move STATE --key K --action JSON -o F`,
  `arbiter submit G F` (4). The player runs `submit` itself, so the referee's work is in
  the player's time in both routines; its share is the `submit` process, shown apart.
- mail (a real Dovecot and an aiosmtpd relay on loopback, a real mail desk). Today: save
  the state attachment of the newest state mail (a manual step in a mail client: done
  here with a small IMAP fetch, timed and counted as a step), `arbiter moves`,
  `arbiter move`, `arbiter mail send` (3 commands + 1 manual step). The referee's time is
  one `MailDesk.run(once=True)` round in this process (a running desk), not the player's.
- git (a bare repository, the git desk, one clone per player, a sealed game). Today:
  `git pull`, `arbiter moves STATE.age --key K --json`, `arbiter move ... --seal -o
  inbox/F`, `git add`, `git commit`, `git pull --rebase`, `git push` (7). The referee's
  time is one `GitDesk.round()` in this process.

Then `arbiter play GAME --plain` once per decision, with the picks typed on its standard
input (`1`, `s`, `y`: pick the first decision, send the batch as it stands — the prompt
for `s` is skipped when the batch closes after one pick — and confirm), after `arbiter
play add ...` once per seat (timed as a one-time step, not per decision). By mail the
joins are one-time steps too: `arbiter join` + `arbiter mail send` today, `arbiter play`
answering `y` to its join offer.

Both routines of a transport end at the same referee head (checked). Raw figures go to
``benchmarks/results/player-routine.json`` (``--out``) with the machine's core count,
Python version and date; ``--table`` prints the Markdown table of docs/player-guide.md.
Nothing here is asserted by the test suite (tests/test_benchmark_player_smoke.py runs a
tiny desk-only size so it cannot rot).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import email
import email.policy
import imaplib
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from play.kit import real_game

ENGINE = "mottainai"
SEATS = ("alice", "bob")
TRANSPORTS = ("desk", "mail", "git")
PICKS = "1\ns\ny\n"
"""What the benchmark types into `arbiter play` per decision."""
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "player-routine.json"


# -- running commands ---------------------------------------------------------------------
class Player:
    """One seat's own folders (HOME, XDG) and the commands it runs, each timed."""

    def __init__(self, home: Path, seat: str, key: Path, extra_env: dict[str, str]):
        self.seat, self.key, self.home = seat, key, home
        home.mkdir(parents=True, exist_ok=True)
        self.env = {
            **os.environ,
            **extra_env,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_STATE_HOME": str(home / "state"),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        self.env.pop("ARBITER_SECRET_DIR", None)

    def run(self, steps: list[tuple[str, float]], name: str, argv: list[str],
            cwd: Path | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` as its own process; append (name, seconds) to ``steps``."""
        start = time.perf_counter()
        done = subprocess.run(argv, cwd=cwd, env=self.env, input=stdin if stdin is not None else "",
                              capture_output=True, text=True, timeout=300, check=False)
        steps.append((name, time.perf_counter() - start))
        if done.returncode != 0:
            raise RuntimeError(
                f"{self.seat}: {' '.join(argv)} failed ({done.returncode}):\n"
                f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            )
        return done

    def arbiter(self, steps: list[tuple[str, float]], *args: object, cwd: Path | None = None,
                stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        words = [str(a) for a in args]
        name = "arbiter " + " ".join(words[:2] if words[0] in ("mail", "play") else words[:1])
        return self.run(steps, name, [sys.executable, "-m", "arbiter", *words], cwd, stdin)

    def git(self, steps: list[tuple[str, float]], cwd: Path, *args: str) -> None:
        self.run(steps, f"git {args[0]}" + (" --rebase" if "--rebase" in args else ""),
                 ["git", *args], cwd)


def public(folder: Path) -> dict[str, Any]:
    return dict(json.loads((folder / "public" / "state.json").read_bytes()))


def waiting(folder: Path) -> str | None:
    """The seat the referee's public state waits for, or None when the game is over."""
    state = public(folder)
    if state["status"] == "over":
        return None
    if state["status"] == "joining":
        return str(state["waiting_for"][0])
    return str(state["prompt"]["seat"])


def first_action(listed: str) -> str:
    """The JSON action of decision 1 in `arbiter moves --json`'s output (what a person
    copies from the listing into `--action`)."""
    return json.dumps(json.loads(listed)[0]["action"], separators=(",", ":"))


class Routine:
    """The figures of one routine on one transport."""

    def __init__(self, name: str):
        self.name = name
        self.decisions: list[dict[str, Any]] = []
        self.once: list[dict[str, Any]] = []

    def decision(self, seat: str, steps: list[tuple[str, float]], referee: float | None,
                 manual: int = 0, referee_inside: float | None = None) -> None:
        self.decisions.append({
            "seat": seat,
            "steps": [{"step": n, "seconds": round(s, 4)} for n, s in steps],
            "commands": len(steps) - manual,
            "manual": manual,
            "player_seconds": round(sum(s for _, s in steps), 4),
            "referee_seconds": None if referee is None else round(referee, 4),
            "referee_inside_player_seconds": None if referee_inside is None else round(referee_inside, 4),
        })

    def one_time(self, seat: str, steps: list[tuple[str, float]], what: str) -> None:
        self.once.append({"seat": seat, "what": what,
                          "steps": [{"step": n, "seconds": round(s, 4)} for n, s in steps]})

    def summary(self) -> dict[str, Any]:
        player = [d["player_seconds"] for d in self.decisions]
        referee = [d["referee_seconds"] for d in self.decisions if d["referee_seconds"] is not None]
        inside = [d["referee_inside_player_seconds"] for d in self.decisions
                  if d["referee_inside_player_seconds"] is not None]
        return {
            "decisions": len(self.decisions),
            "commands_per_decision": sorted({d["commands"] for d in self.decisions}),
            "manual_steps_per_decision": sorted({d["manual"] for d in self.decisions}),
            "player_median": statistics.median(player) if player else None,
            "player_p90": p90(player),
            "referee_median": statistics.median(referee) if referee else None,
            "referee_inside_median": statistics.median(inside) if inside else None,
            "one_time_seconds": round(sum(s["seconds"] for o in self.once for s in o["steps"]), 4),
            "one_time_commands": sum(len(o["steps"]) for o in self.once),
        }

    def as_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "decisions": self.decisions, "one_time": self.once}


def p90(values: list[float]) -> float | None:
    """The nearest-rank 90th percentile."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def play_turn(player: Player, game: str, steps: list[tuple[str, float]]) -> str:
    """One `arbiter play GAME --plain` with the picks typed; its output."""
    return player.arbiter(steps, "play", game, "--plain", stdin=PICKS).stdout


def check_sent(out: str, seat: str) -> None:
    if "signed and sent" not in out:
        raise RuntimeError(f"{seat}: arbiter play sent nothing:\n{out[-3000:]}")


# -- desk: a kitchen table ----------------------------------------------------------------
def bench_desk(work: Path, decisions: int) -> dict[str, Routine]:
    game = "bench-desk"
    old, new = Routine("today"), Routine("arbiter play")
    heads = []
    for routine in (old, new):
        base = work / ("desk-old" if routine is old else "desk-new")
        table = real_game(base, ENGINE, len(SEATS), game_id=game)
        folder = table.root
        players = {s: Player(base / "players" / s, s, table.keys[s], {}) for s in SEATS}
        if routine is new:
            for seat, player in players.items():
                steps: list[tuple[str, float]] = []
                player.arbiter(steps, "play", "add", folder / "game.json", "--seat", seat,
                               "--key", player.key, "--via", "desk")
                routine.one_time(seat, steps, "arbiter play add")
        for n in range(decisions):
            seat = waiting(folder)
            if seat is None:
                break
            player, steps = players[seat], []
            before = public(folder)["seq"]
            if routine is old:
                player.arbiter(steps, "status", folder)
                state = folder / "players" / seat / "state.json"
                listed = player.arbiter(steps, "moves", state, "--json").stdout
                move = base / "moves" / f"{n:03d}-{seat}.json"
                move.parent.mkdir(exist_ok=True)
                player.arbiter(steps, "move", state, "--key", player.key, "--action",
                               first_action(listed), "-o", move)
                player.arbiter(steps, "submit", folder, move)
                routine.decision(seat, steps, None, referee_inside=steps[-1][1])
            else:
                check_sent(play_turn(player, game, steps), seat)
                routine.decision(seat, steps, None)
            if public(folder)["seq"] != before + 1:
                raise RuntimeError(f"desk {routine.name}: decision {n} was not judged")
        heads.append(public(folder)["seq"])
    assert heads[0] == heads[1], heads
    return {"today": old, "play": new}


# -- mail: a real mail desk -----------------------------------------------------------------
@contextlib.contextmanager
def mail_servers() -> Iterator[tuple[Any, Any]]:
    """A Dovecot and an SMTP relay delivering into it, as tests/mail/conftest.py starts
    them (the relay answers DATA once the mail is in the mailbox)."""
    from mail.servers import Dovecot, SmtpRelay

    with Dovecot() as dovecot:
        relay = SmtpRelay(dovecot).start()
        try:
            yield dovecot, relay
        finally:
            relay.stop()


def newest_state(user: Any, dovecot: Any, game: str, into: Path) -> None:
    """The manual step of a mail client: open the newest state mail of the game and save
    its state.json attachment."""
    box = imaplib.IMAP4(dovecot.host, dovecot.port)
    try:
        box.login(user.name, user.password)
        box.select("INBOX", readonly=True)
        _, data = box.uid("SEARCH", None, "SUBJECT", f'"{game}"')
        uids = [int(u) for u in (data[0] or b"").split()]
        for uid in sorted(uids, reverse=True):
            _, fetched = box.uid("FETCH", str(uid), "(BODY.PEEK[])")
            raw = next(item[1] for item in fetched if isinstance(item, tuple))
            message = email.message_from_bytes(raw, policy=email.policy.default)
            for part in message.iter_attachments():
                if part.get_filename() == "state.json":
                    into.parent.mkdir(parents=True, exist_ok=True)
                    into.write_bytes(part.get_payload(decode=True))
                    return
    finally:
        with contextlib.suppress(Exception):
            box.logout()
    raise RuntimeError(f"no state mail for {game} in {user.name}'s mailbox")


def bench_mail(work: Path, decisions: int) -> dict[str, Routine]:
    from mail.test_desk_game import desk_config
    from play.test_transport_mail import player_config

    from arbiter.desks.mail.addresses import store
    from arbiter.desks.mail.config import load
    from arbiter.desks.mail.desk import MailDesk

    game = "bench-mail"
    old, new = Routine("today"), Routine("arbiter play")
    heads = []
    with mail_servers() as (dovecot, relay):
        for routine in (old, new):
            base = work / ("mail-old" if routine is old else "mail-new")
            games = base / "games"
            table = real_game(games, ENGINE, len(SEATS), joined=False, game_id=game)
            folder = table.root
            referee = dovecot.new_user("referee")
            users = {seat: dovecot.new_user(seat) for seat in SEATS}
            for seat, user in users.items():
                store(folder, seat, user.address)
            config = load(desk_config(base, dovecot, relay, referee, games))
            players, mine = {}, {}
            for seat, user in users.items():
                mine[seat] = player_config(base, user, (dovecot.host, dovecot.port),
                                           (relay.host, relay.port))
                players[seat] = Player(base / "players" / seat, seat, table.keys[seat], {})

            def desk_round() -> float:
                start = time.perf_counter()
                MailDesk(config).run(once=True)  # noqa: B023 (called in this iteration only)
                return time.perf_counter() - start

            for seat, player in players.items():  # joining: one time per game
                steps: list[tuple[str, float]] = []
                if routine is old:
                    join = base / "moves" / f"join-{seat}.json"
                    join.parent.mkdir(parents=True, exist_ok=True)
                    player.arbiter(steps, "join", folder / "game.json", "--seat", seat,
                                   "--key", player.key, "-o", join)
                    player.arbiter(steps, "mail", "send", join, "--to", referee.address,
                                   "--config", mine[seat])
                    routine.one_time(seat, steps, "arbiter join + arbiter mail send")
                else:
                    player.arbiter(steps, "play", "add", folder / "game.json", "--seat", seat,
                                   "--key", player.key, "--via", "mail", "--config", mine[seat],
                                   "--to", referee.address)
                    out = player.arbiter(steps, "play", game, "--plain", stdin="y\n").stdout
                    if "joined" not in out:
                        raise RuntimeError(f"{seat}: arbiter play did not join:\n{out[-3000:]}")
                    routine.one_time(seat, steps, "arbiter play add + arbiter play (join: y)")
            desk_round()
            for n in range(decisions):
                seat = waiting(folder)
                if seat is None:
                    break
                player, steps = players[seat], []
                before = public(folder)["seq"]
                if routine is old:
                    state = player.home / "state.json"
                    start = time.perf_counter()
                    newest_state(users[seat], dovecot, game, state)
                    steps.append(("save the state attachment (mail client)", time.perf_counter() - start))
                    listed = player.arbiter(steps, "moves", state, "--json").stdout
                    move = base / "moves" / f"{n:03d}-{seat}.json"
                    player.arbiter(steps, "move", state, "--key", player.key, "--action",
                                   first_action(listed), "-o", move)
                    player.arbiter(steps, "mail", "send", move, "--to", referee.address,
                                   "--config", mine[seat])
                    routine.decision(seat, steps, desk_round(), manual=1)
                else:
                    check_sent(play_turn(player, game, steps), seat)
                    routine.decision(seat, steps, desk_round())
                if public(folder)["seq"] != before + 1:
                    raise RuntimeError(f"mail {routine.name}: decision {n} was not judged")
            heads.append(public(folder)["seq"])
    assert heads[0] == heads[1], heads
    return {"today": old, "play": new}


# -- git: a shared repository -----------------------------------------------------------------
def bench_git(work: Path, decisions: int) -> dict[str, Routine]:
    from git.gitkit import GAME, GIT_ENV, ISOLATED, make_world

    os.environ.update(ISOLATED)  # the desk runs in this process: no user git configuration
    game = "bench-git"
    old, new = Routine("today"), Routine("arbiter play")
    heads = []
    for routine in (old, new):
        base = work / ("git-old" if routine is old else "git-new")
        world = make_world(base, ENGINE, SEATS, game_id=game)
        players = {s: Player(base / "players" / s, s, world.keys[s], GIT_ENV) for s in SEATS}
        clones = {s: world.player(s, pull=False).clone for s in SEATS}

        def desk_round() -> float:
            start = time.perf_counter()
            world.round()  # noqa: B023 (called in this iteration only)
            return time.perf_counter() - start

        if routine is new:
            for seat, player in players.items():
                steps: list[tuple[str, float]] = []
                player.arbiter(steps, "play", "add", clones[seat] / GAME / "game.json",
                               "--seat", seat, "--key", player.key, "--via", "git")
                routine.one_time(seat, steps, "arbiter play add")
        for n in range(decisions):
            seat = waiting(world.secret)
            if seat is None:
                break
            player, steps, clone = players[seat], [], clones[seat]
            before = public(world.secret)["seq"]
            if routine is old:
                player.git(steps, clone, "pull", "-q")
                state = f"{GAME}/players/{seat}/state.json.age"
                listed = player.arbiter(steps, "moves", state, "--key", player.key, "--json",
                                        cwd=clone).stdout
                move = f"{GAME}/inbox/{seat}-{n:03d}.json"
                player.arbiter(steps, "move", state, "--key", player.key, "--action",
                               first_action(listed), "--seal", "-o", move, cwd=clone)
                player.git(steps, clone, "add", f"{move}.age")
                player.git(steps, clone, "commit", "-q", "-m", f"{seat}: move {n}")
                player.git(steps, clone, "pull", "-q", "--rebase")
                player.git(steps, clone, "push", "-q")
            else:
                check_sent(play_turn(player, game, steps), seat)
            routine.decision(seat, steps, desk_round())
            if public(world.secret)["seq"] != before + 1:
                raise RuntimeError(f"git {routine.name}: decision {n} was not judged")
        heads.append(public(world.secret)["seq"])
    assert heads[0] == heads[1], heads
    return {"today": old, "play": new}


BENCHES: dict[str, Callable[[Path, int], dict[str, Routine]]] = {
    "desk": bench_desk, "mail": bench_mail, "git": bench_git,
}


# -- report ---------------------------------------------------------------------------------
def ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1000:.0f} ms"


def commands(summary: dict[str, Any]) -> str:
    counts = "/".join(str(c) for c in summary["commands_per_decision"])
    manual = max(summary["manual_steps_per_decision"], default=0)
    return counts + (f" + {manual} manual" if manual else "")


def table(results: dict[str, Any]) -> str:
    rows = [
        "| transport | commands per decision (today → play) | player, today: median / p90 "
        "| player, `arbiter play`: median / p90 | play / today (median) "
        "| referee per decision (median) | one-time `play` setup |",
        "|---|---|---|---|---|---|---|",
    ]
    for transport, found in results["transports"].items():
        old, new = found["today"]["summary"], found["play"]["summary"]
        if transport == "desk":
            referee = f"in the player's command: `submit` {ms(old['referee_inside_median'])}"
        else:
            referee = ms(new["referee_median"]) + f" (today's game: {ms(old['referee_median'])})"
        ratio = new["player_median"] / old["player_median"]
        rows.append(
            f"| {transport} | {commands(old)} → {commands(new)} "
            f"| {ms(old['player_median'])} / {ms(old['player_p90'])} "
            f"| {ms(new['player_median'])} / {ms(new['player_p90'])} | {ratio:.2f}× "
            f"| {referee} | {new['one_time_commands']} commands, {ms(new['one_time_seconds'])} |"
        )
    return "\n".join(rows)


def machine() -> dict[str, Any]:
    git = subprocess.run(["git", "--version"], capture_output=True, text=True, check=False)
    return {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "git": git.stdout.strip(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=20,
                        help="decisions per routine and transport (default 20)")
    parser.add_argument("--transports", default=",".join(TRANSPORTS),
                        help="comma-separated: desk, mail, git (default: all)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the raw results (JSON)")
    parser.add_argument("--table", action="store_true", help="print the Markdown table")
    args = parser.parse_args()
    chosen = [t.strip() for t in args.transports.split(",") if t.strip()]
    unknown = sorted(set(chosen) - set(TRANSPORTS))
    if unknown:
        parser.error(f"unknown transport(s): {', '.join(unknown)}")
    work = Path(tempfile.mkdtemp(prefix="arbiter-bench-player-"))
    started = time.perf_counter()
    results: dict[str, Any] = {"machine": machine(), "engine": ENGINE, "seats": len(SEATS),
                               "decisions": args.decisions, "picks_typed": PICKS,
                               "transports": {}}
    try:
        for transport in chosen:
            began = time.perf_counter()
            routines = BENCHES[transport](work, args.decisions)
            results["transports"][transport] = {
                name: routine.as_json() for name, routine in routines.items()
            }
            results["transports"][transport]["seconds"] = round(time.perf_counter() - began, 2)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    results["seconds"] = round(time.perf_counter() - started, 2)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    for transport, found in results["transports"].items():
        old, new = found["today"]["summary"], found["play"]["summary"]
        print(
            f"{transport}: {old['decisions']} decisions each; commands {commands(old)} → "
            f"{commands(new)}; player median {ms(old['player_median'])} → "
            f"{ms(new['player_median'])} ({new['player_median'] / old['player_median']:.2f}×) "
            f"[{found['seconds']:.0f} s]"
        )
    if args.table:
        print()
        print(table(results))
    print(f"\nraw results: {args.out} ({results['seconds']:.0f} s in all)")


if __name__ == "__main__":
    main()
