"""``arbiter play`` in a terminal: the table, what happened, numbered decisions, a batch.

Two forms, as ``arbiter show``: pictures (rich panels) on a terminal, plain text lines
with ``--plain`` and whenever input or output is not a terminal — plain lines read well
to a screen reader and in a pipe. Everything printed from a state file or log is literal
(``arbiter.cli.output``). Input is read line by line: a number or a name picks, ``u``
takes back the last pick, ``?`` explains (``? 3``, ``? bell``), ``s`` sends the batch as
it stands, ``q`` leaves without signing (end of input too).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from arbiter.cli.output import Output
from arbiter.core.errors import ArbiterError, OutOfTurn
from arbiter.play import menu as menus
from arbiter.play.session import Moved, Session

HELP = (
    "Type a number or a card name to pick; u takes back the last pick; ? N explains a "
    "decision; s sends the batch as it stands; q leaves without signing. Also: resign, "
    "propose (end now, scored as it stands), propose abandon (end with no result)."
)
ANSWER = "Answer {who}'s {what}? [a = accept, d = decline, l = later]: "
CONFIRM = "Send {n}? [y = sign and send, n = keep picking]: "
CONFIRM_HELP = (
    "type y to sign and send, n to keep picking, u to take back the last pick, q to leave"
)


def ask_line(prompt: str) -> str:
    """Read one line after ``prompt`` (``input``: readline editing on a terminal). Looked
    up at each call, so a scripted player can stand in for the person."""
    return input(prompt)


class Terminal:
    """The interactive loop over one session. ``ask`` reads a line (default
    ``ask_line``); the tests type into it through a real pseudo-terminal, or as a
    scripted player that reads what was printed."""

    def __init__(
        self,
        session: Session,
        *,
        pictures: bool,
        ask: Callable[[str], str] | None = None,
        out: Output | None = None,
    ):
        self.session = session
        self.pictures = pictures
        self._ask = ask
        self.out = out or Output()
        self.sent = 0  # files signed and delivered in this run

    def ask(self, prompt: str) -> str:
        sys.stdout.flush()
        return (self._ask or ask_line)(prompt)

    # -- drawing ----------------------------------------------------------------------
    def draw(self, state: dict[str, Any]) -> None:
        from arbiter.cli.render import render_state

        render_state(self.out, {**state, "legal": None}, self.session.engine, self.pictures)

    def story(self, lines: list[tuple[int, str]], title: str) -> None:
        if not lines:
            return
        self.out.line("")
        self.out.line(title)
        for entry, line in lines:
            self.out.line(f"  #{entry} {line}")

    def decisions(self) -> None:
        session = self.session
        batch = session.batch
        prompt = batch.prompt() if batch is not None else None
        listed = session.menu()
        self.out.line("")
        if session.picks:
            self.out.line("Your batch so far: " + "; ".join(session.pick_labels()))
        kind = f" ({prompt['kind']})" if prompt else ""
        self.out.line(f"{len(listed)} decision(s) now{kind}:")
        hint = prompt["detail"].get("hint") if prompt else None
        if isinstance(hint, str):
            self.out.line(f"  ({hint})")
        told: set[str] = set()
        for kind_name, group in menus.groups(listed):
            self.out.line(f"  {kind_name}:")
            for choice in group:
                self.out.line(f"    {choice.number:>3}. {choice.label}")
                for card in choice.cards:
                    # What a card does, once per listing, and only what its label lacks.
                    if card.text and card.text not in choice.label and card.id not in told:
                        told.add(card.id)
                        self.out.line(f"         {card.line()}")

    # -- the loop ---------------------------------------------------------------------
    def run(self) -> int:
        """Play until the batch is sent, the seat has nothing to decide, or ``q``.
        Returns the exit code: 0 (also when the player leaves without signing, and for a
        finished game); a seat with nothing to decide that did nothing in this run gets
        ``OutOfTurn`` (exit 11), the line saying whose turn it is and since when."""
        session = self.session
        self.draw(session.state)
        self.story(session.story, session.story_title())
        timed_out = session.timed_out()
        if timed_out:
            self.out.line("")
            self.out.line(timed_out)
        while True:
            waiting = session.waiting_line()
            if waiting is not None:
                if self._offer_join(waiting):
                    self.draw(session.state)  # the game has started: its first table
                    continue
                state = session.state
                joinable = state["status"] == "joining" and state["seat"] in state["waiting_for"]
                if self.sent or joinable:
                    return 0  # where things stand was said after the send, or the offer
                if state["status"] == "over":
                    self.out.line("")
                    self.out.line(waiting)
                    return 0
                if session.answer_due() is not None:
                    self.out.line("")
                    self.out.line(waiting)
                    return 0 if self._answer() is None or not session.my_turn() else self.run()
                self._orders_hint()
                # Nothing to decide and nothing done: the one-line answer, exit 11, so a
                # script can tell (README, "Exit codes").
                raise OutOfTurn(waiting)
            outcome = self._batch()
            if outcome is None:
                return 0
            if not outcome:
                continue
            self.out.line("")
            self.out.line("Your turn again.")
            self.draw(session.state)

    def _orders_hint(self) -> None:
        """While another seat decides: the seat's pending standing orders, or how to
        send some (docs/standing-orders.md)."""
        from arbiter.core.orders import supported
        from arbiter.play.orders import pending_line

        state = self.session.state
        if state["status"] != "playing" or not supported(self.session.engine):
            return
        line = pending_line(state)
        self.out.line("")
        self.out.line(
            line[0].upper() + line[1:] + "."
            if line is not None
            else "While you wait, `arbiter play orders` lets a bot order your next turn."
        )

    def join_only(self) -> int:
        """No state file has reached this player yet: offer to sign and send the join."""
        if not self._yes("Join the game now (signs your join file)? [y/n]: "):
            return 0
        sent = self.session.join()
        self.out.line(f"joined: {sent.where}")
        if self.session.refresh():
            return self.run()
        self.out.line("your state file comes once the referee has your join")
        return 0

    def _offer_join(self, waiting: str) -> bool:
        session = self.session
        state = session.state
        if state["status"] != "joining" or state["seat"] not in state["waiting_for"]:
            return False
        self.out.line("")
        self.out.line(waiting)
        if session.manifest is None or session.key is None:
            self.out.line("to join, run `arbiter play add` with the game.json the referee sent")
            return False
        if not self._yes("Join the game now (signs your join file)? [y/n]: "):
            return False
        sent = session.join()
        self.sent += 1
        self.out.line(f"joined: {sent.where}")
        return bool(self._after_send())

    def _batch(self) -> bool | None:
        """Build one batch and send it. ``None``: the player left; ``True``: sent and it
        is this seat's turn again; ``False``: start over (the game moved on)."""
        session = self.session
        if session.answer_due() is not None:
            answered = self._answer()
            if answered is not False:
                return answered
        self.decisions()
        self.out.line(HELP)
        while True:
            batch = session.batch
            assert batch is not None
            if not batch.open:
                self.out.line("")
                self.out.line(f"The batch is complete: {batch.reason}.")
                answer = self._confirm()
                if answer is None:
                    return None
                if answer:
                    return self._send()
                continue
            typed = self._read("> ")
            if typed is None or typed.lower() in ("q", "quit"):
                self._leave()
                return None
            if not typed:
                continue
            word = typed.lower()
            if word in ("u", "undo"):
                undone = session.undo()
                self.out.line(
                    "nothing to take back" if undone is None else "took back the last pick"
                )
                self._redraw()
            elif word == "?" or word.startswith("? "):
                self._explain(typed[1:].strip())
            elif word in ("resign", "propose", "propose abandon"):
                return self._life(word)
            elif word in ("s", "send"):
                if not session.picks:
                    self.out.line("pick at least one decision first")
                    continue
                answer = self._confirm()
                if answer is None:
                    return None
                if answer:
                    return self._send()
            else:
                try:
                    choice = session.pick(typed)
                except ArbiterError as exc:
                    self.out.line(exc.message)
                    continue
                self.out.line(f"picked {choice.number}: {choice.label}")
                if session.batch is not None and session.batch.open:
                    self._redraw()

    # -- the life of a long game (docs/game-life.md) ----------------------------------
    def _answer(self) -> bool | None:
        """Ask for the answer to the open end proposal; ``False``: later (play on)."""
        pending = self.session.answer_due()
        assert pending is not None
        from arbiter.cli.render import request_text

        self.out.line("")
        self.out.line(request_text(pending).split(": ", 1)[1] + ".")
        what = "takeback request" if pending["kind"] == "takeback" else "proposal to end the game"
        while True:
            typed = self._read(ANSWER.format(who=pending["seat"], what=what))
            if typed is None or typed.lower() in ("q", "quit"):
                self._leave()
                return None
            word = typed.lower()
            if word in ("l", "later"):
                return False
            if word in ("a", "accept", "d", "decline"):
                choice = "accept" if word.startswith("a") else "decline"
                return self._send_life("answer", _answering(choice))
            self.out.line(
                "type a to accept, d to decline, l to decide later (a move lets it lapse)"
            )

    def _life(self, word: str) -> bool | None:
        """Resign or propose to end the game, after a y/n."""
        from arbiter.core.life_files import make_propose_end, make_resign

        if word == "resign":
            question = "Resign? You are ranked last and cannot take it back. [y/n]: "
            kind, make = "resign", make_resign
        else:
            result = "abandon" if word.endswith("abandon") else "score"
            what = "with no result" if result == "abandon" else "scored as it stands"
            question = f"Propose to end the game now, {what}? [y/n]: "
            kind = "propose-end"

            def make(state: dict[str, Any], key: Any) -> dict[str, Any]:
                return make_propose_end(state, key, result)

        if not self._yes(question):
            self.out.line("nothing signed")
            self._redraw()
            return False
        return self._send_life(kind, make)

    def _send_life(
        self, kind: str, make: Callable[[dict[str, Any], Any], dict[str, Any]]
    ) -> bool | None:
        session = self.session
        try:
            sent = session.send_life(kind, make)
        except Moved as exc:
            self.out.line("")
            self.out.line(exc.message)
            self.story(exc.lines, "What happened:")
            self.draw(session.state)
            return False
        except ArbiterError as exc:
            self.out.line(exc.message)
            return False
        self.sent += 1
        self.out.line(f"signed and sent: {sent.where}")
        return self._after_send()

    def _leave(self) -> None:
        if self.sent:
            self.out.line(
                f"stopped: the {self.sent} file(s) sent before stand; nothing more signed"
            )
        else:
            self.out.line("left without signing anything")

    def _redraw(self) -> None:
        session = self.session
        batch = session.batch
        if batch is None:
            return
        shown = batch.preview_file()
        if shown is not None and batch.picks:
            self.out.line("")
            self.out.line("The table after your picks (not sent yet):")
            self.draw(shown)
        elif not batch.picks:
            self.draw(session.state)
        self.decisions()

    def _explain(self, typed: str) -> None:
        session = self.session
        prompt = session.batch.prompt() if session.batch is not None else None
        hint = prompt["detail"].get("hint") if prompt else None
        if not typed:
            self.out.line(HELP)
            if isinstance(hint, str):
                self.out.line(f"({hint})")
            return
        try:
            choice = menus.resolve(typed, session.menu())
        except ArbiterError as exc:
            self.out.line(exc.message)
            return
        for line in menus.explain(choice, hint if isinstance(hint, str) else None):
            self.out.line(line)

    def _confirm(self) -> bool | None:
        labels = self.session.pick_labels()
        self.out.line("")
        self.out.line("Your batch:")
        for index, label in enumerate(labels, start=1):
            self.out.line(f"  {index}. {label}")
        n = f"{len(labels)} decision" + ("" if len(labels) == 1 else "s")
        while True:
            typed = self._read(CONFIRM.format(n=n))
            if typed is None or typed.lower() in ("q", "quit"):
                self._leave()
                return None
            if typed.lower() in ("y", "yes"):
                return True
            if typed.lower() in ("n", "no", "u", "undo"):
                if typed.lower() in ("u", "undo"):
                    self.session.undo()
                self._redraw()
                return False
            self.out.line(CONFIRM_HELP)

    def _send(self) -> bool | None:
        session = self.session
        try:
            sent = session.send()
        except Moved as exc:
            self.out.line("")
            self.out.line(exc.message)
            self.story(exc.lines, "What happened:")
            self.draw(session.state)
            return False
        self.sent += 1
        self.out.line(f"signed and sent: {sent.where}")  # the line names the file
        return self._after_send()

    def _after_send(self) -> bool | None:
        """Look again: a referee on this machine answers at once; a desk by mail or git
        answers later (then there is nothing more to do now)."""
        session = self.session
        if not session.refresh():
            self.out.line("the referee's answer will come as your next state file")
            return None
        self.story([(n, line) for n, line in session.story], "What happened:")
        if session.my_turn():
            return True
        waiting = session.waiting_line()
        if waiting:
            self.out.line(waiting)
        return None

    def _yes(self, question: str) -> bool:
        typed = self._read(question)
        return typed is not None and typed.lower() in ("y", "yes")

    def _read(self, prompt: str) -> str | None:
        try:
            return self.ask(prompt).strip()
        except EOFError:
            return None


def _answering(choice: str) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    """The maker of an answer file that says ``choice`` (accept or decline)."""
    from arbiter.core.life_files import make_answer

    def make(state: dict[str, Any], key: Any) -> dict[str, Any]:
        return make_answer(state, key, choice)

    return make
