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
        # Python's ``$`` also matches before a final newline, so a pattern can let
        # "alice\n" through where ECMA-262 (JSON Schema's regex dialect) would not;
        # the fast check is strict, and the stricter reading wins.
        raise SchemaViolation(f"{what}: a value has a trailing newline or stray character: remove it")


def _explain(name: str, value: Any, what: str) -> None:
    """Raise ``SchemaViolation`` describing the first schema error, if any."""
    errors = sorted(
        _validator(name).iter_errors(value), key=lambda e: (len(e.path), list(map(str, e.path)))
    )
    if not errors:
        return
    error = errors[0]
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        raise SchemaViolation(
            f"{what}: unknown field {', '.join(map(repr, extra))} at {_where(error.path)}: remove it"
        )
    if error.validator == "required":
        raise SchemaViolation(f"{what}: {error.message} at {_where(error.path)}: add it")
    message = error.message if len(error.message) < 160 else error.message[:157] + "..."
    raise SchemaViolation(f"{what}: {message} at {_where(error.path)}")


def validate_instance(schema: dict[str, Any], value: Any, what: str) -> None:
    """Validate against an ad-hoc schema (an engine's decision schema)."""
    from jsonschema import Draft202012Validator

    errors = list(Draft202012Validator(schema).iter_errors(value))
    if errors:
        error = min(errors, key=lambda e: len(e.path))
        message = error.message if len(error.message) < 160 else error.message[:157] + "..."
        raise SchemaViolation(f"{what}: {message} at {_where(error.path)}")


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
    return written


if __name__ == "__main__":
    for written_path in write_all():
        print(written_path)
