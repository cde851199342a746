"""A scenario builder for Mottainai rules cases: exact tables, real decisions (the
``mot`` fixture of ``conftest``)."""

from __future__ import annotations

from typing import Any

from helpers.scenario import Scenario as ScenarioBase

from arbiter.core.engine import Event
from arbiter.core.hidden import placeholder
from arbiter.games.mottainai import MottainaiEngine, flow
from arbiter.games.mottainai.actions import GameEnds
from arbiter.games.mottainai.cards import deck_ids
from arbiter.games.mottainai.state import PUBLIC, ZONES, Player, State
from arbiter.games.mottainai.wutai import is_om

SEATS2 = ["alice", "bob"]
SEATS3 = ["alice", "bob", "carol"]
SEATS4 = ["alice", "bob", "carol", "dave"]


def ret(card: str) -> dict[str, Any]:
    return {"kind": "return", "card": card}


def task(card: str) -> dict[str, Any]:
    return {"kind": "task", "card": card}


def smith(work: str, support: list[str], wing: str = "gallery") -> dict[str, Any]:
    return {"kind": "smith", "work": work, "support": sorted(support), "wing": wing}


def craft(work: str, wing: str = "gallery") -> dict[str, Any]:
    return {"kind": "craft", "work": work, "wing": wing}


DONE: dict[str, Any] = {"kind": "done"}
NO_TASK: dict[str, Any] = {"kind": "no_task"}
PRAYER: dict[str, Any] = {"kind": "prayer"}
TAILOR: dict[str, Any] = {"kind": "tailor"}


class Scenario(ScenarioBase):
    """Build exact Mottainai states (no shuffle) and drive them with ``check`` and ``apply``."""

    SEATS2, SEATS3, SEATS4 = SEATS2, SEATS3, SEATS4
    ret, task, smith, craft = (
        staticmethod(ret),
        staticmethod(task),
        staticmethod(smith),
        staticmethod(craft),
    )
    DONE, NO_TASK, PRAYER, TAILOR = DONE, NO_TASK, PRAYER, TAILOR

    def __init__(self, peer: bool = False) -> None:
        super().__init__(MottainaiEngine(), b"mottainai-rules-cases", peer)
        self.events: list[Event] = []

    def home(self, card: str) -> int:
        return 1 if is_om(card) else 0  # the Wutai deck is d1 (M-R133)

    def conceal(self, state: State) -> tuple[State, list[list[str]], dict[str, set[str]]]:
        """Hidden in Mottainai (M-R124): the decks, except cards returned in everyone's
        sight; each hand, except the cards the last decision showed, known to its holder;
        each waiting area, except cards everyone saw go there, known to nobody (M-R16);
        face-down tasks, known to nobody (M-R14); a card a seat returned face down is
        known to that seat (M-R18). Base cards are deck d0, Wutai cards d1."""
        decks: list[list[str]] = [[], []]
        holders: dict[str, set[str]] = {seat: set() for seat in state.seats}
        renamed: dict[str, str] = {}

        def hide(card: str, holder: str | None) -> None:
            deck = self.home(card)
            slot = placeholder(f"d{deck}", len(decks[deck]))
            decks[deck].append(card)
            renamed[card] = slot
            if holder is not None:
                holders[holder].add(slot)

        shown = set((state.revealed or {}).get("cards", []))
        seen = {c for cards in state.memo.get("seen_waiting", {}).values() for c in cards}
        om_deck = state.wutai["deck"] if state.wutai is not None else []
        for card in [*state.deck, *om_deck]:
            owner = state.known.get(card)
            if owner != PUBLIC:
                hide(card, owner)
        for seat, player in state.players.items():
            for card in player.hand:
                if card not in shown:
                    hide(card, seat)
            for card in player.waiting:
                if card not in seen:
                    hide(card, None)
            if player.task is not None and player.face_down:
                hide(player.task, None)
        # Only the hidden zones: a card id may also be a field's or a zone's name (the
        # Bench card, a player's bench), so no generic substitution.
        shared = self.engine.copy(state)

        def swap(cards: list[str]) -> list[str]:
            return [renamed.get(card, card) for card in cards]

        shared.deck = swap(shared.deck)
        if shared.wutai is not None:
            shared.wutai["deck"] = swap(shared.wutai["deck"])
        for player in shared.players.values():
            player.hand, player.waiting = swap(player.hand), swap(player.waiting)
            if player.task is not None:
                player.task = renamed.get(player.task, player.task)
        shared.known = {renamed.get(card, card): owner for card, owner in shared.known.items()}
        return shared, decks if state.wutai is not None else decks[:1], holders

    def options(self, **raw: str) -> dict[str, Any]:
        return self.engine.parse_options(raw)

    def new_game(self, seats: list[str] | None = None, **raw: str) -> tuple[State, list[Event]]:
        """Return a real setup (shuffled by a fixed stream)."""
        return self.engine.setup(self.options(**raw), list(seats or SEATS2), self.rng())

    def build(
        self,
        seats: list[str] | None = None,
        *,
        current: str | None = None,
        deck: list[str] | None = None,
        floor: list[str] | None = None,
        leftover: tuple[str, str] | None = None,
        extended: bool = False,
        teams: bool = False,
        decks: int | None = None,
        face_down: dict[str, str] | None = None,
        **zones: dict[str, list[str] | str],
    ) -> State:
        """Return an exact table at the start of ``current``'s turn (its Morning runs).

        ``zones`` maps a zone (``hand``, ``waiting``, ``helpers``, ``bench``, ``sales``,
        ``gallery``, ``gift_shop``, ``task``) to {seat: cards}. ``deck`` lists the top
        cards; every card not placed goes below them, or to ``leftover`` = (seat, zone).
        """
        seats = list(seats or SEATS2)
        decks = decks or (2 if len(seats) >= 4 else 1)
        players = {s: Player() for s in seats}
        placed: list[str] = list(deck or []) + list(floor or [])
        for zone, per_seat in zones.items():
            assert zone in (*ZONES, "task"), zone
            for seat, cards in per_seat.items():
                if zone == "task":
                    assert isinstance(cards, str)
                    players[seat].task = cards
                    placed.append(cards)
                else:
                    setattr(players[seat], zone, list(cards))
                    placed += list(cards)
        for seat, c in (face_down or {}).items():
            players[seat].task, players[seat].face_down = c, True
            placed.append(c)
        rest = [c for c in deck_ids(decks) if c not in placed]
        full = list(deck or [])
        if leftover is None:
            full += rest
        else:
            getattr(players[leftover[0]], leftover[1]).extend(rest)
        current = current or seats[0]
        state = State(
            seats=seats,
            decks=decks,
            extended=extended,
            teams=teams,
            players=players,
            deck=full,
            floor=list(floor or []),
            start=seats[0],
            current=current,
        )
        self.events = []
        try:
            flow.advance(state, self.events)
        except GameEnds as end:
            flow.finish(state, end, self.events)
        self.engine.invariants(state)
        return state

    play = ScenarioBase.step

    def run(self, state: State, seat: str, *actions: dict[str, Any]) -> list[Event]:
        """Play several decisions of one seat; return all their events."""
        events: list[Event] = []
        for action in actions:
            events += self.play(state, seat, action)
        return events

    def prompt(self, state: State) -> tuple[str, str] | None:
        p = self.engine.prompt(state)
        return None if p is None else (p.seat, p.kind)

    def legal(self, state: State, seat: str | None = None) -> list[dict[str, Any]]:
        return self.engine.legal_actions(state, seat or state.current)

    def kinds(self, events: list[Event]) -> list[str]:
        return [e.kind for e in events]
