"""The Mottainai state as plain data, and its JSON form (ints, strings, lists, objects).

Card ids are instance ids (``kite``, ``kite#2``). Every zone is a list; the deck lists
the top card first and returned cards go to its end (the bottom, rules: Keywords "Return").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WINGS = ("gallery", "gift_shop")
"""Rules: Areas of your temple: the Gallery covers helpers, the Gift Shop covers sales."""
HAND_LIMIT = 5
PUBLIC = "*"
"""``State.known`` owner of a card returned in everyone's sight (its place is public)."""


@dataclass
class Player:
    """One temple and the cards its owner holds."""

    hand: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    """The waiting area: drawn cards, seen by nobody (owner included) until Night (M-R16)."""
    task: str | None = None
    face_down: bool = False
    """The task slot holds the face-down initial card: never performed (M-R14)."""
    helpers: list[str] = field(default_factory=list)
    bench: list[str] = field(default_factory=list)
    """The craft bench: materials."""
    sales: list[str] = field(default_factory=list)
    gallery: list[str] = field(default_factory=list)
    gift_shop: list[str] = field(default_factory=list)

    def wing(self, name: str) -> list[str]:
        return self.gallery if name == "gallery" else self.gift_shop

    def works(self) -> list[str]:
        return self.gallery + self.gift_shop


ZONES = ("hand", "waiting", "helpers", "bench", "sales", "gallery", "gift_shop")


@dataclass
class State:
    """Everything about a game of Mottainai.

    ``phase`` is where the current turn stands; ``task`` the Noon task being performed;
    ``frames`` the open sub-decisions (effect triggers, a TAILOR's returns), innermost
    last, which resume in order once answered.
    """

    seats: list[str]
    decks: int
    extended: bool
    teams: bool
    players: dict[str, Player]
    deck: list[str]
    floor: list[str]
    start: str
    current: str
    turn: int = 1
    phase: str = "hand-limit"
    queue: list[str] = field(default_factory=list)
    """Noon: the owners of the tasks still to perform, in order (the current seat last)."""
    task: dict[str, Any] | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    known: dict[str, str] = field(default_factory=dict)
    """Cards in the deck that one seat returned, card → seat: only it knows them (M-R18)."""
    revealed: dict[str, Any] | None = None
    """The cards the last decision revealed from a hand ({seat, cards}): public (M-R17)."""
    memo: dict[str, Any] = field(default_factory=dict)
    """Per-turn effect memory (e.g. a Kite copy until the turn ends); cleared each turn."""
    end: dict[str, Any] | None = None
    """Why and when the game ended; ``result`` holds the scoring."""
    result: dict[str, Any] | None = None
    wutai: dict[str, Any] | None = None
    """Wutai Mountain (``None`` without it): ``table`` (the card list's digest), ``deck``
    (the Wutai deck, top first), ``om`` (Om work → its tucked cards by edge) and the
    options ``draws``, ``works_end``, ``leave`` (wutai.py, om.py)."""

    @property
    def over(self) -> bool:
        return self.result is not None

    def clockwise_from(self, seat: str) -> list[str]:
        """Return every seat in turn order starting with ``seat``."""
        i = self.seats.index(seat)
        return self.seats[i:] + self.seats[:i]

    def partner(self, seat: str) -> str | None:
        """Return the seat across the table in team play (Variants: Team Play)."""
        if not self.teams:
            return None
        return self.seats[(self.seats.index(seat) + 2) % 4]

    def opponents(self, seat: str) -> list[str]:
        """Return the other seats clockwise, without a team partner ("opponent")."""
        partner = self.partner(seat)
        return [s for s in self.clockwise_from(seat)[1:] if s != partner]

    def is_opponent(self, seat: str, other: str) -> bool:
        """Return whether ``other`` is among ``opponents(seat)``, without listing them."""
        if other == seat or other not in self.seats:
            return False
        return not self.teams or other != self.partner(seat)


def _player_json(p: Player) -> dict[str, Any]:
    return {
        "hand": list(p.hand),
        "waiting": list(p.waiting),
        "task": p.task,
        "face_down": p.face_down,
        "helpers": list(p.helpers),
        "bench": list(p.bench),
        "sales": list(p.sales),
        "gallery": list(p.gallery),
        "gift_shop": list(p.gift_shop),
    }


def _plain(value: Any) -> Any:
    """Return a deep copy of plain JSON data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def encode(state: State) -> dict[str, Any]:
    """Return the state as JSON data (a fresh copy)."""
    return {
        "seats": list(state.seats),
        "decks": state.decks,
        "extended": state.extended,
        "teams": state.teams,
        "players": {s: _player_json(p) for s, p in state.players.items()},
        "deck": list(state.deck),
        "floor": list(state.floor),
        "start": state.start,
        "current": state.current,
        "turn": state.turn,
        "phase": state.phase,
        "queue": list(state.queue),
        "task": _plain(state.task),
        "frames": _plain(state.frames),
        "known": dict(state.known),
        "revealed": _plain(state.revealed),
        "memo": _plain(state.memo),
        "end": _plain(state.end),
        "result": _plain(state.result),
        **({} if state.wutai is None else {"wutai": _plain(state.wutai)}),
    }


def decode(data: dict[str, Any]) -> State:
    """Rebuild a state from ``encode``'s output (the input is not kept)."""
    data = _plain(data)
    players = {s: Player(**p) for s, p in data.pop("players").items()}
    return State(players=players, **data)


def copy_state(state: State) -> State:
    """Return an independent copy."""
    return decode(encode(state))
