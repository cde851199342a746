"""One game being played by one seat: fetch, decide, sign, deliver (docs/player-desk.md).

The terminal loop and the web page are two faces of this one object. It reads only the
seat's own state file and log (through a transport), builds the batch in determinised
worlds (``preview.Batch``), and signs with the player's key in this process — the key is
never given to anything else. Before signing it fetches again: a state file whose head has
moved is never signed against (``Moved``: what happened is shown, and the player decides
again). A signed file goes to the outbox first, then to the transport; it stays in the
outbox until the transport has taken it, so nothing is lost and nothing is half-sent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from arbiter.core.canonical import pretty
from arbiter.core.engine import Action
from arbiter.core.errors import NotReady, OutOfTurn, StaleHead, UsageError
from arbiter.play import menu as menus
from arbiter.play import since
from arbiter.play.preview import Batch
from arbiter.play.transports.base import Fetched, Transport


class Moved(StaleHead):
    """The game moved on between reading the state file and signing: nothing was signed.
    ``lines``: what happened since (entry, line), for the player to read before deciding."""

    def __init__(self, message: str, lines: list[tuple[int, str]]):
        super().__init__(message)
        self.lines = lines


class SeenLike(Protocol):
    def record(self, state: Mapping[str, Any]) -> None: ...
    def decided_by(self, seq: int) -> str | None: ...
    def last_seen(self) -> int | None: ...


class OutboxLike(Protocol):
    def put(self, name: str, data: bytes) -> Path: ...
    def sent(self, path: Path) -> None: ...


@dataclass(frozen=True)
class Sent:
    """A delivered file: its name, and the transport's line saying where it went."""

    name: str
    where: str
    decisions: int


def timed_out_line(lines: list[tuple[int, str]], seat: str) -> tuple[int, str] | None:
    """The referee's timeout line for ``seat`` among ``lines`` (``views``/``table`` write
    "<seat> did not decide in time: …"), if any."""
    for entry, line in lines:
        if line.startswith(f"{seat} did not decide in time"):
            return entry, line
    return None


class Session:
    """A seat's game: the newest state file, the batch being built, sending it."""

    def __init__(
        self,
        transport: Transport,
        key: Path | None,
        *,
        manifest: Path | None = None,
        outbox: OutboxLike | None = None,
        seen: SeenLike | None = None,
        seat: str | None = None,
    ):
        self.transport = transport
        self._seat = seat
        self.key = key
        self.manifest = manifest
        self.outbox = outbox
        self.seen = seen
        self.fetched: Fetched | None = None
        self.state: dict[str, Any] = {}
        self.engine: Any = None
        self.batch: Batch | None = None
        self.story: list[tuple[int, str]] = []
        self.story_after: int | None = None
        self._last_seen_before: int | None = None
        self._checked_key = False
        self.generation = 0
        """How many times files were taken: a fetch begun before a later taking is stale."""

    # -- reading --------------------------------------------------------------------
    def load(self) -> None:
        """Fetch the seat's newest files and start an empty batch on them."""
        self._adopt(self.transport.fetch())

    def _parse(self, fetched: Fetched) -> dict[str, Any]:
        from arbiter.core.player import own_state, parse_state

        state = parse_state(fetched.state, f"state file ({fetched.where})")
        own_state(state)
        return state

    def _moved(self, fresh: Fetched) -> dict[str, Any] | None:
        """The fetched state file when its head differs from the one held, else ``None``.
        The same bytes are not parsed again: parsing checks the view (a rebuilt world), and
        the page fetches every few seconds."""
        if self.fetched is not None and fresh.state == self.fetched.state:
            return None
        state = self._parse(fresh)
        if self.state and state["seq"] < self.state["seq"]:
            # Entries are only ever appended (a takeback too), so an older state file is a
            # lagging copy (a slow mirror, a fetch begun before our own send): keep ours.
            return None
        return None if self.state and state["head"] == self.state["head"] else state

    def _adopt(self, fetched: Fetched, state: dict[str, Any] | None = None) -> None:
        from arbiter.core.viewcheck import known_engine

        state = state if state is not None else self._parse(fetched)
        last_seen = self.seen.last_seen() if self.seen is not None else None
        self._last_seen_before = last_seen
        self.fetched, self.state = fetched, state
        self.generation += 1
        self.engine = known_engine(state)
        self.batch = Batch(self.engine, state) if state["legal"] else None
        decided_by = self.seen.decided_by if self.seen is not None else None
        self.story_after, self.story = since.since(
            fetched.log, state["seat"], state["seq"], decided_by, last_seen
        )
        if self.seen is not None:
            self.seen.record(state)
        self._check_key()

    def _check_key(self) -> None:
        """Refuse, before anything is signed, a key that is not the seat's (when the
        game.json is at hand to say whose key the seat has)."""
        if self._checked_key or self.key is None or self.manifest is None:
            return
        from arbiter.core.ledger import read_json
        from arbiter.core.signing import public_key_of

        manifest = read_json(self.manifest, "game.json")
        seat = self.state["seat"]
        keys = {s.get("seat"): s.get("key") for s in manifest.get("seats", [])}
        expected = keys.get(seat)
        if isinstance(expected, str):
            mine = public_key_of(self.key).split()[:2]
            if mine != expected.split()[:2]:
                raise UsageError(
                    f"{self.key} is not the key registered for seat {seat}: use that seat's "
                    "key (the one whose .pub you gave the referee)"
                )
        self._checked_key = True

    def story_title(self) -> str:
        """How the lines of ``story`` are introduced: since the seat's last decision when
        that is known, else since the player last looked, else the latest entry."""
        if self.story_after is not None and self.seen is not None:
            if self.seen.decided_by(self.story_after) == self.state.get("seat"):
                return "Since you last decided:"
            if self.story_after == self._last_seen_before:
                return "Since you last looked:"
        return "Lately:"

    @property
    def seat(self) -> str:
        seat = self.state.get("seat") or self._seat
        if not isinstance(seat, str):
            raise UsageError("say which seat you play")
        return seat

    def can_join(self) -> bool:
        """Whether this session could sign a join (key, game.json and seat known)."""
        return (
            self.key is not None
            and self.manifest is not None
            and (isinstance(self.state.get("seat") or self._seat, str))
        )

    def my_turn(self) -> bool:
        return bool(self.state.get("legal"))

    def waiting_line(self) -> str | None:
        """Why this seat cannot decide now, in one line (``None``: it can)."""
        state = self.state
        if state["status"] == "over":
            return "the game is over: no more decisions"
        if state["status"] == "joining":
            if not state["waiting_for"]:  # a duplicate table (docs/duplicate.md)
                from arbiter.core.deal import AWAITING_DEAL

                return f"the game has not started: {AWAITING_DEAL}"
            waiting = ", ".join(state["waiting_for"])
            return f"the game has not started: it waits for joins from {waiting}"
        if state["legal"]:
            return None
        prompt = state["prompt"]
        when = f" at {self.fetched.time}" if self.fetched and self.fetched.time else ""
        return (
            f"not your turn: {prompt['seat']} decides ({prompt['kind']}) since entry "
            f"#{state['seq']}{when}"
        )

    def not_your_turn(self) -> OutOfTurn | None:
        line = self.waiting_line()
        return None if line is None else OutOfTurn(line)

    def timed_out(self) -> str | None:
        """The referee's timeout line for this seat since it last decided, if any."""
        found = timed_out_line(self.story, self.seat)
        if found is None:
            return None
        when = f" (entry #{found[0]})"
        return f"you did not decide in time{when}: {found[1]}"

    # -- the batch --------------------------------------------------------------------
    def menu(self) -> list[menus.Choice]:
        """The decisions the seat may add to the batch now, numbered."""
        if self.batch is None:
            return []
        view = self.batch.view() or self.state["view"]
        return menus.choices(self.engine, self.batch.legal(), view)

    def pick(self, typed: str | int) -> menus.Choice:
        """Add the decision a number or a name selects; return it."""
        if self.batch is None:
            raise self.not_your_turn() or UsageError("there is no decision to make now")
        if not self.batch.open:
            raise UsageError(
                f"the batch is complete ({self.batch.reason}): send it, or take back the "
                "last decision"
            )
        choice = menus.resolve(str(typed), self.menu())
        self.batch.pick(choice.action)
        return choice

    def undo(self) -> Action | None:
        return self.batch.undo() if self.batch is not None else None

    @property
    def picks(self) -> list[Action]:
        return self.batch.picks if self.batch is not None else []

    def pick_labels(self) -> list[str]:
        return [menus.choices(self.engine, [a])[0].label for a in self.picks]

    # -- sending ----------------------------------------------------------------------
    def send(self) -> Sent:
        """Sign the batch against the head it was built on and deliver it.

        Fetches first: if the game moved on, nothing is signed (``Moved``, with the lines
        of what happened; the session now holds the new state file).
        """
        from arbiter.core.player import make_move, move_refusal

        picks = self.picks
        if not picks:
            raise UsageError("pick at least one decision first")
        if self.key is None:
            raise UsageError("signing needs your key: pass it with --key")
        before = self._unmoved("read what happened and decide again")
        refusal = move_refusal(before, picks, self.engine)
        if refusal is not None:
            raise refusal
        move = make_move(before, self.key, picks)
        data = pretty(move)
        name = f"{self.seat}-{before['seq'] + 1}-{hashlib.sha256(data).hexdigest()[:8]}.json"
        return self._deliver(name, data, len(picks))

    def _deliver(self, name: str, data: bytes, decisions: int) -> Sent:
        """Keep the signed file in the outbox, then hand it to the transport (sealed to the
        referee first when the transport says so); out of the outbox once delivered."""
        path = self.outbox.put(name, data) if self.outbox is not None else None
        where = self.deliver_file(name, data)
        if path is not None and self.outbox is not None:
            self.outbox.sent(path)
        if self.batch is not None:
            self.batch = Batch(self.engine, self.state)
        return Sent(name, where, decisions)

    def deliver_file(self, name: str, data: bytes) -> str:
        """Deliver a signed file's plain bytes through the transport; one line back."""
        from arbiter.core.canonical import parse_strict
        from arbiter.core.errors import Duplicate

        if self.transport.sealed:
            from arbiter.core.player import seal_move

            if self.manifest is None:
                raise UsageError("a sealed game needs its game.json to seal the move")
            signed = parse_strict(data, name)
            data, name = seal_move(signed, self.manifest), name + ".age"
        try:
            return self.transport.deliver(name, data)
        except Duplicate as exc:
            # Sent before (an answer lost on the way back): the referee has it.
            at = f" as entry #{exc.entry}" if exc.entry is not None else ""
            return f"the referee already had {name}{at}"

    def _unmoved(self, then: str) -> dict[str, Any]:
        """The state file to sign against, once a fetch shows the game has not moved on;
        if it has, the session takes the new state file and ``Moved`` says what happened
        (``then``: what to do next) — nothing is signed."""
        before = self.state
        fresh = self.transport.fetch()
        moved = self._moved(fresh)
        if moved is not None:
            self._adopt(fresh, moved)
            raise Moved(
                f"the game moved on since your state file (entry #{before['seq']} → "
                f"#{self.state['seq']}): nothing was signed; {then}",
                [(n, line) for n, line in self.story if n > before["seq"]],
            )
        return before

    def send_life(self, kind: str, make: Callable[[dict[str, Any], Path], dict[str, Any]]) -> Sent:
        """Sign a resignation, an end proposal or an answer (``make(state, key)``,
        ``arbiter.core.life_files``) against the newest state file and deliver it.

        Fetches first, as ``send``: if the game moved on nothing is signed (``Moved``); a
        proposal answered after it lapsed would only be refused.
        """
        if self.key is None:
            raise UsageError("signing needs your key: pass it with --key")
        before = self._unmoved("read what happened first")
        data = pretty(make(before, self.key))
        digest8 = hashlib.sha256(data).hexdigest()[:8]
        return self._deliver(f"{self.seat}-{kind}-{before['seq'] + 1}-{digest8}.json", data, 0)

    def answer_due(self) -> dict[str, Any] | None:
        """The open end proposal that waits for this seat's answer, if any."""
        pending = self.state.get("pending") if self.state else None
        if pending is not None and self.state.get("seat") in pending["waiting_for"]:
            return dict(pending)
        return None

    def join(self) -> Sent:
        """Sign and deliver this seat's join file (the game waits for it)."""
        from arbiter.core.player import make_join

        if self.key is None or self.manifest is None:
            raise UsageError("joining needs your key (--key) and the game's game.json")
        seat = self.seat
        data = pretty(make_join(self.manifest, seat, self.key))
        return self._deliver(f"join-{seat}.json", data, 0)

    def refresh(self) -> bool:
        """Fetch again; return whether the head moved (the batch then starts afresh).
        No state file yet (a game waiting for joins by mail): ``False``."""
        try:
            fresh = self.transport.fetch()
        except NotReady:
            if self.state:
                raise
            return False
        return self.adopt(fresh)

    def adopt(self, fresh: Fetched) -> bool:
        """Take files fetched apart from this session (the page's background fetch, so a
        slow server does not hold up the page); return whether the head moved."""
        moved = self._moved(fresh)
        if moved is None:
            return False
        self._adopt(fresh, moved)
        return True

    # -- for the web page -------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Everything the page draws, as JSON (nothing the seat's state file does not
        hold, and no key material)."""
        batch = self.batch
        preview = batch.preview_file() if batch is not None and batch.picks else None
        return {
            "state": self.state,
            "preview": preview,
            "picks": self.pick_labels(),
            "open": bool(batch is not None and batch.open),
            "closed_because": batch.reason if batch is not None else None,
            "choices": [c.to_json() for c in self.menu()] if batch and batch.open else [],
            "story": [{"entry": n, "line": line} for n, line in self.story],
            "story_title": self.story_title() if self.state else None,
            "waiting": self.waiting_line(),
            "timed_out": self.timed_out(),
        }


def require_playing(session: Session) -> None:
    """Raise the one-line reason this seat cannot decide now (``NotReady``-free)."""
    line = session.waiting_line()
    if line is not None:
        raise OutOfTurn(line)


__all__ = ["Moved", "NotReady", "Sent", "Session", "require_playing"]
