"""The committed JSON Schemas match the pydantic models and accept what arbiter writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from arbiter.core import registry, schemas
from arbiter.core.errors import SchemaViolation
from arbiter.core.models import SCHEMA_MODELS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(SCHEMA_MODELS))
def test_committed_schema_matches_the_model(name: str) -> None:
    committed = (ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8")
    generated = schemas.render(schemas.generate(name))
    assert committed == generated, (
        f"schemas/{name}.schema.json drifted from arbiter.core.models: "
        "run `python -m arbiter.core.schemas` and commit the result"
    )


@pytest.mark.parametrize("name", sorted(SCHEMA_MODELS))
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_every_schema_file_has_a_model() -> None:
    files = {p.name.removesuffix(".schema.json") for p in (ROOT / "schemas").glob("*.schema.json")}
    assert files == set(SCHEMA_MODELS) | {f"view-{name}" for name in registry.BUILTIN}


@pytest.mark.parametrize("name", sorted(registry.BUILTIN))
def test_committed_view_schema_matches_the_engine(name: str) -> None:
    committed = (ROOT / "schemas" / f"view-{name}.schema.json").read_text(encoding="utf-8")
    assert committed == schemas.render(schemas.generate_view(name)), (
        f"schemas/view-{name}.schema.json drifted from the engine's view type: "
        "run `python -m arbiter.core.schemas` and commit the result"
    )
    assert registry.get(name).view_schema() == ROOT / "schemas" / f"view-{name}.schema.json"
    Draft202012Validator.check_schema(json.loads(committed))


def test_the_test_engine_view_schema_matches_its_type() -> None:
    """tally's schema sits beside it (a test engine ships nothing in schemas/)."""
    from testgame.view_schema import SCHEMA, generate

    assert SCHEMA.read_text(encoding="utf-8") == schemas.render(generate()), (
        "tests/testgame/view-tally.schema.json drifted: regenerate it from "
        "testgame.view_schema.generate()"
    )


def test_unknown_field_is_named_in_one_line() -> None:
    move = {
        "format": "arbiter.move/1",
        "game": "g",
        "seat": "alice",
        "after": "sha256:" + "0" * 64,
        "actions": [{"kind": "pass"}],
        "signature": "x",
        "colour": "blue",
    }
    with pytest.raises(SchemaViolation) as caught:
        schemas.validate("move", move, "move.json")
    assert "'colour'" in caught.value.message and "\n" not in caught.value.message


def test_seat_may_be_null_only_where_the_model_says() -> None:
    entry = {
        "format": "arbiter.chain/1",
        "seq": 0,
        "kind": "genesis",
        "seat": None,
        "prev": None,
        "digest": "sha256:" + "a" * 64,
        "summary": [],
        "hash": "sha256:" + "b" * 64,
    }
    schemas.validate("chain-entry", entry, "entry")
    with pytest.raises(SchemaViolation):
        schemas.validate("chain-entry", {**entry, "seat": "Not A Seat"}, "entry")


def test_schema_messages_never_quote_the_value() -> None:
    """jsonschema's own messages quote the offending value; ours say what the schema wants."""
    secret = "d3adb33f" * 8
    move = {
        "format": "arbiter.move/1",
        "game": "g-1",
        "seat": "alice",
        "after": "sha256:" + "0" * 64,
        "actions": [{"kind": "pass"}],
        "signature": "x",
    }
    for field in ("game", "seat", "after", "format"):
        bad = {**move, field: secret + "!"}
        with pytest.raises(SchemaViolation) as caught:
            schemas.validate("move", bad, "move.json")
        assert secret not in caught.value.message and field in caught.value.message
    with pytest.raises(SchemaViolation) as caught:
        schemas.validate("move", {**move, secret: 1}, "move.json")
    assert secret not in caught.value.message and "unknown field" in caught.value.message
