"""An accepted entry's round of mail: the receipt, then every seat's files and the public ones.

A round is a function of the game folder and the entry's ``Record`` alone, so the same
code finishes it whether the entry was just accepted, its mail is read again after a
crash, or its mail is gone (quarantined after a failure half-way): ``finish_rounds``
looks for records whose round is not done at the start of every pass of the desk.

One file, one answer per sender: whoever sends a file that is (or already was) entry #n
gets that entry's receipt, once. A copy of an accepted file from another mail or another
address is answered with the same receipt, never with a contradicting refusal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arbiter.core.errors import NotReady
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import visible
from arbiter.desks.mail import addresses, compose
from arbiter.desks.mail.config import Config
from arbiter.desks.mail.records import Journal, Record
from arbiter.desks.mail.transport import Outbox, TransportError


def report(line: str) -> None:
    """Tell the referee (stderr: cron mails it): one line, control characters escaped."""
    sys.stderr.write("arbiter mail: " + visible(line)[:500] + "\n")


class Rounds:
    """The sending half of the desk (``MailDesk`` adds the reading half)."""

    config: Config
    outbox: Outbox | None
    summary: Any
    journal: Journal
    report: Callable[[str], None]
    closed: dict[Path, set[int]]
    """Per game folder, the entries whose round is known complete."""
    heads: dict[Path, int]
    """Per game folder, the last entry ``_head_round`` looked at."""

    def _index(self) -> dict[str, Path]:
        raise NotImplementedError

    def _send(self, mail: Any, recipients: list[str]) -> None:
        assert self.outbox is not None
        self.outbox.send(mail, recipients)
        self.summary.sent += 1

    # -- one entry --------------------------------------------------------------------
    def finish_round(self, gd: GameDir, record: Record, copy: dict[str, Any] | None = None) -> None:
        """Send what entry ``record.seq`` still calls for: the receipt to whoever sent the
        file (and to the seat's own address), then, if the entry is still the game's
        head, every seat's files; then close the round.

        ``copy`` (``to``, ``in_reply_to``, like ``record.reply``) is someone who sent the
        file again in another mail: they get the same receipt (once), and the round is
        otherwise left as it is.
        """
        seq = record.seq
        assert isinstance(seq, int)
        sender = self.config.smtp.sender
        state = json.loads(gd.public_state.read_bytes())
        chain = _chain_entry(gd, seq)
        game = state["game"]
        seat = chain["seat"]
        reply = copy or record.reply or {}
        receivers: list[tuple[str, bool]] = []
        if isinstance(reply.get("to"), str):
            receivers.append((reply["to"], True))
            own = addresses.load(gd).get(seat) if copy is None else None
            if own and own.lower() != reply["to"]:
                receivers.append((own, False))
        receipt = gd.receipt(seq)
        summary = chain["summary"]
        name = reply.get("name") if isinstance(reply.get("name"), str) else "the file"
        for to, answers in receivers:
            mid = compose.message_id(sender, game, seq, "receipt", to.lower())
            if record.has(mid):
                continue
            again = (
                "It had been accepted before: this copy changed nothing.\n"
                if copy is not None else ""
            )
            body = (
                f"{name} was accepted as entry #{seq} of game {game} "
                f"({chain['kind']} by {seat}).\n{again}Chain head: {chain['hash']}\n\n"
                + "\n".join(f"  {line}" for line in summary)
                + "\n\nKeep the attached receipt: `arbiter verify GAME --receipt FILE` "
                "proves the referee accepted this file.\n"
            )
            files = []
            if receipt.is_file():
                files.append(compose.attach(receipt, f"receipt-{game}-{seq}.json", "application/json"))
            # The sender's copy answers their mail; the seat's copy starts from the game.
            thread = compose.game_thread(sender, game)
            in_reply_to = reply.get("in_reply_to") if answers else None
            in_reply_to = in_reply_to if isinstance(in_reply_to, str) and in_reply_to else None
            mail = compose.letter(
                sender, to, f"{game}: accepted as entry #{seq}", body, mid,
                in_reply_to=in_reply_to,
                references=[thread, in_reply_to] if in_reply_to else [thread],
                attachments=files,
            )
            self._send(mail, [to])
            record.add(mid)
        if copy is not None or record.done:
            return
        if state["seq"] != seq:
            # Standing orders' steps the referee applied in the same operation
            # (docs/standing-orders.md) belong to this round: send the head's files.
            steps = _order_steps_after(gd, seq, state["seq"])
            if steps is None:
                record.close_round()  # a later entry's round supersedes this one's state mail
                return
            seq, summary = state["seq"], [*summary, *(line for e in steps for line in e["summary"])]
        self.send_states(gd, record, seq, summary)

    def send_states(self, gd: GameDir, record: Record, seq: int, summary: list[str]) -> None:
        """Send each seat with an address its files at entry ``seq``, and the observers
        the public ones; then close the entry's round."""
        sender = self.config.smtp.sender
        state = json.loads(gd.public_state.read_bytes())
        game = state["game"]
        known = addresses.load(gd)
        thread = compose.game_thread(sender, game)
        over = state["status"] == "over"
        result = result_section(gd.public_log) if over else ""
        waiting = ", ".join(state["waiting_for"]) or "nobody"
        if not record.exists:
            record.open(None, None)  # found by ``finish_rounds`` if the round is cut short
        for seat_name in state["seats"]:
            address = known.get(seat_name)
            if not address:
                continue
            mid = compose.message_id(sender, game, seq, "state", seat_name, address.lower())
            if record.has(mid):
                continue
            body = (
                f"Game {game}, entry #{seq}:\n"
                + "\n".join(f"  {line}" for line in summary)
                + (f"\n\n{result}\n" if result else f"\n\nWaiting for {waiting}.\n")
                + ("" if over else "\n" + compose.usage(self.config.smtp.address) + "\n")
            )
            files = [
                compose.attach(gd.seat_state(seat_name), "state.json", "application/json"),
                compose.attach(gd.seat_log(seat_name), "log.md", "text/markdown"),
            ]
            title = f"{game}: {'game over' if over else f'entry #{seq}'} — your files ({seat_name})"
            mail = compose.letter(sender, address, title, body, mid, references=[thread], attachments=files)
            self._send(mail, [address])
            record.add(mid)
        for to in self.config.desk.observers:
            mid = compose.message_id(sender, game, seq, "observer", to.lower())
            if record.has(mid):
                continue
            body = (
                f"Game {game}, entry #{seq}:\n" + "\n".join(f"  {line}" for line in summary)
                + (f"\n\n{result}\n" if result else "\n")
            )
            files = [
                compose.attach(gd.public_state, "state.json", "application/json"),
                compose.attach(gd.public_log, "log.md", "text/markdown"),
            ]
            mail = compose.letter(
                sender, to, f"{game}: entry #{seq} (public)", body, mid,
                references=[thread], attachments=files,
            )
            self._send(mail, [to])
            record.add(mid)
        record.close_round()

    # -- every game -------------------------------------------------------------------
    def finish_rounds(self) -> None:
        """Finish every round begun and not completed, in every game (a crash, or a
        failure while its mail was handled). A round that fails again is reported and
        left for the next pass; it never stops the desk."""
        for game, folder in sorted(self._index().items()):
            gd = GameDir(folder)
            if not gd.referee.is_dir():
                continue
            done = self.closed.setdefault(folder, set())
            for record in Record.pending(gd, done):
                if isinstance(record.seq, int):
                    self.guarded(f"game {game}, entry #{record.seq}", self.finish_round, gd, record)
            self.guarded(f"game {game}, its last entry", self._head_round, gd)

    def _head_round(self, gd: GameDir) -> None:
        """Send the round of the game's last entry if the desk made it (a timeout, a bot
        seat's move) and died before writing its record: no mail will be read again to
        start it. A duplicate game's deal is sent too, whoever dealt it (the desk, or
        ``arbiter tournament deal``). Any other entry without a record came from
        ``arbiter submit``, whose mail is the referee's business."""
        from arbiter.desks.mail import bots

        state = json.loads(gd.public_state.read_bytes())
        seq = state["seq"]
        if not isinstance(seq, int) or self.heads.get(gd.root) == seq or Record(gd, seq).exists:
            return
        # Order steps come in the operation of the entry before them (docs/standing-orders.md):
        # that entry's round, if it has one, sends the head's files.
        base = seq
        while base > 0 and _chain_entry(gd, base)["kind"] == "order-step":
            base -= 1
        if base != seq and Record(gd, base).exists:
            self.heads[gd.root] = seq
            return
        entry = _chain_entry(gd, base)
        if entry["kind"] in ("timeout", "deal") or (
            entry["kind"] == "move" and entry["seat"] in bots.load(gd)
        ):
            self.send_states(gd, Record(gd, seq), seq, entry["summary"])
        self.heads[gd.root] = seq  # looked at: read the chain again only for a new entry

    def guarded(self, what: str, action: Callable[..., None], *args: Any) -> bool:
        """Run ``action``; a failure other than the servers' is reported, not raised."""
        try:
            action(*args)
        except TransportError:
            raise
        except Exception as exc:  # one game's trouble must not stop the desk
            if infrastructure(exc):
                raise
            self.report(f"{what}: {type(exc).__name__}: {exc} (left for the next run)")
            return False
        return True


def infrastructure(exc: BaseException) -> bool:
    """Whether ``exc`` is the machine's trouble (a full or read-only disk), which every
    mail would meet: then the desk stops instead of blaming mail after mail."""
    import errno

    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)


def _order_steps_after(gd: GameDir, seq: int, head: int) -> list[dict[str, Any]] | None:
    """The entries after ``seq`` up to ``head`` if every one is an order step, else None."""
    entries = [_chain_entry(gd, n) for n in range(seq + 1, head + 1)]
    return entries if all(e["kind"] == "order-step" for e in entries) else None


def _chain_entry(gd: GameDir, seq: int) -> dict[str, Any]:
    with open(gd.chain, "rb") as handle:
        for index, line in enumerate(handle):
            if index == seq:
                return dict(json.loads(line))
    raise NotReady(f"chain entry #{seq} is missing from {gd.chain}")


def result_section(log: Path) -> str:
    text = log.read_text(encoding="utf-8")
    start = text.find("## Result")
    if start < 0:
        return ""
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None].strip()
