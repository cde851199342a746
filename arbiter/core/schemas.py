"""Validate incoming files against the committed JSON Schemas (draft 2020-12).

The schemas in ``schemas/`` are generated from ``arbiter.core.models`` by
``python -m arbiter.core.schemas`` and committed; a test fails when they drift. A wheel
carries them as ``arbiter/_schemas``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
    validator = _validator(name)
    errors = list(validator.iter_errors(value))
    if errors:
        raise SchemaViolation(f"{what}: {explain(errors, validator.schema)}")


# -- explaining a schema error ---------------------------------------------------------------
#
# jsonschema's own messages are Python reprs of the offending value ("{'kind': 'pray'} is not
# valid under any of the given schemas"): schema jargon a newcomer cannot act on, and a
# file's content echoed back (it could be anything a link or a careless path pointed at).
# These messages say which field is wrong and what was expected, in words taken from the
# schema; a value is quoted back only when it is short and looks like a name, and the
# nearest legal name is offered (difflib) from the schema's own names or from ``names``.

# A value short and plain enough to quote back: a name, an id, a format tag (never text).
_SHOWABLE = re.compile(r"[A-Za-z0-9_.#/+:-]{1,32}")
_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
}
# Which of several errors at the same depth is the most useful to name first.
_FIRST = {"type": 0, "required": 1, "additionalProperties": 2, "const": 3, "enum": 3}
_MAX_LISTED = 16
DECISION = "the decision"
"""What ``explain`` calls the value when it is one engine decision."""


@dataclass(frozen=True)
class _Context:
    root: Any
    names: Mapping[str, Sequence[str]]
    top: str


def explain(
    errors: Sequence[Any],
    root: Any = None,
    names: Mapping[str, Sequence[str]] | None = None,
    top: str = "the file",
) -> str:
    """Return one line naming the shallowest of ``errors`` (jsonschema ``ValidationError``s).

    ``root``: the schema validated against (resolves its local ``$ref``s); ``names``: per
    field name, the names the reader may have meant (e.g. the cards of their legal
    decisions); ``top``: what the value as a whole is called.
    """
    return _say(_best(errors), _Context(root, names or {}, top))


def describe(error: Any, root: Any = None, names: Mapping[str, Sequence[str]] | None = None) -> str:
    """Say what is wrong where, in words taken from the schema, never from the file."""
    return _say(error, _Context(root, names or {}, "the file"))


def names_of(decisions: Iterable[Any]) -> dict[str, list[str]]:
    """Return, per field, the string values (and string list items) of ``decisions``."""
    found: dict[str, dict[str, None]] = {}
    for decision in decisions:
        if not isinstance(decision, dict):
            continue
        for field_name, value in decision.items():
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, str):
                    found.setdefault(field_name, {})[item] = None
    return {field_name: list(values) for field_name, values in found.items()}


def nearest(value: str, names: Iterable[str]) -> str | None:
    """Return the name in ``names`` closest to ``value`` (case aside), if any is close."""
    import difflib  # only a refusal needs it: every submit imports this module

    by_lower: dict[str, str] = {}
    for name in names:
        by_lower.setdefault(name.lower(), name)
    if value.lower() in by_lower:
        return by_lower[value.lower()]
    match = difflib.get_close_matches(value.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[match[0]] if match else None


def shown(value: Any) -> str | None:
    """Return ``value`` quoted for a message when it is safe to repeat, else ``None``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) < 10**12:
        return str(value)
    if isinstance(value, str) and _SHOWABLE.fullmatch(value):
        return f"'{value}'"
    return None


def listing(values: Iterable[Any], limit: int = _MAX_LISTED) -> str:
    """Return ``values`` as a short comma-separated list (strings bare, others as JSON)."""
    words = [v if isinstance(v, str) else json.dumps(v) for v in values]
    if len(words) > limit:
        words = [*words[:limit], f"… ({len(words) - limit} more)"]
    return ", ".join(words)


def _best(errors: Iterable[Any]) -> Any:
    return min(
        errors,
        key=lambda e: (
            len(e.absolute_path),
            _FIRST.get(e.validator, 9),
            list(map(str, e.absolute_path)),
        ),
    )


def _found(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def _types(rule: Any) -> str:
    kinds = rule if isinstance(rule, list) else [rule]
    return " or ".join(_TYPE_WORDS.get(str(k), str(k)) for k in kinds)


def _field(path: Sequence[Any]) -> str | None:
    """The name of the field a path ends in (a list item belongs to its list's field)."""
    for part in reversed(path):
        if isinstance(part, str):
            return part if PLAIN_KEY.fullmatch(part) else None
    return None


def _place(path: Sequence[Any]) -> str:
    """A path as ``actions/0/card``; a key that is not a plain name shows as ``…``."""
    return "/".join(str(p) if isinstance(p, int) or PLAIN_KEY.fullmatch(p) else "…" for p in path)


def _subject(path: Sequence[Any], ctx: _Context) -> str:
    return _place(path) if path else ctx.top


def _at(path: Sequence[Any]) -> str:
    return f" at {_place(path)}" if path else ""


def _resolve(schema: Any, root: Any) -> Any:
    """Follow a local ``$ref`` (``#/$defs/Bid``) within ``root``."""
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#/") or root is None:
        return schema
    node = root
    for part in ref[2:].split("/"):
        if not isinstance(node, dict) or part not in node:
            return schema
        node = node[part]
    return node


def _say(error: Any, ctx: _Context) -> str:
    kind, rule, value = error.validator, error.validator_value, error.instance
    path = list(error.absolute_path)
    subject = _subject(path, ctx)
    if kind in ("oneOf", "anyOf"):
        return _union(error, ctx)
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(value) - set(allowed))
        named = [key for key in extra if PLAIN_KEY.fullmatch(key)]
        if len(named) != len(extra) or not named:
            return (
                f"an unknown field{_at(path)}: remove it (allowed: {', '.join(allowed) or 'none'})"
            )
        meant = nearest(named[0], allowed) if len(named) == 1 else None
        hint = f"did you mean '{meant}'?" if meant else "remove it"
        listed = ", ".join(f"'{key}'" for key in named)
        return (
            f"unknown field {listed}{_at(path)}: {hint} (allowed: {', '.join(allowed) or 'none'})"
        )
    if kind == "required":
        missing = [f"'{k}'" for k in rule if isinstance(value, dict) and k not in value]
        verb = "is" if len(missing) == 1 else "are"
        said = (
            f"field{'s' * (len(missing) > 1)} {', '.join(missing)} {verb} missing{_at(path)}: add"
        )
        said += " it" if len(missing) == 1 else " them"
        kinds = error.schema.get("properties", {}).get("kind", {}).get("enum")
        if missing == ["'kind'"] and isinstance(kinds, list):
            said += f" (kinds: {listing(kinds)})"
        return said
    if kind == "type":
        return f"{subject} must be {_types(rule)}, not {_found(value)}"
    if kind == "enum" and isinstance(rule, list):
        return _not_one_of(path, value, rule, ctx)
    if kind == "const":
        expected = shown(rule) or json.dumps(rule)[:40]
        found = shown(value)
        return f"{subject} must be {expected}" + (f", not {found}" if found else "")
    if kind in ("pattern", "not") and isinstance(value, str):
        return _bad_name(error, path, ctx)
    phrases = {
        "minLength": lambda: (
            "must not be empty" if rule == 1 else f"must be at least {rule} characters long"
        ),
        "maxLength": lambda: f"must be at most {rule} characters long",
        "minimum": lambda: f"must be at least {rule}",
        "maximum": lambda: f"must be at most {rule}",
        "minItems": lambda: (
            "must not be empty" if rule == 1 else f"must have at least {rule} items"
        ),
        "maxItems": lambda: f"must have at most {rule} item{'s' * (rule != 1)}",
        "uniqueItems": lambda: "lists the same item twice: list each once",
        "not": lambda: "has a value the schema rules out",
        None: lambda: "is not allowed here: remove it",
    }
    phrase = phrases.get(kind)
    said = phrase() if phrase is not None else f"does not meet the schema's {kind} rule"
    return f"{subject} {said}"


def _union(error: Any, ctx: _Context) -> str:
    """Explain a value that fits no branch of a ``oneOf``/``anyOf``.

    A union tagged by ``kind`` (an engine's decisions) is judged by the branch its kind
    names, as if only that branch existed; an optional value (``X or null``) by ``X``.
    """
    path = list(error.absolute_path)
    subject, value = _subject(path, ctx), error.instance
    branches = [_resolve(b, ctx.root) for b in error.validator_value]
    found = [
        b.get("properties", {}).get("kind", {}).get("const") if isinstance(b, dict) else None
        for b in branches
    ]
    context = list(error.context or [])
    tags: list[str] = [t for t in found if isinstance(t, str)]
    if tags and len(tags) == len(found):
        if not isinstance(value, dict):
            return f'{subject} must be an object with a "kind", not {_found(value)}'
        if "kind" not in value:
            return f"field 'kind' is missing{_at(path)}: add it (kinds: {listing(tags)})"
        if value["kind"] not in tags:
            return _no_kind(path, value["kind"], tags, ctx)
        index = tags.index(value["kind"])
        mine = [e for e in context if e.schema_path and e.schema_path[0] == index]
        if mine:
            return _say(_best(mine), ctx)
    # An untagged union: keep the branches whose type fits the value.
    fitting = {
        i
        for i in range(len(branches))
        if not any(
            e.schema_path
            and e.schema_path[0] == i
            and e.validator == "type"
            and list(e.absolute_path) == path
            for e in context
        )
    }
    if not fitting:
        kinds = [b.get("type") for b in branches if isinstance(b, dict) and "type" in b]
        if kinds and len(kinds) == len(branches):
            return f"{subject} must be {' or '.join(_types(k) for k in kinds)}, not {_found(value)}"
        return f"{subject} has none of the allowed forms"
    mine = [e for e in context if e.schema_path and e.schema_path[0] in fitting]
    return _say(_best(mine), ctx) if mine else f"{subject} has none of the allowed forms"


def _no_kind(path: Sequence[Any], kind: Any, tags: Sequence[str], ctx: _Context) -> str:
    """A ``kind`` no branch has; an engine's decisions are named as such."""
    if not isinstance(kind, str):
        return f"{_subject([*path, 'kind'], ctx)} must be a string, not {_found(kind)}"
    if ctx.top != DECISION:
        return _not_one_of([*path, "kind"], kind, list(tags), ctx, plain=True)
    quoted = shown(kind)
    meant = nearest(kind, tags)
    said = f"no decision kind {quoted}" if quoted else "no such decision kind"
    said += f"{_at(path)}: this game has {listing(tags)}"
    return said + (f"; did you mean '{meant}'?" if meant else "")


def _not_one_of(
    path: Sequence[Any], value: Any, options: list[Any], ctx: _Context, plain: bool = False
) -> str:
    if not plain and path and path[-1] == "kind" and all(isinstance(o, str) for o in options):
        return _no_kind(path[:-1], value, options, ctx)
    subject = _subject(path, ctx)
    said = f"{subject} must be one of {listing(shown(o) or json.dumps(o) for o in options)}"
    found = shown(value)
    if found:
        said += f", not {found}"
    if isinstance(value, str):
        meant = nearest(value, [o for o in options if isinstance(o, str)])
        if meant:
            said += f"; did you mean '{meant}'?"
    return said


_LITERAL = re.compile(r"\^([A-Za-z0-9 :_-]{3,})")


def _form(pattern: str, value: str) -> str:
    """Say what a pattern asks for: its literal start when the value lacks it."""
    start = _LITERAL.match(pattern)
    if start is not None and not value.startswith(start.group(1)):
        return f"it must start with '{start.group(1)}'"
    return f"expected the form {pattern}"[:120]


def _fits(schema: Any, value: str) -> bool:
    from jsonschema import Draft202012Validator

    try:
        return bool(Draft202012Validator(schema).is_valid(value))
    except Exception:  # a schema that cannot be evaluated alone suggests nothing
        return False


def _bad_name(error: Any, path: Sequence[Any], ctx: _Context) -> str:
    """A string of the wrong form: which field, what it should look like, the nearest name."""
    value: str = error.instance
    schema = error.schema
    field_name = _field(path)
    quoted = shown(value)
    known = ctx.names.get(field_name or "", ())
    meant = nearest(value, known) if known else None
    ids = f"{field_name} ids" if field_name else "ids"
    reason = ""
    for candidate, why in (
        (value.lower(), f"{ids} are lower case"),
        (value.strip(), "remove the spaces around it"),
        ("-".join(value.lower().split()), f"{ids} are lower case, words joined by '-'"),
    ):
        # Only a name is offered a spelling (a key or a signature is not mistyped so).
        if candidate != value and _SHOWABLE.fullmatch(candidate) and _fits(schema, candidate):
            reason = why
            meant = meant or candidate
            break
    if not reason:
        description = schema.get("description") if isinstance(schema, dict) else None
        if isinstance(description, str) and len(description) <= 60 and "\n" not in description:
            reason = f"expected {description}"
        elif error.validator == "pattern":
            reason = _form(str(error.validator_value), value)
        else:
            rule = error.validator_value
            pattern = rule.get("pattern") if isinstance(rule, dict) else None
            reason = f"it has a character it may not have (pattern {pattern})"[:120]
    if quoted and field_name and (meant or known):
        said = f"unknown {field_name} {quoted}"
        if list(path) != [field_name]:
            said += _at(path)
    elif quoted:
        said = f"{_subject(path, ctx)} {quoted} does not have the required form"
    else:
        said = f"{_subject(path, ctx)} does not have the required form"
    return f"{said}: {reason}" + (f", did you mean '{meant}'?" if meant else "")


def validate_instance(
    schema: dict[str, Any],
    value: Any,
    what: str,
    names: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """Validate against an ad-hoc schema (an engine's decision schema)."""
    from jsonschema import Draft202012Validator

    errors = list(Draft202012Validator(schema).iter_errors(value))
    if errors:
        raise SchemaViolation(f"{what}: {explain(errors, schema, names, DECISION)}")


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
