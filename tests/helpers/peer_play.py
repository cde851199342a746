"""Peer games played in one process with the real protocol (docs/peer.md, step 6): every
seat a ``PeerSeat`` sending real keys, shuffles, shares and proofs to one ``PeerGame``,
decisions by a seeded random chooser; snapshots of every reader's view after each step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arbiter.core import registry
from arbiter.core.peer import group
from arbiter.core.rng import Rng
from arbiter.peer.protocol import PeerGame
from arbiter.peer.seat import PeerSeat

GAME = "peer-test"
MANIFEST = "sha256:" + "ab" * 32


def seeded(seed: bytes) -> Callable[[], bytes]:
    """A reproducible source of secret scalars, for tests only (a real seat uses the OS
    CSPRNG): SHA-512 of the seed and a counter, reduced."""
    count = 0

    def draw() -> bytes:
        nonlocal count
        count += 1
        return group.hash_to_scalar(seed + count.to_bytes(8, "big"))

    return draw


@dataclass
class Table:
    game: PeerGame
    players: dict[str, PeerSeat]
    messages: list[dict[str, Any]] = field(default_factory=list)
    public: list[dict[str, Any]] = field(default_factory=list)
    """The public view after each settled step."""

    def snapshot(self) -> None:
        """The public view, once a step settles (``PeerGame.on_settle``); each seat records
        its own once its openings are in (``PeerSeat.seen``)."""
        game = self.game
        while len(self.public) < game.settled:
            self.public.append(game.engine.view(game.states[len(self.public)], None))

    @property
    def views(self) -> list[dict[str | None, Any]]:
        """Every reader's view after each step every reader has read."""
        steps = min([len(self.public), *(len(p.seen) for p in self.players.values())])
        out: list[dict[str | None, Any]] = []
        for step in range(steps):
            views: dict[str | None, Any] = {None: self.public[step]}
            views.update({seat: p.seen[step] for seat, p in self.players.items()})
            out.append(views)
        return out


def new_table(
    name: str, seats: int, seed: int, options: dict[str, str] | None = None, game_id: str = GAME
) -> Table:
    engine = registry.get(name)
    names = [f"s{i}" for i in range(seats)]
    game = PeerGame(engine, engine.parse_options(options or {}), names, game_id, MANIFEST)
    players = {
        s: PeerSeat(game, s, seeded(bytes([seed, i])), record=True) for i, s in enumerate(names)
    }
    table = Table(game, players)
    game.on_settle.append(table.snapshot)
    return table


def chooser(seed: int) -> Callable[[Any, str, list[Any]], Any]:
    """A seeded random decision maker."""
    rng = Rng(bytes([seed]) * 32)

    def choose(_state: Any, _seat: str, legal: list[Any]) -> Any:
        return rng.choice(legal)

    return choose


def doubles(seed: int) -> Callable[[Any, str, list[Any]], Any]:
    """A Momiji chooser that plays two cards of one type whenever it can (the first is
    buried at once and kept hidden, MOM-R21), else chooses at random."""
    fallback = chooser(seed)

    def choose(state: Any, seat: str, legal: list[Any]) -> Any:
        cards = state.cards.cards
        pairs = [a for a in legal if a["kind"] == "play" and len(a["cards"]) == 2
                 and cards[a["cards"][0]].type == cards[a["cards"][1]].type]  # fmt: skip
        return pairs[0] if pairs else fallback(state, seat, legal)

    return choose


def play(
    table: Table,
    seed: int,
    limit: int = 20000,
    until: Callable[[Table, str], bool] | None = None,
    choose: Callable[[Any, str, list[Any]], Any] | None = None,
) -> Table:
    """Play to the end: each round, every seat owing something answers, in seat order.
    ``until(table, seat)``: stop before ``seat`` composes a message once it says so."""
    choose = choose or chooser(seed)
    for _ in range(limit):
        if table.game.over:
            return table
        seat = next(s for s in table.players if table.game.owed(s) is not None)
        if until is not None and until(table, seat):
            return table
        message = table.players[seat].compose(choose)
        table.messages.append(message)
        table.game.receive(message)
    raise AssertionError("the game did not end")


def referee_check(table: Table) -> Any:
    """A finished game checked as a stranger would, from the revealed secrets: every
    reader's view after every step, the public log and every seat's log are those of the
    referee's game the decks decrypt to; another machine fed the same messages agrees.
    Returns the referee replay."""
    from arbiter.peer import reveal

    game = table.game
    secrets = {s: p.reveal() for s, p in table.players.items()}
    referee = reveal.replay(game, reveal.orders(game, secrets), secrets)
    assert referee.views[-1][None]["result"] is not None, "the game ran to its end"
    assert len(table.views) == len(referee.views) == len(game.history)
    for step, (mine, theirs) in enumerate(zip(table.views, referee.views, strict=True)):
        assert mine == theirs, f"step {step}: a view differs"
    assert game.narrate(game.opened, None) == referee.log(game.engine, None)
    for seat, player in table.players.items():
        assert player.log() == referee.log(game.engine, seat)
    other = PeerGame(game.engine, game.options, game.seats, game.game, game.manifest)
    for message in table.messages:
        other.receive(message)
    assert other.over and other.opened == game.opened and other.round == game.round
    assert other.narrate(other.opened, None) == game.narrate(game.opened, None)
    return referee
