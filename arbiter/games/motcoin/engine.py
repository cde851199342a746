"""The Mot Coin engine: the protocol's methods, each delegating to one module."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from arbiter.core import viewcheck
from arbiter.core.engine import Action, Engine, EngineInfo, Event, OptionInfo, Outcome, Prompt
from arbiter.core.errors import IllegalAction, SchemaViolation, UsageError
from arbiter.core.rng import Rng
from arbiter.games.motcoin import cards, defaults, determinize, flow, moves, narrate, scoring
from arbiter.games.motcoin.state import State, copy_state, decode, encode

NOTES = (
    (
        "The card table is provisional except cards 1-5, 15, 19 and 24 (of 15, 19 and 24 only "
        "what the rules state); every other value follows the rules' stated tendencies."
    ),
    "Play with your own printed values: --option cards=FILE (see motcoin/cards.schema.json).",
)


class MotCoinEngine(Engine):
    """Mot Coin (mor!, 2023) for 3 to 5 players."""

    peer = True  # docs/peer.md §3: steps 4 and 5 of issue 29
    info: ClassVar[EngineInfo] = EngineInfo(
        name="motcoin",
        title="Mot Coin",
        version="1.0.0",
        min_seats=3,
        max_seats=5,
        score_columns=(
            "motcoins", "printed", "rise", "motcoin_value", "base", "hardforks",
            "hardfork_value", "stablecoins", "stablecoin_value", "profit", "losses",
            "total", "dice_left",
        ),
        hidden_information=True,
        chance=True,
        options=(
            OptionInfo(
                "cards",
                "card table JSON file (cards.schema.json); builtin: the shipped provisional table",
                cards.BUILTIN,
            ),
        ),
        notes=NOTES,
    )
    legal_actions_complete: ClassVar[bool] = False
    """``legal_actions`` lists only the weakest winning bid per number of dice."""

    # -- options -------------------------------------------------------------------------
    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """Embed the card table of ``cards=FILE`` so a replay needs no file."""
        super().parse_options(raw)
        path = raw.get("cards", cards.BUILTIN)
        if path == cards.BUILTIN:
            return {"cards": cards.BUILTIN}
        if not path:
            raise UsageError("option cards= needs a file name (or 'builtin')")
        return {"cards": cards.load_file(path)}

    def check_options(self, options: Mapping[str, Any]) -> None:
        super().check_options(options)
        if "cards" not in options:
            raise SchemaViolation("manifest options for motcoin lack 'cards'")
        cards.resolve(options["cards"])

    # -- the game ------------------------------------------------------------------------
    def setup(
        self, options: Mapping[str, Any], seats: list[str], rng: Rng
    ) -> tuple[State, list[Event]]:
        if not self.info.min_seats <= len(seats) <= self.info.max_seats:
            raise UsageError(f"Mot Coin needs 3 to 5 players, not {len(seats)}")
        table = cards.resolve(options.get("cards", cards.BUILTIN))
        return flow.setup(table, seats, rng)

    def prompt(self, state: State) -> Prompt | None:
        return flow.prompt(state)

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        return flow.legal_actions(state, seat)

    def check(self, state: State, seat: str, action: Action) -> None:
        flow.check(state, seat, moves.parse(action))

    def apply(self, state: State, seat: str, action: Action, rng: Rng) -> list[Event]:
        decision = moves.parse(action)
        if isinstance(decision, moves.Bid):
            return flow.bid(state, seat, list(decision.dice), rng)
        if isinstance(decision, moves.Pass):
            return flow.pass_(state, seat, rng)
        return flow.choose_removal(state, seat, decision.card, rng)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return None if state.result is None else scoring.outcome(state.result)

    def describe(self, event: Event, viewer: str | None) -> str | None:
        return narrate.describe(event, viewer)

    def describe_all(self, event: Event, viewers: list[str | None]) -> list[str | None]:
        # Every viewer reads the same line (narrate.py): narrated once (replay speed).
        return [narrate.describe(event, None)] * len(viewers)

    def public_decision(self, action: Action) -> Action:
        """MC-R19: every decision is public (bids, passes, removals; only the draw pile's
        order is hidden, MC-R10), so a standing order's condition names it whole."""
        return dict(action)

    # -- deadlines ---------------------------------------------------------------------------
    def default_action(self, state: State, seat: str) -> Action:
        """MC-R14: pass a bid; take back the die from the first card listed."""
        return defaults.default_action(state, seat)

    def provisional_outcome(self, state: State) -> Outcome:
        """MC-R15: the final scoring of the cards and dice on the table now."""
        return scoring.provisional(state)

    def action_schema(self) -> dict[str, Any]:
        return moves.action_schema()

    # -- state as data ---------------------------------------------------------------------
    def encode(self, state: State) -> dict[str, Any]:
        return encode(state)

    def decode(self, data: Any) -> State:
        return decode(data)

    def copy(self, state: State) -> State:
        return copy_state(state)

    # -- tests and tools -------------------------------------------------------------------
    def resample(self, state: State, seat: str, rng: Rng) -> State:
        """Reshuffle the draw pile: its order is all that anyone cannot see."""
        out = copy_state(state)
        rng.shuffle(out.draw)
        return out

    def determinize(
        self,
        view: Mapping[str, Any],
        seat: str,
        rng: Rng,
        prompt: Mapping[str, Any] | None = None,
    ) -> State:
        """Rebuild the state from a view: only the draw pile's order is drawn."""
        return determinize.determinize(view, seat, rng, prompt)

    def view_type(self) -> Any:
        from arbiter.games.motcoin.view_schema import VIEW

        return VIEW

    def view_schema(self) -> Path:
        return viewcheck.committed(self.info.name)

    def view_problem(self, state_file: Mapping[str, Any]) -> str | None:
        """The fields against each other (``view_check``), then the rebuild."""
        from arbiter.games.motcoin import view_check

        found = view_check.problem(state_file["view"], state_file)
        return found if found is not None else super().view_problem(state_file)

    def invariants(self, state: State) -> None:
        check_invariants(state)

    def label(self, action: Action) -> str:
        """A state file's legal decisions are read as decisions first: a hand-edited one
        that is not one is labelled by its kind alone."""
        try:
            moves.parse(action)
        except IllegalAction:
            kind = action.get("kind") if isinstance(action, dict) else None
            return kind if isinstance(kind, str) else "?"
        if action.get("kind") == "bid":
            return "bid " + narrate.dice(moves.normalise(list(action.get("dice", []))))
        if action.get("kind") == "remove":
            return f"take back the lowest die from {narrate.name(str(action.get('card')))}"
        return str(action.get("kind", "?"))

    def render(self, view: Mapping[str, Any], seat: str | None) -> list[str]:
        return narrate.render(view, seat)


def view(state: State, seat: str | None) -> dict[str, Any]:
    """Return the public state: all but the draw pile's order (its contents are known)."""
    table = state.cards
    auction = state.auction
    return {
        "game": "motcoin",
        "viewer": seat,
        "seats": list(state.seats),
        "round": state.round,
        "first_player": state.first,
        "players": {
            s: {
                "available": p.available,
                "dice": state.dice_per_seat,
                "cards": [{"card": h.card, "dice": list(h.dice)} for h in p.holdings],
            }
            for s, p in state.players.items()
        },
        "auction": None
        if auction is None
        else {
            "card": auction.card,
            "stable": auction.stable,
            "turn": auction.turn,
            "order": list(auction.order),
            "passed": list(auction.passed),
            "high_seat": auction.high_seat,
            "high": list(auction.high),
            "last_bids": {s: list(b) for s, b in auction.last_bids.items()},
        },
        "pending_removals": list(state.pending),
        "removal_source": state.source,
        "draw_pile": {"count": len(state.draw), "cards": draw_contents(state)},
        "discard": list(state.discard),
        "removed": list(state.removed),
        "stable_supply": len(state.stable_supply),
        "hardforks_auctioned": state.hardforks,
        "ender": state.ender,
        "price_rise_gap": scoring.rise_gap(len(state.seats)),
        "cards": {card: table.brief(card) for card in table.rows},
        "result": state.result,
    }


def draw_contents(state: State) -> list[str]:
    """The draw pile's cards, by number: every numbered card in no public place. Public
    knowledge even where the pile's order is not, and read without the pile itself, whose
    slots a peer game's shared state holds as placeholders (docs/peer.md §10). In a game
    whose cards are each in one place (``check_invariants``) it is the pile, sorted."""
    elsewhere = set(state.discard) | set(state.removed)
    elsewhere |= {h.card for p in state.players.values() for h in p.holdings}
    if state.auction is not None:
        elsewhere.add(state.auction.card)
    if state.ender is not None:
        elsewhere.add(state.ender)
    return [card for card in state.cards.numbered if card not in elsewhere]


def check_invariants(state: State) -> None:
    """Assert dice conservation per seat and that every card is in exactly one place."""
    for seat, player in state.players.items():
        assert player.available >= 0, f"{seat} has {player.available} available dice"
        on_cards = player.fluctuation_dice()
        assert player.available + on_cards == state.dice_per_seat, f"{seat}'s dice do not add up"
        assert all(1 <= f <= 6 for h in player.holdings for f in h.dice), f"{seat} has a bad face"
    places = state.draw + state.discard + state.removed + state.stable_supply
    places += [h.card for p in state.players.values() for h in p.holdings]
    if state.auction is not None:
        places.append(state.auction.card)
        if state.auction.stable is not None:
            places.append(state.auction.stable)
    if state.ender is not None:
        places.append(state.ender)
    expected = sorted(state.cards.rows)
    assert sorted(places) == expected, "cards are missing or duplicated"
