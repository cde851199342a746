"""The Momiji engine: the protocol's methods, each delegating to one module."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from arbiter.core import viewcheck
from arbiter.core.engine import Action, Engine, EngineInfo, Event, OptionInfo, Outcome, Prompt
from arbiter.core.errors import IllegalAction, SchemaViolation, UsageError
from arbiter.core.hidden import Disclosure
from arbiter.core.rng import Rng
from arbiter.games.momiji import (
    data,
    defaults,
    determinize,
    disclose,
    flow,
    moves,
    narrate,
    rules,
    scoring,
    views,
)
from arbiter.games.momiji.state import State, decode, encode

NOTES = (
    (
        "Provisional (the printed data was not found): leaf type names, acorn corners, "
        "the 12 landscapes with their powers and A/B/C sets, the first-game panoramas, "
        "5 of the 13 objectives (most 0s, most of one type and most visible cards are "
        "confirmed kinds) and the 2 starting acorns."
    ),
    (
        "Provisional rulings: garden refill to 4, torii limit players+2, tie-break on "
        "acorns; see docs/rulings/momiji.md."
    ),
    "Play with your own printed data: --option data=FILE (see momiji/data.schema.json).",
)


class MomijiEngine(Engine):
    """Momiji (Deer Games, 2021) for 2 to 4 players."""

    peer = True  # docs/peer.md §3: steps 4 and 5 of issue 29
    info: ClassVar[EngineInfo] = EngineInfo(
        name="momiji",
        title="Momiji",
        # 1.1.0: every acorn pair pays (MOM-R10), players place new piles (MOM-R5).
        version="1.1.0",
        min_seats=2,
        max_seats=4,
        score_columns=("piles", "acorns", "objectives", "total"),
        hidden_information=True,
        chance=True,
        options=(
            OptionInfo(
                "data",
                "printed data JSON file (data.schema.json); builtin: the shipped provisional data",
                data.BUILTIN,
            ),
            OptionInfo(
                "landscapes",
                "fixed: the first-game panoramas; random: one random landscape of each set",
                flow.FIXED,
            ),
        ),
        notes=NOTES,
    )

    # -- options -------------------------------------------------------------------------
    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """Embed the data of ``data=FILE`` so a replay needs no file."""
        super().parse_options(raw)
        mode = raw.get("landscapes", flow.FIXED)
        if mode not in (flow.FIXED, flow.RANDOM):
            raise UsageError(f"option landscapes={mode!r}: choose fixed or random")
        path = raw.get("data", data.BUILTIN)
        if not path:
            raise UsageError("option data= needs a file name (or 'builtin')")
        loaded = data.BUILTIN if path == data.BUILTIN else data.load_file(path)
        return {"data": loaded, "landscapes": mode}

    def check_options(self, options: Mapping[str, Any]) -> None:
        super().check_options(options)
        if "data" not in options or options.get("landscapes") not in (flow.FIXED, flow.RANDOM):
            raise SchemaViolation("manifest options for momiji need 'data' and 'landscapes'")
        data.resolve(options["data"])

    # -- the game ------------------------------------------------------------------------
    def setup(
        self, options: Mapping[str, Any], seats: list[str], rng: Rng
    ) -> tuple[State, list[Event]]:
        if not self.info.min_seats <= len(seats) <= self.info.max_seats:
            raise UsageError(f"Momiji needs 2 to 4 players, not {len(seats)}")
        table = data.resolve(options.get("data", data.BUILTIN))
        return flow.setup(table, options.get("landscapes", flow.FIXED), seats, rng)

    def prompt(self, state: State) -> Prompt | None:
        return flow.prompt(state)

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        return rules.legal_actions(state, seat)

    def check(self, state: State, seat: str, action: Action) -> None:
        rules.check(state, seat, action)

    def apply(self, state: State, seat: str, action: Action, rng: Rng) -> list[Event]:
        # All chance is in the setup shuffle: the deck's order decides every later draw.
        return flow.apply(state, seat, action)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return views.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return None if state.result is None else scoring.outcome(state.result)

    def describe(self, event: Event, viewer: str | None) -> str | None:
        return narrate.describe(event, viewer)

    def describe_all(self, event: Event, viewers: list[str | None]) -> list[str | None]:
        return narrate.describe_all(event, viewers)

    # -- peer play (docs/peer.md §3.5) -------------------------------------------------
    def disclose(
        self,
        shared: State,
        seat: str,
        action: Action,
        known: Mapping[str, str],
        order: Sequence[str] | None = None,
    ) -> Disclosure:
        """Hand cards are shown with the decision, but a card buried at once stays hidden
        (MOM-R21)."""
        return disclose.disclose(shared, seat, action, known, order)

    def claims(self, state: State, seat: str, action: Action) -> dict[str, list[str]]:
        return rules.claims(state, seat, action)

    # -- deadlines ---------------------------------------------------------------------------
    def default_action(self, state: State, seat: str) -> Action:
        """MOM-R16: the cheapest legal decision (acorns, then cards, then their value)."""
        return defaults.default_action(state, seat)

    def provisional_outcome(self, state: State) -> Outcome:
        """MOM-R17: the final scoring of the table now."""
        return scoring.provisional(state)

    def action_schema(self) -> dict[str, Any]:
        return moves.action_schema()

    # -- state as data ---------------------------------------------------------------------
    def encode(self, state: State) -> dict[str, Any]:
        return encode(state)

    def decode(self, data: Any) -> State:
        return decode(data)

    # -- tests and tools -------------------------------------------------------------------
    def resample(self, state: State, seat: str, rng: Rng) -> State:
        return views.resample(state, seat, rng)

    def determinize(
        self,
        view: Mapping[str, Any],
        seat: str,
        rng: Rng,
        prompt: Mapping[str, Any] | None = None,
    ) -> State:
        """Deal what ``seat`` cannot see: buried pile cards first, then hands and deck."""
        return determinize.determinize(view, seat, rng, prompt)

    def view_type(self) -> Any:
        from arbiter.games.momiji.view_schema import VIEW

        return VIEW

    def view_schema(self) -> Path:
        return viewcheck.committed(self.info.name)

    def view_problem(self, state_file: Mapping[str, Any]) -> str | None:
        """The fields against each other (``view_check``), then the rebuild."""
        from arbiter.games.momiji import view_check

        found = view_check.problem(state_file["view"], state_file)
        return found if found is not None else super().view_problem(state_file)

    def invariants(self, state: State) -> None:
        views.check_invariants(state)

    def label(self, action: Action) -> str:
        """A state file's legal decisions are read as decisions first: a hand-edited one
        that is not one is labelled by its kind alone."""
        try:
            moves.parse(action)
        except IllegalAction:
            kind = action.get("kind") if isinstance(action, dict) else None
            return kind if isinstance(kind, str) else "?"
        return narrate.label(action)

    def render(self, view: Mapping[str, Any], seat: str | None) -> list[str]:
        return narrate.render(view, seat)
