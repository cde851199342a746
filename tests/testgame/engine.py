"""Tally: a tiny test-only game that exercises every part of the engine protocol.

Rules (cited as TALLY-n in rejections and tests):

- TALLY-0  A decision is one of ``play``, ``discard``, ``draw``, ``end`` (see moves.py).
- TALLY-1  Cards 1..``cards`` are shuffled into a face-down deck; each seat is dealt
           ``hand`` cards. Seats take turns in seat order; only the seat whose turn it
           is decides.
- TALLY-2  On your turn, play up to two cards from your hand face up onto your tally.
- TALLY-3  Once per turn, and at most twice per game, discard a card from your hand face
           down onto your own discard pile. Only you learn which card it was.
- TALLY-4  End your turn with ``draw`` (take the top card; only you see it) while the
           deck has cards, and with ``end`` once it is empty.
- TALLY-5  With the deck empty you may ``end`` only after playing a card this turn,
           unless your hand is empty; seats with empty hands are then skipped. Every
           turn thus shrinks the deck or the hands, so the game always ends.
- TALLY-6  The game ends when the deck and every hand are empty. Score: the sum of your
           tally. Equal scores share a place.
- TALLY-7  A seat that misses its deadline (``pass`` policy) draws; with the deck empty
           it ends its turn, after playing its lowest card if it must play first. A game
           that ends early (a forfeit) is scored as TALLY-6 on the tallies so far.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from arbiter.core.engine import (
    Action,
    Engine,
    EngineInfo,
    Event,
    OptionInfo,
    Outcome,
    Prompt,
    rank_by_score,
    reject,
)
from arbiter.core.errors import SchemaViolation, UsageError
from arbiter.core.rng import Rng
from testgame import moves
from testgame.determinize import determinize
from testgame.state import TallyState, decode, encode

PLAYS_PER_TURN = 2
DISCARDS_PER_GAME = 2
MAX_SEATS = 4
# Option ranges: (low, high) inclusive. The deck must deal a full hand to four seats.
RANGES = {"cards": (4, 60), "hand": (1, 5)}


def _options_problem(options: Mapping[str, Any]) -> str | None:
    """Return what is wrong with integer options, or ``None``."""
    for name, (low, high) in RANGES.items():
        value = options.get(name)
        if type(value) is not int or not low <= value <= high:
            return f"option {name} must be an integer from {low} to {high}, not {value!r}"
    if options["cards"] < MAX_SEATS * options["hand"]:
        return f"option cards must be at least {MAX_SEATS} × hand to deal every seat"
    return None


class TallyEngine(Engine):
    """The tally game (tests only)."""

    info = EngineInfo(
        name="tally",
        title="Tally (test game)",
        version="1",
        min_seats=2,
        max_seats=MAX_SEATS,
        score_columns=("tally", "cards", "discarded"),
        options=(
            OptionInfo("cards", "deck size: cards numbered 1..N (4-60)", "12"),
            OptionInfo("hand", "starting hand size (1-5)", "2"),
        ),
        notes=("A test-only game that exercises the engine protocol.",),
    )

    # -- options -------------------------------------------------------------------
    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """Return the options as integers, or raise ``UsageError``."""
        options: dict[str, Any] = {}
        for key, text in super().parse_options(raw).items():
            try:
                options[key] = int(text)
            except ValueError:
                raise UsageError(f"option {key} must be an integer, not {text!r}") from None
        if problem := _options_problem(options):
            raise UsageError(problem)
        return options

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise ``SchemaViolation`` unless the manifest options are valid integers."""
        super().check_options(options)
        if problem := _options_problem(options):
            raise SchemaViolation(f"manifest: {problem}")

    # -- the game ------------------------------------------------------------------
    def setup(
        self, options: Mapping[str, Any], seats: list[str], rng: Rng
    ) -> tuple[TallyState, list[Event]]:
        """Shuffle the deck and deal every seat a hand (TALLY-1)."""
        self.check_options(options)
        cards, hand = options["cards"], options["hand"]
        deck = list(range(1, cards + 1))
        rng.shuffle(deck)
        hands = {seat: sorted(deck[i * hand : (i + 1) * hand]) for i, seat in enumerate(seats)}
        state = TallyState(
            seats=list(seats),
            cards=cards,
            deck=deck[len(seats) * hand :],
            hands=hands,
            tallies={seat: [] for seat in seats},
            piles={seat: [] for seat in seats},
            turn=seats[0],
        )
        events = [Event("shuffle", {"cards": cards})]
        events += [Event("deal", {"seat": seat, "cards": list(hands[seat])}) for seat in seats]
        return state, events

    def prompt(self, state: TallyState) -> Prompt | None:
        """Return the seat whose turn it is, or ``None`` once the game is over."""
        if state.over:
            return None
        detail = {
            "plays_left": PLAYS_PER_TURN - state.played,
            "discards_left": 0 if state.discarded else self._discards_left(state, state.turn),
        }
        return Prompt(state.turn, "turn", detail)

    def legal_actions(self, state: TallyState, seat: str) -> list[Action]:
        """Return every legal decision of ``seat`` (complete)."""
        if state.over or seat != state.turn:
            return []
        hand = state.hands[seat]
        out: list[Action] = []
        if state.played < PLAYS_PER_TURN:
            out += [{"kind": "play", "card": card} for card in hand]
        if not state.discarded and self._discards_left(state, seat):
            out += [{"kind": "discard", "card": card} for card in hand]
        if state.deck:
            out.append({"kind": "draw"})
        elif state.played or not hand:
            out.append({"kind": "end"})
        return out

    def check(self, state: TallyState, seat: str, action: Action) -> None:
        """Raise ``IllegalAction`` unless ``seat`` may take ``action`` now."""
        if state.over:
            raise reject("the game is over: no more decisions", rule="TALLY-6")
        if seat != state.turn:
            raise reject(f"it is {state.turn}'s turn, not {seat}'s", rule="TALLY-1")
        try:
            decision = moves.DECISION.validate_python(action)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(part) for part in error["loc"]) or "decision"
            raise reject(f"malformed decision ({where}): {error['msg']}", rule="TALLY-0") from None
        hand = state.hands[seat]
        if isinstance(decision, moves.Play):
            if state.played >= PLAYS_PER_TURN:
                raise reject("you have already played two cards this turn", rule="TALLY-2")
            if decision.card not in hand:
                raise reject(f"card {decision.card} is not in your hand", rule="TALLY-2")
        elif isinstance(decision, moves.Discard):
            if state.discarded:
                raise reject("you have already discarded this turn", rule="TALLY-3")
            if not self._discards_left(state, seat):
                raise reject("you have already discarded twice this game", rule="TALLY-3")
            if decision.card not in hand:
                raise reject(f"card {decision.card} is not in your hand", rule="TALLY-3")
        elif isinstance(decision, moves.Draw):
            if not state.deck:
                raise reject("the deck is empty: end your turn instead", rule="TALLY-4")
        else:
            if state.deck:
                raise reject("the deck still has cards: draw to end your turn", rule="TALLY-4")
            if hand and not state.played:
                raise reject("the deck is empty: play a card before you end", rule="TALLY-5")

    def apply(self, state: TallyState, seat: str, action: Action, rng: Rng) -> list[Event]:
        """Apply a checked decision; the turn passes after ``draw`` and ``end``."""
        kind = action["kind"]
        events: list[Event]
        if kind == "play":
            state.hands[seat].remove(action["card"])
            state.tallies[seat].append(action["card"])
            state.played += 1
            events = [Event("play", {"seat": seat, "card": action["card"]})]
        elif kind == "discard":
            state.hands[seat].remove(action["card"])
            state.piles[seat].append(action["card"])
            state.discarded = True
            events = [Event("discard", {"seat": seat, "card": action["card"]})]
        elif kind == "draw":
            card = state.deck.pop(0)
            state.hands[seat] = sorted(state.hands[seat] + [card])
            # The drawer sees a card it did not know: a batch must stop here.
            events = [Event("draw", {"seat": seat, "card": card, "left": len(state.deck)}, True)]
            self._pass_turn(state)
        else:
            events = [Event("end", {"seat": seat})]
            self._pass_turn(state)
        if state.over:
            events.append(Event("over", {"scores": self._scores(state)}))
        return events

    def view(self, state: TallyState, seat: str | None) -> dict[str, Any]:
        """Return counts for hidden zones, plus the viewer's own hand and pile."""
        out: dict[str, Any] = {
            "seats": list(state.seats),
            "turn": None if state.over else state.turn,
            "played": state.played,
            "discarded": state.discarded,
            "deck": len(state.deck),
            "hands": {s: len(cards) for s, cards in state.hands.items()},
            "piles": {s: len(cards) for s, cards in state.piles.items()},
            "tallies": {s: list(cards) for s, cards in state.tallies.items()},
            "scores": self._scores(state),
        }
        if seat is not None:
            out["you"] = seat
            out["hand"] = list(state.hands[seat])
            out["pile"] = list(state.piles[seat])
        return out

    def outcome(self, state: TallyState) -> Outcome | None:
        """Return scores, breakdown and ranking once the game is over (TALLY-6)."""
        return self._result(state) if state.over else None

    def _result(self, state: TallyState) -> Outcome:
        scores = self._scores(state)
        breakdown = {
            s: {
                "tally": scores[s],
                "cards": len(state.tallies[s]),
                "discarded": len(state.piles[s]),
            }
            for s in state.seats
        }
        return Outcome(scores, rank_by_score(scores, state.seats), breakdown)

    # -- deadlines ------------------------------------------------------------------
    def default_action(self, state: TallyState, seat: str) -> Action:
        """Return the passive decision of a seat that missed its deadline (TALLY-7)."""
        if state.over:
            raise reject("the game is over: no decision to take by default", rule="TALLY-6")
        if seat != state.turn:
            raise reject(f"it is {state.turn}'s turn, not {seat}'s", rule="TALLY-1")
        if state.deck:
            return {"kind": "draw"}
        hand = state.hands[seat]
        if hand and not state.played:
            return {"kind": "play", "card": hand[0]}  # hands are sorted: the lowest card
        return {"kind": "end"}

    def public_decision(self, action: Action) -> Action:
        """TALLY-3: which card a seat discards only that seat learns."""
        return {"kind": "discard"} if action.get("kind") == "discard" else dict(action)

    def provisional_outcome(self, state: TallyState) -> Outcome:
        """Return the result as if the game ended now: the tallies so far (TALLY-7)."""
        return self._result(state)

    def describe(self, event: Event, viewer: str | None) -> str | None:
        """Return one log line; only the owner reads private card numbers."""
        data = event.data
        seat = data.get("seat")
        mine = seat is not None and seat == viewer
        if event.kind == "shuffle":
            return f"the {data['cards']} cards are shuffled into the deck"
        if event.kind == "deal":
            cards = ", ".join(map(str, data["cards"]))
            return (
                f"you are dealt {cards}" if mine else f"{seat} is dealt {len(data['cards'])} cards"
            )
        if event.kind == "play":
            return f"{seat} plays {data['card']}"
        if event.kind == "discard":
            return f"you discard {data['card']} face down" if mine else f"{seat} discards a card"
        if event.kind == "draw":
            left = f"({data['left']} left in the deck)"
            return f"you draw {data['card']} {left}" if mine else f"{seat} draws a card {left}"
        if event.kind == "end":
            return f"{seat} ends the turn"
        if event.kind == "over":
            scores = ", ".join(f"{s} {n}" for s, n in data["scores"].items())
            return f"game over: {scores}"
        return None

    def action_schema(self) -> dict[str, Any]:
        """Return the JSON Schema of one decision."""
        return moves.schema()

    # -- state as data -------------------------------------------------------------
    def encode(self, state: TallyState) -> dict[str, Any]:
        """Return the state as plain JSON data."""
        return encode(state)

    def decode(self, data: Any) -> TallyState:
        """Rebuild a state from ``encode``'s output."""
        return decode(data)

    # -- tests and tools -----------------------------------------------------------
    def resample(self, state: TallyState, seat: str, rng: Rng) -> TallyState:
        """Redeal the deck, other hands and other piles, keeping every size."""
        out = decode(encode(state))
        others = [s for s in state.seats if s != seat]
        pool = out.deck + [c for s in others for c in out.hands[s] + out.piles[s]]
        rng.shuffle(pool)
        out.deck, pool = pool[: len(out.deck)], pool[len(out.deck) :]
        for s in others:
            n = len(out.hands[s])
            out.hands[s], pool = sorted(pool[:n]), pool[n:]
            n = len(out.piles[s])
            out.piles[s], pool = pool[:n], pool[n:]
        return out

    def determinize(
        self,
        view: Mapping[str, Any],
        seat: str,
        rng: Rng,
        prompt: Mapping[str, Any] | None = None,
    ) -> TallyState:
        """Deal what ``seat`` has not seen around the zones its view counts."""
        return determinize(view, seat, rng)

    def view_type(self) -> Any:
        from testgame.view_schema import VIEW

        return VIEW

    def view_schema(self) -> Path:
        from testgame.view_schema import SCHEMA

        return SCHEMA

    def view_problem(self, state_file: Mapping[str, Any]) -> str | None:
        from testgame.view_schema import problem

        found = problem(state_file["view"], state_file)
        return found if found is not None else super().view_problem(state_file)

    def invariants(self, state: TallyState) -> None:
        """Assert that every card is in exactly one zone and the counters are in range."""
        zones = [state.deck]
        for seat in state.seats:
            zones += [state.hands[seat], state.tallies[seat], state.piles[seat]]
            assert state.hands[seat] == sorted(state.hands[seat]), f"{seat}'s hand is unsorted"
            assert len(state.piles[seat]) <= DISCARDS_PER_GAME, f"{seat} discarded too often"
        every = sorted(card for zone in zones for card in zone)
        assert every == list(range(1, state.cards + 1)), "cards were lost or duplicated"
        assert 0 <= state.played <= PLAYS_PER_TURN
        assert state.turn in state.seats
        # TALLY-5: once the deck is empty the turn never rests on an empty hand at its start.
        if not state.over and not state.deck and not state.played and not state.discarded:
            assert state.hands[state.turn], f"{state.turn} has nothing to do"

    @staticmethod
    def _discards_left(state: TallyState, seat: str) -> int:
        return DISCARDS_PER_GAME - len(state.piles[seat])

    @staticmethod
    def _scores(state: TallyState) -> dict[str, int]:
        return {s: sum(state.tallies[s]) for s in state.seats}

    @staticmethod
    def _pass_turn(state: TallyState) -> None:
        """Give the turn to the next seat; skip empty hands once the deck is empty (TALLY-5)."""
        state.played, state.discarded = 0, False
        if state.over:
            return
        i = state.seats.index(state.turn)
        for step in range(1, len(state.seats) + 1):
            seat = state.seats[(i + step) % len(state.seats)]
            if state.deck or state.hands[seat]:
                state.turn = seat
                return
