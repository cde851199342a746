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

from arbiter.core.engine import Engine
from arbiter.core.hidden import PLACEHOLDER, Hidden, PeerRng, placeholders, private_state
from arbiter.core.rng import Rng


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


def referee_run(engine: Engine, options: dict[str, Any], seats: list[str], seed: int, limit: int = 5000) -> RefereeRun:
    run = RefereeRun()
    state, events = engine.setup(options, seats, RecordingRng(bytes([seed]) * 32, run.orders))
    chooser = Rng(bytes([seed, 1]) * 16)
    _observe(run, engine, state, events, seats, lambda s, _seat: s)
    for step in range(limit):
        prompt = engine.prompt(state)
        if prompt is None:
            break
        action = chooser.choice(engine.legal_actions(state, prompt.seat))
        rng = RecordingRng(bytes([seed]) + step.to_bytes(8, "big") + bytes(23), run.orders)
        events = engine.apply(state, prompt.seat, action, rng)
        run.steps.append((prompt.seat, action))
        _observe(run, engine, state, events, seats, lambda s, _seat: s)
    return run


def _observe(run: RefereeRun, engine: Engine, state: Any, events: list[Any], seats: list[str],
             private: Callable[[Any, str | None], Any]) -> None:  # fmt: skip
    run.views.append({seat: engine.view(private(state, seat), seat) for seat in [None, *seats]})
    run.told.append([engine.describe(event, None) for event in events])


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

    def face(self, placeholder: str) -> str:
        found = PLACEHOLDER.fullmatch(placeholder)
        assert found is not None
        return self.truth[int(found.group(1)[1:])][int(found.group(2))]

    def attempt(self, step: Callable[[Any, PeerRng], tuple[Any, list[Any]]]) -> list[Any]:
        """Apply ``step`` to the shared state; on ``Hidden``, open that card to everyone
        and apply it again from the state before (the same decks, never reshuffled)."""
        while True:
            rng = PeerRng(self.opened, self.decks)
            before = None if self.state is None else private_state(self.engine, self.state, self.opened)
            try:
                state, events = step(before, rng)
            except Hidden as hidden:
                self.opened[hidden.placeholder] = self.face(hidden.placeholder)
                self.openings += 1
                continue
            self.decks += len(rng.decks)
            self.state = state
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

    def private(self, seat: str | None) -> Any:
        return self.state if seat is None else private_state(self.engine, self.state, self.own.get(seat, {}))


def peer_run(engine: Engine, options: dict[str, Any], seats: list[str], run: RefereeRun) -> tuple[RefereeRun, PeerTable]:
    """The same game on a peer table: the same decisions, cards opened only when needed."""
    table = PeerTable(engine, run.orders)
    out = RefereeRun()
    events = table.attempt(lambda _state, rng: engine.setup(options, seats, rng))
    table.settle(seats)
    _observe(out, engine, table.state, events, seats, lambda _s, seat: table.private(seat))
    for seat, action in run.steps:
        def step(state: Any, rng: PeerRng, seat: str = seat, action: dict[str, Any] = action) -> tuple[Any, list[Any]]:
            return state, engine.apply(state, seat, action, rng)

        events = table.attempt(step)
        table.settle(seats)
        _observe(out, engine, table.state, events, seats, lambda _s, who: table.private(who))
    return out, table
