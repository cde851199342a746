"""The Mottainai engine: the protocol's methods, each delegating to one module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from arbiter.core.engine import Action, Engine, EngineInfo, Event, OptionInfo, Outcome, Prompt
from arbiter.core.errors import SchemaViolation, UsageError
from arbiter.core.rng import Rng
from arbiter.games.mottainai import (
    defaults,
    determinize,
    flow,
    moves,
    narrate,
    scoring,
    setup,
    views,
)
from arbiter.games.mottainai.cards import CARDS
from arbiter.games.mottainai.effects import missing
from arbiter.games.mottainai.state import State, decode, encode

BOOLEAN = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}


def _notes() -> tuple[str, ...]:
    todo = missing()
    if not todo:
        return ()
    listed = ", ".join(CARDS[c].name for c in todo)
    return (
        f"Card effects not implemented yet ({len(todo)} of 54): these cards play as plain "
        f"works without their effect: {listed}.",
    )


class MottainaiEngine(Engine):
    """Mottainai (Asmadi Games) for 2 to 5 players: the base game."""

    info: ClassVar[EngineInfo] = EngineInfo(
        name="mottainai",
        title="Mottainai",
        # 0.2.0: refusals and prompts under Mask, Curtain and Tower say why (M-R55, M-R56).
        version="0.2.0",
        min_seats=2,
        max_seats=5,
        # scoring.BREAKDOWN, then the team sum of team play.
        score_columns=(*scoring.BREAKDOWN, "team"),
        hidden_information=True,
        chance=True,
        options=(
            OptionInfo("extended", "extended game: a wing ends the game at 6 works (yes/no)", "no"),
            OptionInfo("teams", "team play for exactly 4 players, partners across (yes/no)", "no"),
        ),
        notes=_notes(),
    )

    # -- options -------------------------------------------------------------------------
    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """Turn ``extended=yes`` / ``teams=yes`` into booleans."""
        strings = super().parse_options(raw)
        out = {}
        for key, value in strings.items():
            flag = BOOLEAN.get(str(value).lower())
            if flag is None:
                raise UsageError(f"option {key} takes yes or no, not {value!r}")
            out[key] = flag
        return out

    def check_options(self, options: Mapping[str, Any]) -> None:
        super().check_options(options)
        for key in ("extended", "teams"):
            if type(options.get(key)) is not bool:
                raise SchemaViolation(f"manifest option {key} for mottainai must be true or false")

    def check_seats(self, options: Mapping[str, Any], seats: int) -> None:
        # Rules: team play is for exactly four players, partners sitting across.
        if options.get("teams") and seats != 4:
            raise UsageError(f"team play needs exactly 4 players, not {seats}: drop --option teams=yes")

    # -- the game ------------------------------------------------------------------------
    def setup(
        self, options: Mapping[str, Any], seats: list[str], rng: Rng
    ) -> tuple[State, list[Event]]:
        return setup.setup(options, seats, rng)

    def prompt(self, state: State) -> Prompt | None:
        return flow.prompt(state)

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        return moves.legal_actions(state, seat)

    def check(self, state: State, seat: str, action: Action) -> None:
        moves.check(state, seat, action)

    def apply(self, state: State, seat: str, action: Action, rng: Rng) -> list[Event]:
        """Apply a checked decision; no randomness is needed after the setup shuffle."""
        return flow.apply(state, seat, action)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return views.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return None if state.result is None else scoring.outcome(state)

    def describe(self, event: Event, viewer: str | None) -> str | None:
        return narrate.describe(event, viewer)

    # Most lines read the same for everyone: narrated once each (replay speed). Bound
    # straight to the function, as a replay calls it for every event.
    describe_all = staticmethod(narrate.describe_all)

    def action_schema(self) -> dict[str, Any]:
        return moves.action_schema()

    # -- deadlines -----------------------------------------------------------------------
    def default_action(self, state: State, seat: str) -> Action:
        """M-R76: no task, every action a PRAYER, no effect used."""
        return defaults.default_action(state, seat)

    def provisional_outcome(self, state: State) -> Outcome:
        """M-R77: the final scoring of the table as it stands."""
        return scoring.provisional(state)

    # -- state as data -------------------------------------------------------------------
    def encode(self, state: State) -> dict[str, Any]:
        return encode(state)

    def decode(self, data: Any) -> State:
        return decode(data)

    # -- tests and tools -----------------------------------------------------------------
    def resample(self, state: State, seat: str, rng: Rng) -> State:
        return views.resample(state, seat, rng)

    def determinize(
        self,
        view: Mapping[str, Any],
        seat: str,
        rng: Rng,
        prompt: Mapping[str, Any] | None = None,
    ) -> State:
        """Deal what ``seat`` cannot see around the zones its view counts."""
        return determinize.determinize(view, seat, rng, prompt)

    def invariants(self, state: State) -> None:
        views.invariants(state)

    def label(self, action: Action) -> str:
        return moves.label(action)

    def render(self, view: Mapping[str, Any], seat: str | None) -> list[str]:
        return narrate.render(view, seat)
