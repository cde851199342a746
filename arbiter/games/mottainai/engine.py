"""The Mottainai engine: the protocol's methods, each delegating to one module."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from arbiter.core import viewcheck
from arbiter.core.engine import Action, Engine, EngineInfo, Event, OptionInfo, Outcome, Prompt
from arbiter.core.errors import SchemaViolation, UsageError
from arbiter.core.hidden import Disclosure
from arbiter.core.rng import Rng
from arbiter.games.mottainai import (
    defaults,
    determinize,
    disclose,
    flow,
    moves,
    narrate,
    scoring,
    setup,
    views,
    wutai,
)
from arbiter.games.mottainai.cards import CARDS
from arbiter.games.mottainai.effects import missing
from arbiter.games.mottainai.state import State, decode, encode

BOOLEAN = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
FLAGS = ("extended", "teams", "wutai", "om_works_end")
WUTAI_ONLY = ("wutai_cards", "wutai_draws", "om_works_end", "om_leave")
"""Options that mean something only with ``wutai=yes`` (stored only then)."""
CHOICES = {"wutai_draws": wutai.DRAWS, "om_leave": wutai.LEAVES}


def _notes() -> tuple[str, ...]:
    todo = missing()
    if not todo:
        return ()
    listed = ", ".join(CARDS[c].name for c in todo)
    return (
        f"Card effects not implemented yet ({len(todo)} of 54): these cards play as plain "
        f"works without their effect: {listed}.",
    )


WUTAI_NOTE = (
    "Wutai Mountain (wutai=yes) is provisional: its 54 card texts are not public. The "
    "shipped list has URN and WICK (effects from the rulebook), BANDANA (name only, vanilla), "
    "a reported Paper Om SMITH booster, and 50 vanilla placeholders om-01..om-50 spread over "
    "the five materials; the materials of the named cards are guesses (docs/rulings/"
    "mottainai.md, M-R113). Play with your own list: --option wutai_cards=FILE "
    "(docs/wutai-cards.md)."
)


class MottainaiEngine(Engine):
    """Mottainai (Asmadi Games) for 2 to 5 players: the base game."""

    peer = True  # docs/peer-mottainai.md: issue 30, steps 4.2-4.5

    info: ClassVar[EngineInfo] = EngineInfo(
        name="mottainai",
        title="Mottainai",
        # 0.2.0: refusals and prompts under Mask, Curtain and Tower say why (M-R55, M-R56).
        # 0.3.0: Wutai Mountain's tucking rule applies to every card effect that tucks
        # (M-R119): a game where such an effect met an Om work replays only with 0.3.0.
        # 0.4.0: Jar shows and takes, Puppet passes, and the Night line names cards in card
        # order, not arrival order (M-R38, M-R128, M-R132), as a game with no referee can;
        # URN's line tells the swap as it was (its event no longer shares the table's lists).
        version="0.4.0",
        min_seats=2,
        max_seats=5,
        # scoring.BREAKDOWN, then the team sum of team play.
        score_columns=(*scoring.BREAKDOWN, "team"),
        hidden_information=True,
        chance=True,
        options=(
            OptionInfo("extended", "extended game: a wing ends the game at 6 works (yes/no)", "no"),
            OptionInfo("teams", "team play for exactly 4 players, partners across (yes/no)", "no"),
            OptionInfo("wutai", "the Wutai Mountain expansion: the Om deck (yes/no)", "no"),
            OptionInfo(
                "wutai_cards",
                "Wutai card list JSON file (wutai.schema.json); builtin: the shipped provisional list",
                wutai.BUILTIN,
            ),
            OptionInfo(
                "wutai_draws",
                "which draws to a waiting area without a Wutai card are Wutai: prayer "
                "(PRAYER only) or any (every draw but TAILOR's) (M-R103)",
                "prayer",
            ),
            OptionInfo(
                "om_works_end", "Om works count toward the 5 (6) works end (yes/no, M-R111)", "yes"
            ),
            OptionInfo(
                "om_leave",
                "where tucked cards go when their Om work leaves play: return or floor (M-R112)",
                "return",
            ),
        ),
        notes=(*_notes(), WUTAI_NOTE),
    )

    # -- options -------------------------------------------------------------------------
    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """Turn ``extended=yes`` / ``teams=yes`` / ``wutai=yes`` into booleans.

        Without ``wutai=yes`` the manifest holds only ``extended`` and ``teams`` (a base
        game's manifest is unchanged); with it, the Wutai options too, the card list
        embedded (``builtin`` for the shipped one).
        """
        strings = super().parse_options(raw)
        out: dict[str, Any] = {}
        for key, value in strings.items():
            if key in FLAGS:
                flag = BOOLEAN.get(str(value).lower())
                if flag is None:
                    raise UsageError(f"option {key} takes yes or no, not {value!r}")
                out[key] = flag
            elif key in CHOICES:
                if value not in CHOICES[key]:
                    raise UsageError(
                        f"option {key} takes {' or '.join(CHOICES[key])}, not {value!r}"
                    )
                out[key] = value
            else:
                out[key] = value
        if not out["wutai"]:
            given = sorted(k for k in WUTAI_ONLY if k in raw)
            if given:
                raise UsageError(f"option {given[0]} needs --option wutai=yes")
            return {"extended": out["extended"], "teams": out["teams"]}
        path = out["wutai_cards"]
        if path != wutai.BUILTIN:
            if not path:
                raise UsageError("option wutai_cards= needs a file name (or 'builtin')")
            out["wutai_cards"] = wutai.load_file(path)
        return out

    def check_options(self, options: Mapping[str, Any]) -> None:
        super().check_options(options)
        for key in ("extended", "teams"):
            if type(options.get(key)) is not bool:
                raise SchemaViolation(f"manifest option {key} for mottainai must be true or false")
        if "wutai" not in options:
            return
        if options["wutai"] is not True:
            raise SchemaViolation("manifest option wutai for mottainai is true or absent")
        if type(options.get("om_works_end")) is not bool:
            raise SchemaViolation(
                "manifest option om_works_end for mottainai must be true or false"
            )
        for key, allowed in CHOICES.items():
            if options.get(key) not in allowed:
                raise SchemaViolation(
                    f"manifest option {key} for mottainai is one of {list(allowed)}"
                )
        wutai.resolve(options.get("wutai_cards"))

    def check_seats(self, options: Mapping[str, Any], seats: int) -> None:
        # Rules: team play is for exactly four players, partners sitting across.
        if options.get("teams") and seats != 4:
            raise UsageError(
                f"team play needs exactly 4 players, not {seats}: drop --option teams=yes"
            )

    # -- the game ------------------------------------------------------------------------
    def setup(
        self, options: Mapping[str, Any], seats: list[str], rng: Rng
    ) -> tuple[State, list[Event]]:
        return setup.setup(options, seats, rng)

    def prompt(self, state: State) -> Prompt | None:
        return flow.prompt(state)

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        if state.wutai is not None:
            wutai.ensure(state.wutai["table"])
        return moves.legal_actions(state, seat)

    def check(self, state: State, seat: str, action: Action) -> None:
        if state.wutai is not None:
            wutai.ensure(state.wutai["table"])
        moves.check(state, seat, action)

    def apply(self, state: State, seat: str, action: Action, rng: Rng) -> list[Event]:
        """Apply a checked decision; no randomness is needed after the setup shuffle."""
        if state.wutai is not None:
            wutai.ensure(state.wutai["table"])
        return flow.apply(state, seat, action)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        if state.wutai is not None:
            wutai.ensure(state.wutai["table"])
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

    # -- standing orders ---------------------------------------------------------------
    def public_decision(self, action: Action) -> Action:
        """What every seat may know of a decision (docs/standing-orders.md):
        a returned card goes face down (M-R18), and an effect's parameters may name hand
        cards, so only the work used is public."""
        kind = action.get("kind")
        if kind == "return":
            return {"kind": "return"}
        if kind == "use":
            return {"kind": "use", "card": action.get("card")}
        return dict(action)

    # -- deadlines -----------------------------------------------------------------------
    def default_action(self, state: State, seat: str) -> Action:
        """M-R76: no task, every action a PRAYER, no effect used."""
        if state.wutai is not None:
            wutai.ensure(state.wutai["table"])
        return defaults.default_action(state, seat)

    # -- peer play (docs/peer-mottainai.md) ------------------------------------------------
    def disclose(
        self,
        shared: State,
        seat: str,
        action: Action,
        known: Mapping[str, str],
        order: Sequence[str] | None = None,
    ) -> Disclosure:
        """Hand cards a decision uses are shown with it; a card returned face down stays a
        placeholder (M-R125), re-concealed first if everyone saw it (M-R127)."""
        return disclose.disclose(shared, seat, action, known, order)

    def claims(self, state: State, seat: str, action: Action) -> dict[str, list[str]]:
        """WICK's returned card is proven of an Om-helper-type (M-R129)."""
        return disclose.claims(state, seat, action)

    def passes(self, state: State, seat: str, action: Action) -> dict[str, str]:
        """Puppet's two hands change sides (M-R128)."""
        return disclose.passes(state, seat, action)

    def preshares(self, state: State) -> dict[str, tuple[str, ...]]:
        """The face-down tasks (M-R14, M-R134)."""
        return disclose.preshares(state)

    def hands(self, state: State, seat: str) -> list[list[str]]:
        return [state.players[seat].hand]

    def provisional_outcome(self, state: State) -> Outcome:
        """M-R77: the final scoring of the table as it stands."""
        if state.wutai is not None:
            wutai.ensure(state.wutai["table"])
        return scoring.provisional(state)

    # -- state as data -------------------------------------------------------------------
    def encode(self, state: State) -> dict[str, Any]:
        return encode(state)

    def decode(self, data: Any) -> State:
        return decode(data)

    # -- tests and tools -----------------------------------------------------------------
    def resample(self, state: State, seat: str, rng: Rng) -> State:
        if state.wutai is not None:
            wutai.ensure(state.wutai["table"])
        return views.resample(state, seat, rng)

    def determinize(
        self,
        view: Mapping[str, Any],
        seat: str,
        rng: Rng,
        prompt: Mapping[str, Any] | None = None,
    ) -> State:
        """Deal what ``seat`` cannot see around the zones its view counts."""
        views.ensure_view(view)
        return determinize.determinize(view, seat, rng, prompt)

    def view_type(self) -> Any:
        from arbiter.games.mottainai.view_schema import VIEW

        return VIEW

    def view_schema(self) -> Path:
        return viewcheck.committed(self.info.name)

    def order_matters(self, before: State, after: State, seat: str) -> bool:
        """A card left a deck that holds cards this seat returned: whether one of them
        was taken shows in ``returned_by_you``, and that follows from where they lie under
        the others' returns (M-R18), which a view does not record."""
        return views.deck_order_matters(before, after, seat)

    def view_problem(self, state_file: Mapping[str, Any]) -> str | None:
        """The fields against each other (``view_check``), then the rebuild."""
        from arbiter.games.mottainai import view_check

        found = view_check.problem(state_file["view"], state_file)
        return found if found is not None else super().view_problem(state_file)

    def invariants(self, state: State) -> None:
        if state.wutai is not None:
            wutai.ensure(state.wutai["table"])
        views.invariants(state)

    def label(self, action: Action) -> str:
        return moves.label(action)

    def render(self, view: Mapping[str, Any], seat: str | None) -> list[str]:
        views.ensure_view(view)
        return narrate.render(view, seat)


# The shipped Wutai list is always installed, so its card ids read everywhere (a state
# file, ``arbiter moves``); a game with its own list installs that one (wutai.ensure).
wutai.ensure(wutai.register(wutai.BUILTIN))
