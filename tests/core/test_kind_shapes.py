"""A decision is judged by its kind's branch only (``arbiter.core.kind_shapes``), with the
verdicts and the messages the whole ``oneOf`` of the engine's schema gives.

The fast path (dispatch on ``kind``, the branch judged field by field with remembered
verdicts) must accept exactly what the whole union accepts; a refusal is explained by
the whole union, in the same words as before; a decision whose ``kind`` is missing,
unknown or not a string goes to the whole union too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from arbiter.core import registry, table
from arbiter.core.errors import SchemaViolation
from arbiter.core.kind_shapes import KindShape, by_kind, kind_shapes
from arbiter.core.replay import verify
from arbiter.core.schemas import DECISION, explain, names_of

ROOT = Path(__file__).resolve().parents[2]
ENGINES = registry.names()
GOLDEN = {
    "mottainai": [
        ROOT / "examples" / "mottainai" / "game",
        ROOT / "examples" / "mottainai-wutai" / "game",
    ],
    "motcoin": [ROOT / "examples" / "motcoin" / "game"],
    "momiji": [ROOT / "examples" / "momiji" / "game"],
    "tally": [ROOT / "tests" / "golden" / "tally" / "game"],
}


def started(name: str) -> table.Table:
    """A fresh game of engine ``name`` at its fewest seats, set up at once."""
    engine = registry.get(name)
    seats = ["alice", "bob", "carol", "dave", "erin"][: engine.info.min_seats]
    manifest = {
        "game": "g1",
        "seats": [{"seat": seat} for seat in seats],
        "join": False,
        "options": engine.parse_options({}),
        "engine": {"name": name, "version": engine.info.version},
    }
    game = table.Table(manifest, engine, bytes(32))
    game.genesis()
    return game


def union_says(game: table.Table, seat: str, action: Any) -> str:
    """The message the whole union gives (what ``_check_shape`` said before the split)."""
    schema = game.engine.action_schema()
    errors = list(Draft202012Validator(schema).iter_errors(action))
    assert errors, action
    names = names_of(game.engine.legal_actions(game.state, seat))
    return f"action 1: {explain(errors, schema, names, DECISION)}"


def refusal(game: table.Table, seat: str, action: Any) -> str:
    with pytest.raises(SchemaViolation) as caught:
        game._check_shape(action, 0, seat)
    return str(caught.value)


@pytest.fixture(scope="module")
def golden_decisions() -> dict[str, list[dict[str, Any]]]:
    """Every decision the golden games hold, per engine (recorded as verify checks them)."""
    seen: dict[str, dict[str, dict[str, Any]]] = {}
    check = table.Table._check_shape

    def record(self: table.Table, action: Any, index: int, seat: str) -> None:
        seen.setdefault(self.engine.info.name, {})[repr(action)] = action
        check(self, action, index, seat)

    table.Table._check_shape = record  # type: ignore[method-assign]
    try:
        for games in GOLDEN.values():
            for game in games:
                verify(game, signatures=False)
    finally:
        table.Table._check_shape = check  # type: ignore[method-assign]
    return {name: list(found.values()) for name, found in seen.items()}


@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_splits_into_one_shape_per_kind(name: str) -> None:
    schema = registry.get(name).action_schema()
    split = by_kind(schema)
    assert split is not None
    assert len(split) == len(schema["oneOf"])


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_every_kind_in_the_golden_games_passes(name: str, golden_decisions) -> None:
    shapes = kind_shapes(registry.get(name).action_schema())
    decisions = golden_decisions[name]
    assert decisions
    for decision in decisions:
        assert shapes[decision["kind"]].is_valid(decision), decision
    assert len({d["kind"] for d in decisions}) >= min(3, len(shapes))


ODD: list[Any] = [1, -1, 0, 99, 1.5, True, None, "", "X Y", "a-b", "12", [], ["x"], [1], [0, 0]]
ODD += [[6, 6, 3], ["a-b", "a-b"], {"a": 1}, list(range(12))]


def mutants(decision: dict[str, Any], kinds: list[str]) -> list[dict[str, Any]]:
    """Typical slips on a good decision: a field dropped, retyped, an item retyped, a list
    doubled, a field added, another kind's tag."""
    out = [decision, {**decision, "extra": 1}]
    out += [{**decision, "kind": kind} for kind in kinds]
    for field, value in decision.items():
        out.append({k: v for k, v in decision.items() if k != field})
        out += [{**decision, field: odd} for odd in ODD]
        if isinstance(value, list) and value:
            out += [{**decision, field: [odd, *value[1:]]} for odd in ODD]
            out.append({**decision, field: value * 5})
    return out


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_a_kind_shape_agrees_with_the_whole_union(name: str, golden_decisions) -> None:
    """Same verdicts on golden decisions and their mutants, and again from the memos."""
    schema = registry.get(name).action_schema()
    union = Draft202012Validator(schema)
    shapes = kind_shapes(schema)
    per_kind: dict[str, list[dict[str, Any]]] = {}
    for decision in golden_decisions[name]:
        per_kind.setdefault(decision["kind"], []).append(decision)
    cases = [
        (mutant, union.is_valid(mutant))
        for decisions in per_kind.values()
        for decision in decisions[:3]
        for mutant in mutants(decision, list(shapes))
        if isinstance(mutant.get("kind"), str) and mutant["kind"] in shapes
    ]
    assert any(verdict for _, verdict in cases) and not all(verdict for _, verdict in cases)
    for _ in range(2):  # the second round answers from the remembered verdicts
        for mutant, verdict in cases:
            assert shapes[mutant["kind"]].is_valid(mutant) == verdict, mutant


@pytest.mark.parametrize("name", ENGINES)
def test_a_bad_field_is_named_in_the_union_s_words(name: str) -> None:
    game = started(name)
    prompt = game.prompt()
    legal = game.engine.legal_actions(game.state, prompt.seat)
    action = next(a for a in legal if len(a) > 1)
    field = next(k for k in sorted(action) if k != "kind")
    wrong = {**action, field: 7 if not isinstance(action[field], int) else "seven"}
    said = refusal(game, prompt.seat, wrong)
    assert said == union_says(game, prompt.seat, wrong)
    assert said.startswith(f"action 1: {field} must be "), said
    extra = {**action, field + "s": action[field]}
    said = refusal(game, prompt.seat, extra)
    assert said == union_says(game, prompt.seat, extra)
    assert said.startswith(f"action 1: unknown field '{field}s': did you mean '{field}'?")


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("kind", ["missing", "unknown", 7, ["list"], None])
def test_a_kind_no_branch_names_gets_the_union_s_message(name: str, kind: Any) -> None:
    game = started(name)
    seat = game.prompt().seat
    action = {"card": "x"} if kind == "missing" else {"kind": kind}
    said = refusal(game, seat, action)
    assert said == union_says(game, seat, action)
    if kind == "missing":
        assert said.startswith("action 1: field 'kind' is missing: add it (kinds: "), said
    elif kind == "unknown":
        assert said.startswith("action 1: no decision kind 'unknown': this game has "), said
    else:
        assert said.startswith("action 1: kind must be a string, not "), said


def test_a_decision_that_is_not_an_object() -> None:
    game = started("mottainai")
    seat = game.prompt().seat
    said = refusal(game, seat, ["task"])  # type: ignore[arg-type]
    assert said == union_says(game, seat, ["task"])


def test_pray_for_prayer_in_the_same_words() -> None:
    game = started("mottainai")
    said = refusal(game, game.prompt().seat, {"kind": "pray"})
    assert said.startswith("action 1: no decision kind 'pray': this game has return, ")
    assert said.endswith("; did you mean 'prayer'?")


def test_a_remembered_verdict_belongs_to_its_field_and_kind() -> None:
    """One value, good in one field and bad in another: each field keeps its own verdict."""
    shapes = kind_shapes(registry.get("mottainai").action_schema())
    smith = {"kind": "smith", "work": "sword", "support": [], "wing": "gallery"}
    assert shapes["smith"].is_valid(smith)
    assert not shapes["smith"].is_valid({**smith, "support": "gallery"})
    assert not shapes["smith"].is_valid({**smith, "wing": "sword"})
    assert shapes["smith"].is_valid(smith)
    assert not shapes["task"].is_valid({"kind": "task", "card": "sword", "wing": "gallery"})


def test_a_union_that_cannot_be_split_is_judged_whole() -> None:
    tagged = {"type": "object", "properties": {"kind": {"const": "a"}}}
    assert by_kind({"oneOf": [tagged, {"type": "object"}]}) is None  # an untagged branch
    assert by_kind({"oneOf": [tagged, tagged]}) is None  # one tag twice
    assert by_kind({"type": "object"}) is None  # no union at all
    # A shape that is not plainly an object of fields is judged whole, still exactly.
    shape = KindShape({"type": "object", "minProperties": 2, "properties": {"kind": {}}})
    assert not shape.is_valid({"kind": "a"})
    assert shape.is_valid({"kind": "a", "b": 1})
    # A shape with a $ref is judged whole, with its $defs.
    ref = {"$defs": {"id": {"type": "string"}}, "properties": {"kind": {"$ref": "#/$defs/id"}}}
    shape = KindShape({"type": "object", **ref})
    assert shape.is_valid({"kind": "a"})
    assert not shape.is_valid({"kind": 1})


def never(what: str) -> Any:
    def called(*args: Any) -> Any:
        raise AssertionError(f"{what} ran")

    return called


def past_the_listing(monkeypatch, game: table.Table) -> None:
    """Make ``game``'s process judge by the schema, as a long replay does."""
    engine = (game.engine.info.name, game.engine.info.version)
    monkeypatch.setattr(table, "_listed_left", {engine: 0})


def test_the_fast_path_does_not_run_the_union(monkeypatch) -> None:
    """A good decision never seen before is judged by its kind's shape alone."""
    game = started("mottainai")
    seat = game.prompt().seat
    action = game.engine.legal_actions(game.state, seat)[0]
    game._valid_shapes.discard(repr(action))  # not remembered from an earlier test
    past_the_listing(monkeypatch, game)
    monkeypatch.setattr(table, "_action_validator", never("the whole union"))
    monkeypatch.setattr(game.engine, "legal_actions", never("legal_actions"))
    game._check_shape(action, 0, seat)


@pytest.mark.parametrize("name", ENGINES)
def test_a_listed_decision_needs_no_schema(monkeypatch, name: str) -> None:
    """The first decisions a process judges: one the engine lists now is accepted without
    jsonschema (a submit never loads it); the conformance suite checks listed ones fit."""
    game = started(name)
    seat = game.prompt().seat
    action = game.engine.legal_actions(game.state, seat)[-1]
    game._valid_shapes.discard(repr(action))
    monkeypatch.setattr(table, "_listed_left", {})
    monkeypatch.setattr(table, "_kind_shapes", never("a kind shape"))
    monkeypatch.setattr(table, "_action_validator", never("the whole union"))
    game._check_shape(action, 0, seat)
    assert repr(action) in game._valid_shapes


def test_listed_means_the_same_json_not_equal_in_python(monkeypatch) -> None:
    """true == 1 in Python, not in JSON: a listed card 1 does not vouch for card true."""
    game = started("tally")
    seat = game.prompt().seat
    monkeypatch.setattr(game.engine, "legal_actions", lambda *_: [{"kind": "play", "card": 1}])
    monkeypatch.setattr(table, "_listed_left", {})
    wrong = {"kind": "play", "card": True}
    said = refusal(game, seat, wrong)
    assert said == union_says(game, seat, wrong)
    assert said.startswith("action 1: card must be an integer, not true or false"), said


def test_listing_stops_after_its_share_of_decisions(monkeypatch) -> None:
    game = started("mottainai")
    seat = game.prompt().seat
    legal = game.engine.legal_actions(game.state, seat)
    monkeypatch.setattr(table, "_listed_left", {})
    monkeypatch.setattr(table, "_LISTED_FIRST", 2)
    for action in legal[:2]:
        game._valid_shapes.discard(repr(action))
        game._check_shape(action, 0, seat)
    monkeypatch.setattr(game.engine, "legal_actions", never("legal_actions"))
    game._valid_shapes.discard(repr(legal[2]))
    game._check_shape(legal[2], 0, seat)
