"""Drive an engine through the chain's entries: the one replay shared by submit and verify.

A ``Table`` holds the live engine state of one game. The referee feeds it every accepted
file to rebuild the present before judging a new one; ``arbiter verify`` feeds it the
revealed files to re-derive every published byte. Both go through the same ordered
checks, so a file the referee accepted always replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from arbiter.core.engine import Engine, Event
from arbiter.core.errors import (
    AlreadyJoined,
    BarrierCrossed,
    GameOver,
    IllegalAction,
    OutOfTurn,
    SchemaViolation,
)
from arbiter.core.rng import Rng, derive_seed


@dataclass
class EntryLines:
    """The log lines one entry produced: public ones and each seat's own view of them."""

    public: list[str] = field(default_factory=list)
    seats: dict[str, list[str]] = field(default_factory=dict)

    def add_common(self, seats: list[str], text: str) -> None:
        """Add a referee line that every reader sees alike (creation, joins)."""
        self.public.append(text)
        for seat in seats:
            self.seats.setdefault(seat, []).append(text)

    def extend(self, other: EntryLines) -> None:
        self.public.extend(other.public)
        for seat, lines in other.seats.items():
            self.seats.setdefault(seat, []).extend(lines)


@cache
def _action_validator(engine: Engine) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(engine.action_schema())


# Decisions already found valid, per engine: validation is a pure function of the
# engine's schema and the decision, and replays repeat the same few decisions.
_VALID_SHAPES: dict[tuple[str, str], set[str]] = {}


class Table:
    """One game being replayed: manifest facts, the secret, and the engine state."""

    def __init__(
        self, manifest: dict[str, Any], engine: Engine, secret: bytes, trusted: bool = False
    ):
        self.manifest = manifest
        self.engine = engine
        self.secret = secret
        self.game: str = manifest["game"]
        self.seats: list[str] = [s["seat"] for s in manifest["seats"]]
        self.entropies: dict[str, bytes] = {}
        self.seed: bytes | None = None
        self.state: Any = None
        # The referee replaying files it accepted itself (digest-checked) skips re-validating
        # decision shapes; verify and every new file are checked in full.
        self.trusted = trusted
        self._valid_shapes = _VALID_SHAPES.setdefault(
            (engine.info.name, engine.info.version), set()
        )

    # -- status --------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.state is not None

    def prompt(self) -> Any:
        return None if self.state is None else self.engine.prompt(self.state)

    @property
    def over(self) -> bool:
        return self.started and self.prompt() is None

    def waiting_for(self) -> list[str]:
        """Return the seats the game waits for (joins, or the prompted seat)."""
        if not self.started:
            return [s for s in self.seats if s not in self.entropies]
        prompt = self.prompt()
        return [] if prompt is None else [prompt.seat]

    # -- entries -------------------------------------------------------------------
    def genesis(self) -> EntryLines:
        """Open the game; set it up at once when no joins are required."""
        names = ", ".join(self.seats)
        engine = self.manifest["engine"]
        lines = EntryLines(seats={seat: [] for seat in self.seats})
        lines.add_common(
            self.seats,
            f"Game {self.game} created: {engine['name']} {engine['version']} for {names}.",
        )
        if self.manifest["join"]:
            lines.add_common(self.seats, "Waiting for every seat to join with fresh entropy.")
        else:
            self._setup(lines)
        return lines

    def join(self, seat: str, entropy: bytes) -> EntryLines:
        """Record a seat's entropy; set the game up when the last seat has joined."""
        if not self.manifest["join"]:
            raise AlreadyJoined("this game was created with --no-join: it needs no join files")
        if seat in self.entropies:
            raise AlreadyJoined(f"seat {seat} has already joined this game: nothing to do")
        self.entropies[seat] = entropy
        lines = EntryLines(seats={s: [] for s in self.seats})
        lines.add_common(self.seats, f"{seat} joined.")
        if len(self.entropies) == len(self.seats):
            self._setup(lines)
        return lines

    def move(self, seq: int, seat: str, actions: list[dict[str, Any]]) -> EntryLines:
        """Check and apply a batch of decisions for chain entry ``seq``: all or none.

        Raises on the first problem; the caller discards this table on error. Messages
        use only what ``seat`` can see.
        """
        if self.state is None:
            waiting = ", ".join(self.waiting_for())
            raise OutOfTurn(f"the game has not started: it waits for joins from {waiting}")
        assert self.seed is not None
        rng = Rng.for_entry(self.seed, seq)
        engine, state = self.engine, self.state
        events: list[Event] = []
        last = len(actions) - 1
        for index, action in enumerate(actions):
            prompt = engine.prompt(state)
            if prompt is None or prompt.seat != seat:
                raise self._out_of_turn(prompt, seat, index)
            if not self.trusted:
                self._check_shape(action, index)
            try:
                engine.check(state, seat, action)
            except IllegalAction as exc:
                rule = f" [{exc.rule}]" if exc.rule else ""
                raise IllegalAction(
                    f"action {index + 1} ({action.get('kind')}): {exc.message}{rule}", exc.rule
                ) from None
            produced = engine.apply(state, seat, action, rng)
            if index < last and any(event.barrier for event in produced):
                raise BarrierCrossed(
                    f"the batch must stop after action {index + 1} ({action.get('kind')}): "
                    "it reveals new information; send the rest in a new move file "
                    "against the new head"
                )
            events.extend(produced)
        return self._narrate(events)

    @staticmethod
    def _out_of_turn(prompt: Any, seat: str, index: int) -> Exception:
        """Return the error for a decision ``seat`` may not take now (action ``index``)."""
        if prompt is None:
            if index == 0:
                return GameOver("the game is over: no more moves are accepted")
            return BarrierCrossed(
                f"the game ended after action {index}: remove the actions after it"
            )
        if index == 0:
            return OutOfTurn(f"it is {prompt.seat}'s turn to decide ({prompt.kind}), not {seat}'s")
        return BarrierCrossed(
            f"the batch must stop after action {index}: {prompt.seat} decides next"
        )

    # -- internals -----------------------------------------------------------------
    def _check_shape(self, action: dict[str, Any], index: int) -> None:
        """Validate a decision against the engine's schema (memoised: replays repeat them)."""
        # repr is a cheap, exact key: equal reprs mean equal decisions (a different key
        # order only costs a cache miss).
        key = repr(action)
        if key in self._valid_shapes:
            return
        errors = list(_action_validator(self.engine).iter_errors(action))
        if errors:
            error = min(errors, key=lambda e: len(e.path))
            raise SchemaViolation(f"action {index + 1}: {error.message[:160]}")
        if len(self._valid_shapes) < 65536:
            self._valid_shapes.add(key)

    def _setup(self, lines: EntryLines) -> None:
        entropies = [self.entropies[s] for s in self.seats] if self.manifest["join"] else []
        self.seed = derive_seed(self.secret, self.game, entropies)
        self.state, events = self.engine.setup(
            self.manifest["options"], list(self.seats), Rng.for_entry(self.seed, 0)
        )
        lines.extend(self._narrate(events))

    def _narrate(self, events: list[Event]) -> EntryLines:
        lines = EntryLines()
        viewers: list[str | None] = [None, *self.seats]
        told = [self.engine.describe_all(event, viewers) for event in events]
        lines.public = [text for row in told if (text := row[0]) is not None]
        for index, seat in enumerate(self.seats, start=1):
            lines.seats[seat] = [text for row in told if (text := row[index]) is not None]
        return lines
