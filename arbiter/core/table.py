"""Drive an engine through the chain's entries: the one replay shared by submit and verify.

A ``Table`` holds the live engine state of one game. The referee feeds it every accepted
file to rebuild the present before judging a new one; ``arbiter verify`` feeds it the
revealed files to re-derive every published byte. Both go through the same ordered
checks, so a file the referee accepted always replays.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable
from functools import cache
from typing import Any

from arbiter.core.clocks import fold_for
from arbiter.core.engine import Engine, Event, Outcome
from arbiter.core.entrylines import EntryLines
from arbiter.core.errors import (
    AlreadyJoined,
    BarrierCrossed,
    GameOver,
    IllegalAction,
    OutOfTurn,
    SchemaViolation,
)
from arbiter.core.life import Life, lapse, names, play_for_left
from arbiter.core.orders import Standing, observe
from arbiter.core.rng import Rng, derive_seed

# The random bot's choices on a timeout draw from their own stream, apart from the
# entry's stream the engine draws from (docs/rng.md): HMAC(seed, tag ‖ u64be(seq)).
TIMEOUT_BOT_TAG = b"arbiter-timeout-bot/1"
MAX_TIMEOUT_DECISIONS = 10_000
BotDecision = Callable[["Table", str, str, int, str, Rng], Any]
"""``decide(table, seat, level, seq, head, rng)``: the named bot's next decision for
``seat`` on a timeout (``views.bot_decision``: views depend on the table, not back)."""


@cache
def _action_validator(engine: Engine) -> Any:
    """The whole decision union: it explains a refusal (and judges an unsplittable one)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(engine.action_schema())


@cache
def _kind_shapes(engine: Engine) -> dict[str, Any]:
    """Per decision kind, that kind's branch of the engine's schema, compiled once."""
    from arbiter.core.kind_shapes import kind_shapes

    return kind_shapes(engine.action_schema())


# Decisions already found valid, per engine: validation is a pure function of the
# engine's schema and the decision, and replays repeat the same few decisions.
_VALID_SHAPES: dict[tuple[str, str], set[str]] = {}
# A process that judges few decisions (a submit, a verify of one game) need not load
# jsonschema, a third of its start-up: a decision the engine lists as legal now fits the
# schema (the conformance suite checks every listed decision against it). Listing costs
# more per decision than a compiled shape, so, as when renting skis before buying, a
# process lists for about as many decisions as loading jsonschema costs, then judges by
# the schema only (a replay of an archive).
_LISTED_FIRST = 1000
_listed_left: dict[tuple[str, str], int] = {}


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
        # A duplicate game (game.json ``deal``, arbiter.core.deal): its group's secret, which
        # whoever replays the game sets (the referee's copy, or the revealed one).
        self.deal_secret: bytes | None = None
        self.state: Any = None
        # A seat that forfeited on a timeout: the game is over, that seat ranked last.
        self.forfeited: str | None = None
        # Each seat's timeouts since its last move (a deadline's forfeit_after counts them).
        self.timeouts_in_a_row: dict[str, int] = {}
        # The referee replaying files it accepted itself (digest-checked) skips re-validating
        # decision shapes; verify and every new file are checked in full.
        self.trusted = trusted
        # Whose lines ``_narrate`` builds: the public ones and every seat's by default.
        self._narrated: list[str] = list(self.seats)
        self._viewers: list[str | None] = [None, *self.seats]
        # Resignations, an agreed end, handovers (arbiter.core.life).
        self.life = Life(manifest)
        # A clocked game's clocks (arbiter.core.clocks): folded by whoever knows each
        # entry's time (``clocks.step``), never by the table, which sees no time.
        self.clock = fold_for(manifest, self.seats)
        # Streams are keyed by the ply, the entry's place on the kept branch; it equals the
        # seq until a takeback (docs/game-life.md §3), so no game so far draws otherwise.
        self.ply_offset = 0
        # The signed files of the kept branch (seq, file, digest), for the rebuild after a
        # takeback (arbiter.core.takeback); kept only in games whose terms allow takebacks.
        self.kept: list[tuple[int, dict[str, Any], str]] | None = (
            [] if manifest.get("takebacks") == "consent" else None
        )
        # Standing orders being followed, per seat, and the seat whose order step is being
        # applied (arbiter.core.orders).
        self.orders: dict[str, Standing] = {}
        self.dropped_orders: dict[str, Standing] = {}
        self.stepping: str | None = None
        self._valid_shapes = _VALID_SHAPES.setdefault(
            (engine.info.name, engine.info.version), set()
        )

    # -- status --------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.state is not None

    def prompt(self) -> Any:
        if self.state is None or self.forfeited is not None or self.life.ended is not None:
            return None
        if self.life.resigned and len(self.life.playing(self.seats)) <= 1:
            return None
        return self.engine.prompt(self.state)

    def skip_ply(self) -> None:
        """The entry being applied draws nothing (a proposal, an answer, a handover, leave,
        standing orders…): the next entry draws from the stream this one would have had,
        so no such entry changes the cards a later decision draws (docs/rng.md §3)."""
        self.ply_offset += 1

    def ply(self, seq: int) -> int:
        """The stream number of chain entry ``seq`` (docs/game-life.md §3)."""
        return seq - self.ply_offset

    @property
    def narrated_seats(self) -> list[str]:
        """The seats whose log lines are built (``narrate_only``)."""
        return list(self._narrated)

    @property
    def over(self) -> bool:
        return self.started and self.prompt() is None

    def outcome(self) -> Outcome | None:
        """Return the result once the game is over (a forfeit ranks that seat last)."""
        if not self.over:
            return None
        life = self.life
        if life.ended == "abandon":
            return None
        if life.ended is not None or life.resigned:
            return self._outcome_with_leavers()
        if self.forfeited is None:
            return self.engine.outcome(self.state)
        seat = self.forfeited
        provisional = self.engine.provisional_outcome(self.state)
        others = [[s for s in group if s != seat] for group in provisional.ranking]
        return Outcome(
            scores=dict(provisional.scores),
            ranking=[group for group in others if group] + [[seat]],
            breakdown={k: dict(v) for k, v in provisional.breakdown.items()},
            tiebreak=f"{seat} forfeited on a timeout and is ranked last; the others by "
            "the score when the game ended.",
        )

    def _outcome_with_leavers(self) -> Outcome:
        """The result of a game some seats left, or that ended by agreement: the engine's
        scoring of the table as it stands (its final scoring if the game reached its end),
        then every seat that left, the latest to leave first (docs/game-life.md §1)."""
        life = self.life
        natural = self.engine.prompt(self.state) is None
        base = (self.engine.outcome(self.state) if natural else None) or (
            self.engine.provisional_outcome(self.state)
        )
        leavers = ([self.forfeited] if self.forfeited else []) + list(reversed(life.resigned))
        groups = [[s for s in group if s not in leavers] for group in base.ranking]
        said = []
        if life.ended == "score":
            said.append("The game ended by agreement, scored as it stood.")
        if len(life.resigned) == 1:
            said.append(f"{life.resigned[0]} resigned and is ranked last.")
        elif life.resigned:
            said.append(
                f"{names(list(reversed(life.resigned)))} resigned and are ranked last, the "
                "latest to leave first."
            )
        if self.forfeited:
            said.append(f"{self.forfeited} forfeited on a timeout and is ranked last.")
        if base.tiebreak:
            said.append(f"Ties among the others: {base.tiebreak}")
        return Outcome(
            scores=dict(base.scores),
            ranking=[group for group in groups if group] + [[seat] for seat in leavers],
            breakdown={k: dict(v) for k, v in base.breakdown.items()},
            tiebreak=" ".join(said),
        )

    @property
    def awaiting_deal(self) -> bool:
        """Every seat of a duplicate game has joined; it waits for the group's deal."""
        return (
            not self.started
            and self.manifest.get("deal") is not None
            and len(self.entropies) == len(self.seats)
        )

    def not_started(self) -> str:
        """What a game that has not started waits for, in words (for messages)."""
        if self.awaiting_deal:
            return f"it waits for the deal of duplicate group {self.manifest['deal']['group']}"
        return f"it waits for joins from {', '.join(self.waiting_for())}"

    def waiting_for(self) -> list[str]:
        """Return the seats the game waits for (joins, or the prompted seat; none while a
        duplicate game waits for its group's deal)."""
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
        if len(self.entropies) < len(self.seats):
            return lines
        terms = self.manifest.get("deal")
        if terms is None:
            self._setup(lines)
        else:
            lines.add_common(
                self.seats,
                f"Every seat has joined. This table plays duplicate group {terms['group']}: "
                f"it is dealt once every table of its duplicate round ({len(terms['games'])}) has joined.",
            )
        return lines

    def deal(self, record: dict[str, Any]) -> EntryLines:
        """Deal a duplicate game from the referee's ``deal`` record (arbiter.core.deal):
        the setup draws from stream 0 of the group's deal seed, later entries from the
        game's own seed."""
        from arbiter.core import deal
        from arbiter.core.canonical import digest

        if self.started:
            raise AlreadyJoined("the game is already dealt: nothing to do")
        if self.deal_secret is None:
            raise OutOfTurn("the group's secret is not at hand: only the referee's copy deals")
        entropies = deal.check(
            self.manifest, digest(self.manifest), self.entropies, record, not self.trusted
        )
        lines = EntryLines(seats={s: [] for s in self.seats})
        lines.add_common(
            self.seats,
            f"The deal of duplicate group {record['group']}: every table of the group gets "
            f"these same cards (the seed mixes the joins of {len(record['games'])} tables).",
        )
        self._setup(lines, deal.deal_seed(self.deal_secret, record["group"], entropies))
        return lines

    def move(self, seq: int, seat: str, actions: list[dict[str, Any]]) -> EntryLines:
        """Check and apply a batch of decisions for chain entry ``seq``: all or none.

        Raises on the first problem; the caller discards this table on error. Messages
        use only what ``seat`` can see.
        """
        if self.state is None:
            raise OutOfTurn(f"the game has not started: {self.not_started()}")
        assert self.seed is not None
        rng = Rng.for_entry(self.seed, self.ply(seq))
        engine, state = self.engine, self.state
        events: list[Event] = []
        last = len(actions) - 1
        for index, action in enumerate(actions):
            prompt = engine.prompt(state)
            if prompt is None or prompt.seat != seat:
                raise self._out_of_turn(prompt, seat, index)
            if not self.trusted:
                self._check_shape(action, index, seat)
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
        self.timeouts_in_a_row[seat] = 0
        if self.life.pending is None and not self.life.resigned:
            lines = self._narrate(events)
        else:
            lines = EntryLines(seats={s: [] for s in self._narrated})
            lapse(self, lines, f"{seat} moved")
            lines.extend(self._narrate(events))
            play_for_left(self, seq, rng, lines)
        if self.orders:
            observe(self, seq, seat, actions, lines)
        return lines

    def timeout(
        self,
        seq: int,
        seat: str,
        policy: str,
        bot: str | None,
        head: str = "",
        recorded: list[dict[str, Any]] | None = None,
        *,
        decide: BotDecision,
    ) -> tuple[EntryLines, list[dict[str, Any]]]:
        """Apply a timeout policy for ``seat`` as chain entry ``seq``; return the lines and
        the decisions taken for it (docs/tournaments.md).

        ``pass`` takes the engine's default decision and ``bot`` the named bot's, from
        what the seat's own state file holds (its legal decisions; the greedy and search
        bots its whole state file at ``head``, the head it waited at), while the game still
        waits for that seat; ``forfeit`` ends the game with the seat ranked last.
        ``recorded``: the referee rebuilding its own accepted entries applies the recorded
        decisions instead of deciding again (a search bot takes a while); ``arbiter
        verify`` always decides again and compares. ``decide`` takes a named bot's
        decision (``views.bot_decision``: the table knows no state file).
        """
        prompt = self.prompt()
        if prompt is None or prompt.seat != seat:
            raise OutOfTurn(f"the game does not wait for {seat}: nothing times out")
        assert self.seed is not None
        self.timeouts_in_a_row[seat] = self.timeouts_in_a_row.get(seat, 0) + 1
        self.life.reasons[seq] = seat
        lines = EntryLines(seats={s: [] for s in self.seats})
        lapse(self, lines, f"{seat} timed out")
        if policy == "forfeit":
            self.forfeited = seat
            lines.add_common(
                self.seats, f"{seat} did not decide in time and forfeits: the game ends."
            )
            return lines, []
        told = "the referee takes the default decision" if policy == "pass" else (
            f"the {bot} bot decides from {seat}'s view"
        )
        lines.add_common(self.seats, f"{seat} did not decide in time: {told}.")
        rng = Rng.for_entry(self.seed, self.ply(seq))
        choices = Rng(hmac.digest(self.seed, TIMEOUT_BOT_TAG + seq.to_bytes(8, "big"), "sha256"))
        engine, state = self.engine, self.state
        actions: list[dict[str, Any]] = []
        events: list[Event] = []
        while (now := engine.prompt(state)) is not None and now.seat == seat:
            if len(actions) >= MAX_TIMEOUT_DECISIONS:
                raise IllegalAction(f"the {policy} policy did not end {seat}'s turn")
            if recorded is not None:
                if len(actions) >= len(recorded):
                    raise IllegalAction(f"the recorded timeout did not end {seat}'s turn")
                action = recorded[len(actions)]
            elif policy == "pass":
                action = engine.default_action(state, seat)
            elif bot in (None, "random"):
                action = choices.choice(engine.legal_actions(state, seat))
            else:
                action = decide(self, seat, bot, seq, head, choices)
            engine.check(state, seat, action)
            events.extend(engine.apply(state, seat, action, rng))
            actions.append(action)
        lines.extend(self._narrate(events))
        play_for_left(self, seq, rng, lines)
        if self.orders:
            observe(self, seq, seat, actions, lines)
        return lines, actions

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
    def _check_shape(self, action: dict[str, Any], index: int, seat: str) -> None:
        """Validate a decision against the engine's schema (memoised: replays repeat them).

        The message names the nearest of ``seat``'s legal decisions' names: they are in its
        own state file, so they tell it nothing hidden.
        """
        # repr is a cheap, exact key: equal reprs mean equal decisions (a different key
        # order only costs a cache miss).
        key = repr(action)
        if key in self._valid_shapes:
            return
        if self._listed(action, seat):
            self._valid_shapes.add(key)
            return
        kind = action.get("kind") if isinstance(action, dict) else None
        branch = _kind_shapes(self.engine).get(kind) if isinstance(kind, str) else None
        # Only the branch the decision's kind names can accept it (kind_shapes.by_kind). A
        # refusal, or a kind no branch names, is judged and explained by the whole union,
        # so its message is the one the union gives: refusals are rare, slow is fine there.
        errors = (
            ()
            if branch is not None and branch.is_valid(action)
            else list(_action_validator(self.engine).iter_errors(action))
        )
        if errors:
            from arbiter.core.schemas import DECISION, explain, names_of

            names = names_of(self.engine.legal_actions(self.state, seat))
            said = explain(errors, self.engine.action_schema(), names, DECISION)
            raise SchemaViolation(f"action {index + 1}: {said}")
        if len(self._valid_shapes) < 65536:
            self._valid_shapes.add(key)

    def _listed(self, action: Any, seat: str) -> bool:
        """Whether ``action`` is one of ``seat``'s listed decisions now (the first few
        decisions a process judges only: ``_LISTED_FIRST``)."""
        engine = (self.engine.info.name, self.engine.info.version)
        left = _listed_left.get(engine, _LISTED_FIRST)
        if left <= 0:
            return False
        _listed_left[engine] = left - 1
        legal = self.engine.legal_actions(self.state, seat)
        # Python's == takes 1, 1.0 and true for one another; JSON text does not, nor the schema.
        return any(
            listed == action
            and json.dumps(listed, sort_keys=True) == json.dumps(action, sort_keys=True)
            for listed in legal
        )

    def _setup(self, lines: EntryLines, dealt: bytes | None = None) -> None:
        """Derive the game's seed and set the game up from stream 0 of it, or of ``dealt``,
        a duplicate group's deal seed (arbiter.core.deal)."""
        entropies = [self.entropies[s] for s in self.seats] if self.manifest["join"] else []
        self.seed = derive_seed(self.secret, self.game, entropies)
        self.state, events = self.engine.setup(
            self.manifest["options"], list(self.seats), Rng.for_entry(dealt or self.seed, 0)
        )
        lines.extend(self._narrate(events))

    def narrate_only(self, seats: list[str]) -> None:
        """Narrate from now on the public lines and only ``seats``' own lines.

        ``arbiter verify`` of a sealed game compares the logs it can open, and no other
        seat's: building lines nobody reads would only cost time. The lines of a seat
        left out are absent from ``EntryLines.seats``; those narrated are unchanged.
        """
        self._narrated = [s for s in self.seats if s in seats]
        self._viewers = [None, *self._narrated]

    def narrate(self, events: list[Event]) -> EntryLines:
        """Each narrated reader's lines for ``events`` (arbiter.core.life uses it)."""
        return self._narrate(events)

    def _narrate(self, events: list[Event]) -> EntryLines:
        lines = EntryLines()
        if not events:
            lines.seats = {seat: [] for seat in self._narrated}
            return lines
        viewers = self._viewers
        describe_all = self.engine.describe_all
        told = [describe_all(event, viewers) for event in events]
        public = lines.public = [text for row in told if (text := row[0]) is not None]
        width = len(viewers)
        # Most events read the same for every viewer (``describe_all`` then returns one
        # line repeated): when all do, every seat's lines are the public ones, copied.
        if all(row.count(row[0]) == width for row in told):
            lines.seats = {seat: public.copy() for seat in self._narrated}
            return lines
        for index, seat in enumerate(self._narrated, start=1):
            lines.seats[seat] = [text for row in told if (text := row[index]) is not None]
        return lines
