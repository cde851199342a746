"""Validate incoming files against the committed JSON Schemas (draft 2020-12).

The schemas in ``schemas/`` are generated from ``arbiter.core.models`` by
``python -m arbiter.core.schemas`` and committed; a test fails when they drift. A wheel
carries them as ``arbiter/_schemas``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from arbiter.core.canonical import PLAIN_KEY
from arbiter.core.errors import SchemaViolation
from arbiter.core.shapes import FAST

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_dir() -> Path:
    """Return the folder holding the committed schemas."""
    packaged = Path(__file__).resolve().parent.parent / "_schemas"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "schemas"


def generate(name: str) -> dict[str, Any]:
    """Return the JSON Schema of file kind ``name`` generated from its model."""
    from arbiter.core.models import SCHEMA_MODELS

    schema = SCHEMA_MODELS[name].model_json_schema()
    return {
        "$schema": DIALECT,
        "$id": f"https://arbiter.invalid/schemas/{name}.schema.json",
        **schema,
    }


def generate_view(name: str) -> dict[str, Any]:
    """Return the JSON Schema of engine ``name``'s views (``view-<name>``), generated from
    its view type (``arbiter.core.viewtypes``)."""
    from arbiter.core import registry

    view_type = registry.get(name).view_type()
    assert view_type is not None, f"{name} has no view type"
    return view_type.json_schema(name)


def render(schema: dict[str, Any]) -> str:
    """Return the committed text form of a schema."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    path = schema_dir() / f"{name}.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def _where(path: Any) -> str:
    parts = [str(p) for p in path]
    return "/".join(parts) if parts else "top level"


def validate(name: str, value: Any, what: str) -> None:
    """Raise ``SchemaViolation`` with a one-line reason unless ``value`` fits schema ``name``.

    Kinds with a hand-written shape check (``arbiter.core.shapes``) pass without running
    the JSON Schema when that check accepts; the schema then only explains failures.
    """
    fast = FAST.get(name)
    if fast is not None and fast(value):
        return
    _explain(name, value, what)
    if fast is not None:
        # The fast check and the schema are tested to agree (tests/core/test_shapes.py);
        # should they ever part, the stricter reading wins.
        raise SchemaViolation(f"{what}: a value has a stray character: remove it")


def _explain(name: str, value: Any, what: str) -> None:
    """Raise ``SchemaViolation`` describing the first schema error, if any."""
    errors = sorted(
        _validator(name).iter_errors(value), key=lambda e: (len(e.path), list(map(str, e.path)))
    )
    if errors:
        raise SchemaViolation(f"{what}: {describe(errors[0])}")


def describe(error: Any) -> str:
    """Say what is wrong where, in words taken from the schema, never from the file.

    jsonschema's own messages quote the offending value; a file's content must not come
    back in a message (it could be anything a link or a careless path pointed at).
    """
    where = _where(error.path)
    kind, rule = error.validator, error.validator_value
    if kind == "additionalProperties":
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - allowed)
        # A field name is named only when it looks like one (a short plain word).
        named = [repr(key) for key in extra if PLAIN_KEY.fullmatch(key)]
        field = f"unknown field {', '.join(named)}" if len(named) == len(extra) else "an unknown field"
        return f"{field} at {where}: remove it (allowed: {', '.join(sorted(allowed)) or 'none'})"
    if kind == "required":
        missing = [k for k in rule if isinstance(error.instance, dict) and k not in error.instance]
        return f"field {', '.join(map(repr, missing))} is missing at {where}: add it"
    phrases = {
        "type": lambda: f"must be of type {' or '.join(rule) if isinstance(rule, list) else rule}",
        "enum": lambda: "must be one of " + ", ".join(map(repr, rule))[:120],
        "const": lambda: f"must be {rule!r}"[:120],
        "pattern": lambda: f"does not have the required form (pattern {rule})"[:120],
        "not": lambda: (
            f"has a character or text it may not have (pattern {rule['pattern']})"[:120]
            if isinstance(rule, dict) and "pattern" in rule
            else "has a value the schema rules out"
        ),
        "minLength": lambda: f"must be at least {rule} characters long",
        "maxLength": lambda: f"must be at most {rule} characters long",
        "minimum": lambda: f"must be at least {rule}",
        "maximum": lambda: f"must be at most {rule}",
        "minItems": lambda: f"must have at least {rule} items",
        "maxItems": lambda: f"must have at most {rule} items",
    }
    phrase = phrases.get(kind)
    said = phrase() if phrase is not None else f"breaks the schema's {kind!r} rule"
    return f"the value at {where} {said}"


def validate_instance(schema: dict[str, Any], value: Any, what: str) -> None:
    """Validate against an ad-hoc schema (an engine's decision schema)."""
    from jsonschema import Draft202012Validator

    errors = list(Draft202012Validator(schema).iter_errors(value))
    if errors:
        error = min(errors, key=lambda e: len(e.path))
        raise SchemaViolation(f"{what}: {describe(error)}")


def write_all(target: Path | None = None) -> list[Path]:
    """Regenerate every committed schema file; return the paths written."""
    from arbiter.core.models import SCHEMA_MODELS

    target = target or Path(__file__).resolve().parents[2] / "schemas"
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMA_MODELS:
        path = target / f"{name}.schema.json"
        path.write_text(render(generate(name)), encoding="utf-8")
        written.append(path)
    from arbiter.core import registry

    for name in registry.BUILTIN:
        path = target / f"view-{name}.schema.json"
        path.write_text(render(generate_view(name)), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_all():
        print(written_path)
