"""An all-knowing stand-in for the peer protocol (docs/peer.md §3, step 4): it plays a game
on a peer game's **shared state** — placeholders for every card not everyone knows — and,
where a step raises ``Hidden`` or a view shows a placeholder, it opens that card from the
true deck orders of a referee run of the same game, as the players' shares would. No
cryptography: what it checks is the engine contract, that a peer table shows every reader
exactly what the referee would have."""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from dataclasses import dataclass, field
from typing import Any

from arbiter.core.engine import Engine, Event
from arbiter.core.hidden import (
    PLACEHOLDER,
    Fact,
    Facts,
    Hidden,
    PeerRng,
    placeholder,
    placeholders,
    private_state,
    substitute,
)
from arbiter.core.rng import Rng
from arbiter.peer.arrival import Arrival


class RecordingRng(Rng):
    """The referee's generator, keeping each shuffle's resulting order (the true decks)."""

    def __init__(self, key: bytes, orders: list[list[str]]):
        super().__init__(key)
        self.orders = orders

    def shuffle(self, items: MutableSequence[Any]) -> None:
        super().shuffle(items)
        self.orders.append(list(items))


@dataclass
class RefereeRun:
    """A whole game played by a seeded chooser: its states, events and decisions."""

    orders: list[list[str]] = field(default_factory=list)
    steps: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    views: list[dict[str | None, Any]] = field(default_factory=list)
    told: list[list[str | None]] = field(default_factory=list)
    """Each step's public narration."""
    logs: list[dict[str, list[str | None]]] = field(default_factory=list)
    """Each step's narration as each seat reads it."""
    events: list[list[Any]] = field(default_factory=list)


def referee_run(
    engine: Engine, options: dict[str, Any], seats: list[str], seed: int, limit: int = 5000
) -> RefereeRun:
    run = RefereeRun()
    state, events = engine.setup(options, seats, RecordingRng(bytes([seed]) * 32, run.orders))
    chooser = Rng(bytes([seed, 1]) * 16)
    _observe(run, engine, state, events, seats, lambda s, _seat: s, lambda event, _seat: event)
    for step in range(limit):
        prompt = engine.prompt(state)
        if prompt is None:
            break
        action = chooser.choice(engine.legal_actions(state, prompt.seat))
        rng = RecordingRng(bytes([seed]) + step.to_bytes(8, "big") + bytes(23), run.orders)
        events = engine.apply(state, prompt.seat, action, rng)
        run.steps.append((prompt.seat, action))
        _observe(run, engine, state, events, seats, lambda s, _seat: s, lambda event, _seat: event)
    return run


def _observe(
    run: RefereeRun,
    engine: Engine,
    state: Any,
    events: list[Any],
    seats: list[str],
    private: Callable[[Any, str | None], Any],
    known: Callable[[Event, str | None], Event],
) -> None:
    run.views.append({seat: engine.view(private(state, seat), seat) for seat in [None, *seats]})
    run.told.append([engine.describe(known(event, None), None) for event in events])
    run.logs.append(
        {seat: [engine.describe(known(event, seat), seat) for event in events] for seat in seats}
    )
    run.events.append(events)


@dataclass
class PeerTable:
    """The shared state, the cards opened to everyone, and what each seat alone knows."""

    engine: Engine
    truth: list[list[str]]
    opened: dict[str, str] = field(default_factory=dict)
    own: dict[str, dict[str, str]] = field(default_factory=dict)
    decks: int = 0
    state: Any = None
    openings: int = 0
    kept: list[str] = field(default_factory=list)
    """Every card a decision kept hidden (a claim instead of an opening)."""
    forced: list[list[str]] = field(default_factory=list)
    """Per step, the cards opened to everyone because a rule read their faces (``Hidden``)."""
    rounds: list[int] = field(default_factory=list)
    """Per step, how many times a rule read hidden faces (each a blocking round)."""
    facts: list[list[tuple[Fact, bool]]] = field(default_factory=list)
    """Per step, each fact about a hidden hand the step asked, with its true answer."""
    returned: list[str] = field(default_factory=list)
    """Every card a decision put face down into a deck (its placeholder before renaming)."""
    concealed: list[str] = field(default_factory=list)
    """Every card id a seat turned back into a placeholder before returning it."""
    decisions: list[dict[str, Any]] = field(default_factory=list)
    """Every decision as the shared state received it (what the seat's message says)."""
    arrivals: dict[str, Arrival] = field(default_factory=dict)
    """Each seat's hand order, kept as its machine keeps it (``peer.arrival``)."""
    home: Callable[[str], int] = lambda _card: 0
    """The deck a card belongs to, for one the decks' truth does not list (a scenario's
    table conceals only what is hidden)."""

    def face(self, placeholder: str) -> str:
        found = PLACEHOLDER.fullmatch(placeholder)
        assert found is not None
        return self.truth[int(found.group(1)[1:])][int(found.group(2))]

    def truthful(self, fact: Fact) -> bool:
        """The holder's answer to a fact about its hand (its machine knows its cards)."""
        return any(self.face(card) in fact.faces for card in fact.cards)

    def new_slot(self, card: str) -> str:
        """A new placeholder for ``card`` in the deck it came from (a returned or
        re-concealed card's new place, docs/peer-mottainai.md §3.2, §3.3)."""
        deck = next((i for i, cards in enumerate(self.truth) if card in cards), None)
        if deck is None:
            deck = self.home(card)
        self.truth[deck].append(card)
        return placeholder(f"d{deck}", len(self.truth[deck]) - 1)

    def attempt(self, step: Callable[[Any, PeerRng], tuple[Any, list[Any]]]) -> list[Any]:
        """Apply ``step`` to the shared state; on ``Hidden``, open those cards to everyone
        and apply it again from the state before (the same decks, never reshuffled). Facts
        about a hidden hand are answered truly, as the holder would, and recorded."""
        self.forced.append([])
        self.rounds.append(0)
        while True:
            rng = PeerRng(self.opened, self.decks)
            before = (
                None if self.state is None else private_state(self.engine, self.state, self.opened)
            )
            facts = Facts(oracle=self.truthful)
            try:
                with facts:
                    state, events = step(before, rng)
            except Hidden as hidden:
                assert not set(hidden.placeholders) & set(self.opened), "an opened card raised"
                for p in hidden.placeholders:
                    self.opened[p] = self.face(p)
                self.openings += len(hidden.placeholders)
                self.forced[-1] += hidden.placeholders
                self.rounds[-1] += 1
                continue
            self.decks += len(rng.decks)
            self.state = state
            self.facts.append([(fact, facts.answers[fact]) for fact in facts.asked])
            return events

    def settle(self, seats: list[str]) -> None:
        """Open what the views show: placeholders in the public view to everyone, in a
        seat's own view to that seat (derived from the engine's redaction, §3.3)."""
        shown = placeholders(self.engine.view(self.state, None)) - set(self.opened)
        for p in sorted(shown):
            self.opened[p] = self.face(p)
            self.openings += 1
        self.state = private_state(self.engine, self.state, self.opened)
        for seat in seats:
            mine = self.own.setdefault(seat, {})
            view = self.engine.view(private_state(self.engine, self.state, mine), seat)
            for p in sorted(placeholders(view) - set(mine)):
                mine[p] = self.face(p)
            known = {**self.opened, **mine}
            entries = [c for cards in self.engine.hands(self.state, seat) for c in cards]
            arrival = self.arrivals.setdefault(seat, Arrival())
            arrival.update(entries, [known.get(c, c) for c in entries])

    def private(self, seat: str | None) -> Any:
        if seat is None:
            return self.state
        state = private_state(self.engine, self.state, self.own.get(seat, {}))
        if seat in self.arrivals:
            self.arrivals[seat].arrange(self.engine.hands(state, seat))
        return state

    def event_for(self, event: Event, seat: str | None) -> Event:
        """An event as ``seat``'s machine narrates it once the step's openings are in:
        with the cards opened to everyone and those ``seat`` opened for itself. (A step
        lays the cards it draws as placeholders; it is narrated after they are opened.)"""
        known = {**self.opened, **(self.own.get(seat, {}) if seat is not None else {})}
        return Event(event.kind, substitute(event.data, known), event.barrier)

    def decide(self, seat: str, action: dict[str, Any]) -> dict[str, Any]:
        """A decision made on the seat's private state, as the shared state receives it
        (docs/peer.md §3.5): the held cards it shows are opened to everyone with it; each
        card it keeps hidden must be one of the faces the engine's claims list (what the
        seat's one-of proof would show)."""
        mine = self.own.setdefault(seat, {})
        disclosure = self.engine.disclose(self.state, seat, action, mine)
        public = disclosure.public
        for card, to in self.engine.passes(self.state, seat, public).items():
            self.arrivals.setdefault(to, Arrival()).bring([card])
        if disclosure.concealed:
            renamed = {card: self.new_slot(card) for card in disclosure.concealed}
            for hand in self.engine.hands(self.state, seat):
                hand[:] = [renamed.get(card, card) for card in hand]
            mine.update({p: card for card, p in renamed.items()})
            public = substitute(public, renamed)
            self.concealed += disclosure.concealed
        for p in disclosure.returned:
            assert p in mine and p not in self.opened, f"{p} is not a hidden card of {seat}"
            self.returned.append(p)
        for p in disclosure.shown:
            assert p in self.own.get(seat, {}) and p not in self.opened, p
            self.opened[p] = self.face(p)
            self.openings += 1
        self.state = private_state(self.engine, self.state, self.opened)
        claims = self.engine.claims(self.state, seat, public)
        assert sorted(claims) == sorted(disclosure.kept), (claims, disclosure)
        for p in disclosure.kept:
            assert self.face(p) in claims[p], f"{p} is not among its claimed faces"
            self.kept.append(p)
        self.decisions.append(public)
        return public


def peer_run(
    engine: Engine, options: dict[str, Any], seats: list[str], run: RefereeRun
) -> tuple[RefereeRun, PeerTable]:
    """The same game on a peer table: the same decisions, cards opened only when needed."""
    table = PeerTable(engine, run.orders)
    out = RefereeRun()

    def observe(events: list[Any]) -> None:
        table.settle(seats)
        private = lambda _s, who: table.private(who)  # noqa: E731
        _observe(out, engine, table.state, events, seats, private, table.event_for)

    observe(table.attempt(lambda _state, rng: engine.setup(options, seats, rng)))
    for seat, action in run.steps:
        public = table.decide(seat, action)
        engine.check(table.state, seat, public)

        def step(
            state: Any, rng: PeerRng, seat: str = seat, action: dict[str, Any] = public
        ) -> tuple[Any, list[Any]]:
            return state, engine.apply(state, seat, action, rng)

        observe(table.attempt(step))
    return out, table


class _Recording:
    """A generator that keeps each shuffle's result (the truth of a deck a step makes)."""

    def __init__(self, rng: Rng, orders: list[list[str]]):
        self.rng = rng
        self.orders = orders

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self.rng.shuffle(items)
        self.orders.append(list(items))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rng, name)


def shadow_step(scenario: Any, state: Any, seat: str, action: dict[str, Any]) -> list[Any]:
    """Apply a decision as the referee does, and on a peer table made from the state
    before it; assert every reader's view and log after it are the same on both."""
    engine = scenario.engine
    shared, slots, holders = scenario.conceal(state)
    # ``slots``: one deck's cards, or several decks' (Mottainai with Wutai: d0 and d1).
    decks = [slots] if all(isinstance(card, str) for card in slots) else list(slots)
    made: list[list[str]] = []
    events = engine.apply(state, seat, action, _Recording(scenario.rng(), made))
    engine.invariants(state)
    table = PeerTable(engine, [*decks, *made], decks=len(decks), state=shared)
    table.home = scenario.home
    table.own = {s: {p: table.face(p) for p in held} for s, held in holders.items()}
    public = table.decide(seat, action)
    engine.check(table.state, seat, public)
    peer = table.attempt(lambda before, rng: (before, engine.apply(before, seat, public, rng)))
    scenario.last_table = table
    seats = list(holders)
    table.settle(seats)
    for reader in [None, *seats]:
        mine = engine.view(table.private(reader), reader)
        assert mine == engine.view(state, reader), f"{reader}'s view differs on a peer table"
    told = [engine.describe(table.event_for(e, None), None) for e in peer]
    assert told == [engine.describe(e, None) for e in events], "the public log differs"
    for reader in seats:
        mine = [engine.describe(table.event_for(e, reader), reader) for e in peer]
        assert mine == [engine.describe(e, reader) for e in events], f"{reader}'s log differs"
    return events
