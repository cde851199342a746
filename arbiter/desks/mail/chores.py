"""The desk's work that no incoming mail asks for: reveal notices, deadlines, bot seats.

Each game is handled on its own: a game whose files cannot be read is reported and
skipped, and the desk goes on with the others.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError, NotReady
from arbiter.core.gamedir import GameDir
from arbiter.desks.mail import addresses, compose
from arbiter.desks.mail.records import Record
from arbiter.desks.mail.rounds import Rounds, result_section

MAX_BOT_MOVES = 2000
"""Bot moves in one go for one game (a game of bots only ends long before this)."""


class Chores(Rounds):
    def stamp(self) -> str:
        """The desk's clock as the referee records it (the desk reads it: ``MailDesk``)."""
        raise NotImplementedError

    # -- duplicate deals -----------------------------------------------------------------
    def deal_groups(self) -> None:
        """Deal each duplicate group among the desk's games once every one of them has all
        its joins (docs/duplicate.md), and send everyone the dealt game's files."""
        from arbiter.core.referee import deal_ready

        index = self._index()
        try:
            dealt = deal_ready(index, self.stamp())
        except ArbiterError as exc:
            self.report(f"duplicate deals: {exc.message}")
            return
        for folder, done in dealt:
            gd = GameDir(folder)
            self.guarded(
                f"game {folder.name}, deal", self.send_states, gd,
                Record(gd, done.seq), done.seq, done.summary,
            )  # fmt: skip

    # -- deadlines ------------------------------------------------------------------------
    def check_deadlines(self) -> None:
        """For each game with deadlines: apply the timeout policy once the waiting seat's
        grace has run out (and send everyone the new entry), else remind that seat once at
        half time and once when its grace starts (docs/tournaments.md)."""
        stamp = self.stamp()
        for game, folder in sorted(self._index().items()):
            self.guarded(f"game {game}, deadlines", self._deadlines, game, GameDir(folder), stamp)

    def _deadlines(self, game: str, gd: GameDir, stamp: str) -> None:
        from arbiter.core.deadlines import terms_of
        from arbiter.core.referee import timeout

        try:
            manifest = json.loads(gd.manifest.read_bytes())
            terms = terms_of(manifest)
        except (ValueError, OSError, KeyError, TypeError, AttributeError):
            return
        if terms is None or gd.reveal_record.is_file() or not gd.referee.is_dir():
            return
        try:
            waiting = timeout(gd.root, stamp)
        except ArbiterError:
            return  # not started, or over: no clock runs
        done = waiting.timed_out
        if done is not None:
            self.summary.timeouts += 1
            self.send_states(gd, Record(gd, done.seq), done.seq, done.summary)
            return
        state = json.loads(gd.public_state.read_bytes())
        for label, when in (("half", terms.half(waiting.since)), ("grace", waiting.due)):
            if stamp >= when:
                self._remind(gd, game, state["seq"], waiting, label)

    def _remind(self, gd: GameDir, game: str, seq: int, waiting: Any, label: str) -> None:
        """Send the waiting seat one reminder of ``label`` for the head ``seq``."""
        address = addresses.load(gd).get(waiting.seat)
        if not address:
            return
        sender = self.config.smtp.sender
        mid = compose.message_id(sender, game, seq, f"reminder-{label}", address.lower())
        if mid in self.journal.answered():
            return
        grace = (
            f", then a grace period until {waiting.final}" if waiting.final != waiting.due else ""
        )
        lead = (
            "Half your time is gone"
            if label == "half"
            else "Your time is up; the grace period runs"
        )
        body = (
            f"{lead}: game {game} waits for your decision ({waiting.seat}) since entry #{seq}.\n"
            f"Deadline: {waiting.due}{grace}. After that the referee applies the game's "
            f"timeout policy: {waiting.policy}.\n\n"
            + compose.usage(self.config.smtp.address)
            + "\n"
        )
        mail = compose.letter(
            sender,
            address,
            f"{game}: reminder — your decision is due {waiting.due}",
            body,
            mid,
            references=[compose.game_thread(sender, game)],
        )
        self._send(mail, [address])
        self.journal.add(mid)
        self.summary.reminders += 1

    # -- turn notices ---------------------------------------------------------------------
    def send_notices(self) -> None:
        """With ``[notices]``: send each recipient its digest of the games waiting for it, at
        most once per period, by mail or by the webhooks of referee/notices.toml
        (docs/notices.md). A game that cannot be read, or a webhook that fails, is reported
        and left for the next run; the others go on."""
        settings = self.config.notices
        if settings is None:
            return
        from arbiter.desks.notify import run

        stamp = self.stamp()

        def problem(where: str, exc: ArbiterError) -> None:
            self.report(f"game folder {where}, notices: {exc.message} (left for the next run)")

        due, done = run.plan(
            sorted(self._index().values()), stamp, settings.period, mail=True, problem=problem
        )
        report = run.deliver(due, done, stamp, settings.period, self._mail_notice)
        for row in report.failed:
            self.report(f"notices: {row['channel']} ({', '.join(row['games'])}): {row['reason']} "
                        "(tried again next run)")
        self.summary.notices += len(report.sent)

    def _mail_notice(self, to: str, payload: dict[str, Any]) -> None:
        from arbiter.desks.notify.run import mail_letter

        self._send(mail_letter(self.config.smtp.sender, to, payload), [to])

    # -- bots -----------------------------------------------------------------------------
    def play_bots(self, only: set[Path] | None = None) -> None:
        """Let the bot seats of every game move while the game waits for one of them: each
        decides from its own state file, signs with its seat's key, and the entry's round
        goes out like a player's (docs/bots.md). ``only``: the games a mail just moved (no
        other game's turn changed since the last look)."""
        for game, folder in sorted(self._index().items()):
            if only is None or folder in only:
                self.guarded(f"game {game}, bot seats", self._bots, folder)

    def _bots(self, folder: Path) -> None:
        from arbiter.bots.levels import bot_rng, decide
        from arbiter.core.canonical import pretty
        from arbiter.core.player import load_state, make_move
        from arbiter.core.referee import submit
        from arbiter.core.registry import get
        from arbiter.desks.mail import bots

        gd = GameDir(folder)
        if not gd.referee.is_dir() or gd.reveal_record.is_file():
            return
        try:
            seats = bots.load(gd)
        except ArbiterError:
            return
        self._bot_answers(gd, folder, seats)
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
                done = submit(folder, pretty(move), f"bot-{prompt['seat']}.json", now=self.stamp())
            except ArbiterError:
                break  # a bot's file refused: leave the seat to the clock and the referee
            self.summary.bot_moves += 1
            self.send_states(gd, Record(gd, done.seq), done.seq, done.summary)

    def _bot_answers(self, gd: GameDir, folder: Path, seats: dict[str, Any]) -> None:
        """Bot seats answer an open proposal to end the game that waits for them, each by
        its evaluation (``arbiter.bots.agreement``, docs/bots.md)."""
        from arbiter.bots.agreement import answer_file
        from arbiter.core.canonical import pretty
        from arbiter.core.player import load_state
        from arbiter.core.referee import submit

        pending = load_state(gd.public_state).get("pending")
        for seat in pending["waiting_for"] if pending else []:
            if seat not in seats:
                continue
            state = load_state(gd.seat_state(seat))
            answer = answer_file(state, seats[seat].key, seats[seat].seed)
            try:
                done = submit(folder, pretty(answer), f"bot-{seat}-answer.json", now=self.stamp())
            except ArbiterError:
                return
            self.send_states(gd, Record(gd, done.seq), done.seq, done.summary)

    # -- reveals --------------------------------------------------------------------------
    def announce_reveals(self) -> None:
        """Tell every seat and observer once that a game was revealed (`arbiter reveal`)."""
        root = self.config.desk.games
        if not root.is_dir():
            raise NotReady(f"desk.games {root} is not a folder: create it or fix the config")
        for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink()):
            gd = GameDir(folder)
            if gd.reveal_record.is_file() and gd.referee.is_dir():
                self.guarded(f"game folder {folder.name}, reveal notice", self._announce, gd)

    def _announce(self, gd: GameDir) -> None:
        record = Record(gd, "reveal")
        if record.done:
            return
        sender = self.config.smtp.sender
        reveal = json.loads(gd.reveal_record.read_bytes())
        game = reveal["game"]
        forced = " before the end (forced)" if reveal["forced"] else ""
        body = (
            f"The referee revealed game {game}{forced}: the secret and every signed file are "
            "published under reveal/.\nAnyone can now replay the whole game and check every "
            "byte: `arbiter verify GAME`.\n"
        )
        result = result_section(gd.public_log)
        body += f"\n{result}\n" if result else ""
        for to in [*addresses.load(gd).values(), *self.config.desk.observers]:
            mid = compose.message_id(sender, game, "reveal", to.lower())
            if record.has(mid):
                continue
            mail = compose.letter(
                sender,
                to,
                f"{game}: revealed",
                body,
                mid,
                references=[compose.game_thread(sender, game)],
                attachments=[compose.attach(gd.reveal_record, "reveal.json", "application/json")],
            )
            self._send(mail, [to])
            record.add(mid)
        record.close_round()
