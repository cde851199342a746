"""The engine protocol: one small, identical shape for every game (DESIGN.md).

Engines import ``arbiter.core`` only, and the core never imports an engine: the
registry maps names to engines. State is the engine's own plain data; everything that
crosses the boundary (actions, views, events, outcomes) is JSON-able with integers only.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from arbiter.core.errors import IllegalAction, SchemaViolation
from arbiter.core.hidden import Disclosure
from arbiter.core.rng import Rng

if TYPE_CHECKING:
    from pathlib import Path

    from arbiter.core.viewtypes import ViewType


class ImpossibleView(ValueError):
    """``determinize`` met a view whose zones and counts no game could show (more cards
    counted than are left to deal, a deck count its cards contradict)."""


VIEW_CHECK_SEED = b"arbiter-view-check/1"
"""Seeds the one rebuild ``Engine.view_problem`` makes (any fixed stream would do)."""

JSON = Any
Action = dict[str, Any]


@dataclass(frozen=True)
class OptionInfo:
    """One ``--option K=V`` an engine accepts."""

    name: str
    description: str
    default: str


@dataclass(frozen=True)
class EngineInfo:
    """What ``arbiter games`` shows and what the referee checks before setup."""

    name: str
    title: str
    version: str
    min_seats: int
    max_seats: int
    hidden_information: bool = True
    chance: bool = True
    options: tuple[OptionInfo, ...] = ()
    notes: tuple[str, ...] = ()
    """Plain warnings for users, e.g. that a card table is provisional."""
    score_columns: tuple[str, ...] = ()
    """The result table's columns in order: every key an outcome's breakdown may hold.

    State files store the breakdown as canonical JSON (keys sorted), so the column order
    of a log's result table must come from here to be rebuilt from public files alone.
    Keys not listed follow in alphabetical order.
    """


@dataclass(frozen=True)
class Prompt:
    """Who must decide now and what kind of decision is expected (all public).

    ``detail`` may carry a ``"hint"``: one sentence for the player, shown by ``arbiter moves``
    (useful when ``legal_actions`` lists only a sample of the legal decisions).
    """

    seat: str
    kind: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "detail": dict(self.detail)}


@dataclass
class Event:
    """Something that happened, narrated per viewer by ``Engine.describe``.

    ``data`` may hold hidden details (a drawn card); only ``describe`` decides who reads
    them. ``barrier`` marks events that reveal something new to the acting seat (a card
    turned up, an opponent's reveal): a batch must stop after the action that caused one.
    Whether an event is a barrier must follow from what the acting seat can see (that a
    card was drawn), never from the hidden content (which card).
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    barrier: bool = False


@dataclass(frozen=True)
class Undone:
    """One chain entry a takeback would undo, as the engine judges it (docs/game-life.md §4).

    ``shown[i]`` lists the seats that learned something new from ``events[i]``: for a
    barrier event, the seats whose log line differs from the public one (a card shown
    to them only), or every seat that reads it when all read the same (a card turned up
    for all); nobody for the other events.
    """

    seq: int
    seat: str
    actions: list[Action]
    events: list[Event]
    shown: list[tuple[str, ...]]


@dataclass
class Outcome:
    """The result: scores with a breakdown, the ranking with ties, the winners."""

    scores: dict[str, int]
    ranking: list[list[str]]
    breakdown: dict[str, dict[str, int]] = field(default_factory=dict)
    tiebreak: str | None = None

    @property
    def winners(self) -> list[str]:
        return list(self.ranking[0]) if self.ranking else []

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": dict(self.scores),
            "ranking": [list(group) for group in self.ranking],
            "winners": self.winners,
            "breakdown": {seat: dict(parts) for seat, parts in self.breakdown.items()},
            "tiebreak": self.tiebreak,
        }


def rank_by_score(scores: Mapping[str, int], seat_order: list[str]) -> list[list[str]]:
    """Group seats by descending score; ties share a place, in seat order."""
    groups: dict[int, list[str]] = {}
    for seat in seat_order:
        groups.setdefault(scores[seat], []).append(seat)
    return [groups[score] for score in sorted(groups, reverse=True)]


class Engine(ABC):
    """Base class of every game engine; subclasses fill in the abstract methods.

    ``apply`` may assume ``check`` passed and mutates ``state`` in place. Every method is
    deterministic: randomness comes only from the ``Rng`` passed in.
    """

    info: ClassVar[EngineInfo]
    legal_actions_complete: ClassVar[bool] = True
    """False when ``legal_actions`` lists only a sample (e.g. capped bids); ``check`` stays exact."""
    peer: ClassVar[bool] = False
    """True once the engine keeps the contract of peer games (docs/peer.md §3): its
    catalogue raises ``Hidden``, its state never sorts hidden cards, ``disclose`` and
    ``claims`` say what a decision shows and keeps. Only such an engine is played with no
    referee (``arbiter peer new`` refuses the others)."""

    # -- options -------------------------------------------------------------------
    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """Turn ``--option K=V`` strings into the JSON options stored in the manifest.

        Anything a replay needs (e.g. a loaded card table) must be embedded, not referred
        to by path. Raise ``UsageError`` for an unknown or bad option.
        """
        from arbiter.core.errors import UsageError

        known = {o.name for o in self.info.options}
        for key in raw:
            if key not in known:
                names = ", ".join(sorted(known)) or "none"
                raise UsageError(f"unknown option {key!r} for {self.info.name} (options: {names})")
        return {o.name: raw.get(o.name, o.default) for o in self.info.options}

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise ``SchemaViolation`` if manifest options are not ones this engine made."""
        known = {o.name for o in self.info.options}
        unknown = sorted(set(options) - known)
        if unknown:
            raise SchemaViolation(f"manifest has unknown options {unknown} for {self.info.name}")

    def check_seats(self, options: Mapping[str, Any], seats: int) -> None:  # noqa: B027 (optional hook)
        """Raise ``UsageError`` if the options do not fit this many seats (e.g. team play).

        Called by ``arbiter new`` after the seat range check, so a game that cannot be set
        up is refused before anyone joins.
        """

    # -- the game ------------------------------------------------------------------
    @abstractmethod
    def setup(
        self, options: Mapping[str, Any], seats: list[str], rng: Rng
    ) -> tuple[Any, list[Event]]:
        """Return the initial state and the setup events."""

    @abstractmethod
    def prompt(self, state: Any) -> Prompt | None:
        """Return who must decide now; ``None`` once the game is over."""

    @abstractmethod
    def legal_actions(self, state: Any, seat: str) -> list[Action]:
        """Return the seat's legal decisions now (finite, small; [] if not its turn)."""

    @abstractmethod
    def check(self, state: Any, seat: str, action: Action) -> None:
        """Raise ``IllegalAction`` (with the rule it breaks) unless the decision is legal.

        The message may only use what ``seat`` can see.
        """

    @abstractmethod
    def apply(self, state: Any, seat: str, action: Action, rng: Rng) -> list[Event]:
        """Apply a checked decision in place and return what happened."""

    @abstractmethod
    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """Return what ``seat`` may know (``None``: a spectator).

        It must include everything the seat's log lines have told it that still matters
        (e.g. a revealed card that went back into a hand): resampling relies on it.
        """

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """Return the final result once the game is over, else ``None``."""

    @abstractmethod
    def describe(self, event: Event, viewer: str | None) -> str | None:
        """Return the log line ``viewer`` reads for ``event`` (``None``: nothing to say)."""

    def describe_all(self, event: Event, viewers: list[str | None]) -> list[str | None]:
        """Return ``describe(event, v)`` for each viewer, in order.

        Override to narrate a viewer-independent event once (replays narrate every event
        for every seat); the conformance suite checks the override agrees with ``describe``.
        """
        return [self.describe(event, viewer) for viewer in viewers]

    @abstractmethod
    def action_schema(self) -> dict[str, Any]:
        """Return the JSON Schema of one decision (a tagged union on ``kind``)."""

    # -- deadlines (DESIGN.md "Time enters at the edge", docs/tournaments.md) ------------
    def default_action(self, state: Any, seat: str) -> Action:
        """Return the decision a seat that missed its deadline takes under the ``pass``
        policy: the engine's declared default for the prompt it faces (a legal decision,
        the most passive one the rules allow). Its ruling is in docs/rulings/<game>.md.
        """
        raise NotImplementedError(f"{self.info.name} declares no default decision")

    def leave(self, state: Any, seat: str) -> list[Event]:
        """A seat resigned and the game goes on without it (docs/game-life.md §1): change
        the state as the engine's ruling says and return what happened. The core then takes
        the default decision for it whenever it would decide. Default: nothing changes."""
        return []

    def takeback_allowed(self, state: Any, seat: str, undone: list[Undone]) -> str | None:
        """Whether ``seat`` may take back the ``undone`` entries (``state``: the table at
        the entry the kept branch resumes after); the reason when it may not.

        A redo draws the same cards (the streams do not move, docs/rng.md), so the default
        refuses a takeback across a card shown only to the requester: it would redo its
        turn knowing what comes. A card shown to others is allowed: those seats must
        accept (the core asks them). Each engine's ruling says which takebacks it allows.
        """
        for entry in undone:
            for event, seats in zip(entry.events, entry.shown, strict=True):
                if seats == (seat,):
                    return (
                        f"entry #{entry.seq} showed {seat} something only {seat} saw "
                        f"({event.kind}): a redo would draw the same, so it cannot be taken back"
                    )
        return None

    def provisional_outcome(self, state: Any) -> Outcome:
        """Return the result as if the game ended now, scored as the final scoring would
        count the present table (a forfeit ends a game early with it; the forfeiting seat
        is then ranked last by the core)."""
        raise NotImplementedError(f"{self.info.name} cannot score an unfinished game")

    # -- peer play (docs/peer.md §3.5) ----------------------------------------------
    def disclose(
        self,
        shared: Any,
        seat: str,
        action: Action,
        known: Mapping[str, str],
        order: Sequence[str] | None = None,
    ) -> Disclosure:
        """Turn a decision ``seat`` made on its private state into the one every machine
        applies to the ``shared`` state of a peer game (``known``: the placeholders the
        seat has opened, with their faces; ``order``: the seat's random preference among
        its placeholders, for ``Holdings``). The engine knows which cards a decision takes
        from the seat's hidden zones (``Holdings``) and which of them stay hidden.
        Default: decisions name no hidden card (an engine whose hidden cards are only a
        deck's order, such as Mot Coin)."""
        return Disclosure(dict(action))

    def claims(self, state: Any, seat: str, action: Action) -> dict[str, list[str]]:
        """For each placeholder a public decision names (``Disclosure.kept``), the faces
        it may be, from the shared ``state``: the seat proves its card is one of them
        without saying which (docs/peer.md §4.1, the one-of proof). Default: none."""
        return {}

    def passes(self, state: Any, seat: str, action: Action) -> dict[str, str]:
        """The hidden cards a public decision moves from one seat's hand to another's
        (placeholder → the seat it goes to), read from the shared ``state`` alone: each is
        re-encrypted by its holder to the recipient's key, with a proof (docs/peer-mottainai.md
        §3.7). Default: none."""
        return {}

    def preshares(self, state: Any) -> dict[str, tuple[str, ...]]:
        """Hidden cards of the shared ``state`` certain to be opened to everyone later, each
        with the seats that hold back their share until then (the others send theirs with
        their next message, so the opening costs no round of its own; docs/peer-mottainai.md
        §3.6). Default: none."""
        return {}

    def hands(self, state: Any, seat: str) -> list[list[str]]:
        """The lists of ``state`` that hold ``seat``'s hidden hand, themselves (not copies):
        where the peer layer turns a card everyone saw back into a placeholder before the
        seat returns it face down (``Disclosure.concealed``, docs/peer-mottainai.md §3.3).
        Default: none (an engine whose decisions never conceal a card)."""
        return []

    # -- state as data -------------------------------------------------------------
    @abstractmethod
    def encode(self, state: Any) -> JSON:
        """Return the state as plain JSON data (no floats, no sets)."""

    @abstractmethod
    def decode(self, data: JSON) -> Any:
        """Rebuild a state from ``encode``'s output."""

    def copy(self, state: Any) -> Any:
        """Return an independent copy of a state (the bots copy states thousands of times
        per decision; an engine may do it faster than through JSON, with the same result)."""
        return self.decode(self.encode(state))

    # -- tests and tools -----------------------------------------------------------
    @abstractmethod
    def resample(self, state: Any, seat: str, rng: Rng) -> Any:
        """Return a copy with everything ``seat`` cannot see redrawn consistently.

        Used by the resample leak test: the seat's view must not change.
        """

    def determinize(
        self,
        view: Mapping[str, Any],
        seat: str,
        rng: Rng,
        prompt: Mapping[str, Any] | None = None,
    ) -> Any:
        """Return a full state consistent with exactly what ``view`` shows ``seat``.

        ``view`` is ``self.view(state, seat)`` of some state the caller does not have (a
        player's state file holds only it). Everything the view shows is kept, so
        ``view(determinize(view, seat, rng), seat) == view``; everything it hides (other
        hands, the deck's order, buried cards) is drawn with ``rng`` from what ``seat``
        cannot see. Bots search over such states (docs/bots.md); unlike ``resample`` it
        needs no full state to start from. ``prompt`` is the state file's prompt (public),
        when the caller has it: it may pin a pending sub-decision the view does not show.
        Engines without this hook get only the random bot.
        """
        raise NotImplementedError(f"{self.info.name} cannot rebuild a state from a view")

    def order_matters(self, before: Any, after: Any, seat: str) -> bool:
        """Return whether ``seat``'s view of ``after`` (a rebuilt world after one of the
        seat's decisions) may depend on where known cards lie among hidden ones, an order
        ``determinize`` cannot rebuild from a view. It must follow from what the seat
        knows (that a card was taken), never from which card. ``arbiter play``'s preview
        does not draw such a view (docs/player-desk.md). Default: views never do."""
        return False

    def view_type(self) -> ViewType | None:
        """Return the exact type of ``view``'s output (``arbiter.core.viewtypes``), from
        which ``view_schema`` is generated (``python -m arbiter.core.schemas``)."""
        return None

    def view_schema(self) -> Path | None:
        """Return the committed JSON Schema of ``view`` (``arbiter.core.viewcheck``): a
        state file's view is checked against it before the engine reads one. ``None``:
        views are not checked (an engine without a view type)."""
        return None

    def view_problem(self, state_file: Mapping[str, Any]) -> str | None:
        """Return what makes a state file's view impossible, in a few words (``None``: it
        is one this engine could have written for the file's reader).

        Called once the view has ``view_type``. An engine checks first what its
        ``determinize`` and ``render`` rely on but a schema cannot say (counts against
        lists, a card in two places, the seats against the state file's), then calls this
        base, which rebuilds a state from the view (``determinize``, a fixed stream) and
        asks that it shows the very same view and keeps the engine's invariants.
        Messages name places, never values: the file is untrusted.
        """
        seat, view = state_file["seat"], state_file["view"]
        if seat is None or view is None:
            return None
        try:
            rebuilt = self.determinize(view, seat, Rng(VIEW_CHECK_SEED), state_file["prompt"])
        except NotImplementedError:
            return None
        except ImpossibleView as exc:
            return str(exc)
        if self.view(rebuilt, seat) != view:
            return "no game shows this view: its zones and counts do not add up"
        try:
            self.invariants(rebuilt)
        except AssertionError:
            return "its cards do not add up"
        return None

    def invariants(self, state: Any) -> None:  # noqa: B027 (optional hook)
        """Raise ``AssertionError`` if the state breaks a conservation rule."""

    def label(self, action: Action) -> str:
        """Return a short human label for a decision (``arbiter moves``)."""
        parts = [f"{k}={v}" for k, v in sorted(action.items()) if k != "kind"]
        return " ".join([str(action.get("kind", "?")), *parts])

    def render(self, view: Mapping[str, Any], seat: str | None) -> list[str]:
        """Return readable lines for ``arbiter show`` (default: none, a generic tree is used)."""
        return []


def reject(message: str, rule: str | None = None) -> IllegalAction:
    """Build the error ``check`` raises; ``rule`` cites the rule or ruling."""
    return IllegalAction(message, rule=rule)
