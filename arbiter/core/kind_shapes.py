"""Judge a decision by the branch of the engine's schema that its ``kind`` names.

An engine's decision schema (``Engine.action_schema``, the single source) is a tagged
union: a ``oneOf`` with one branch per ``kind``. Run whole, jsonschema tries every branch
(~14× the cost of the right one); for a decision whose ``kind`` is a branch's tag the
verdict is that branch's alone, since every other branch fails on its ``kind`` const. So
``by_kind`` splits the union into one schema per kind, and the replay checks only that.

A branch is further judged field by field, each field's value against its property's
schema, with the verdicts remembered: a game repeats the same card ids and wings in many
different decisions, so a decision never seen before is mostly made of values already
judged. Every verdict is still jsonschema's: the shapes are only split where the split
is exact (``properties`` and ``allOf`` are conjunctions; ``required`` and a boolean
``additionalProperties`` depend on the keys only), otherwise the branch runs whole.

A refusal is never explained here: the caller runs the whole union for its message.
"""

from __future__ import annotations

from functools import cache
from typing import Any

# Keywords that never decide a verdict (OpenAPI's "discriminator" is unknown to JSON Schema
# and ignored by it): dropped so a branch merges into the root's other keywords.
_ANNOTATIONS = frozenset(
    {"title", "description", "$comment", "examples", "default", "discriminator"}
)
# Memo sizes are capped: a hostile stream of distinct values must not grow memory.
_MEMO_LIMIT = 65536


def by_kind(schema: Any) -> dict[str, dict[str, Any]] | None:
    """Return, per decision kind, a schema that judges a decision of that ``kind`` exactly
    as the tagged union ``schema`` does; ``None`` when ``schema`` is not such a union (each
    ``oneOf`` branch an object with its own ``kind`` const), so nothing can be split.
    """
    if not isinstance(schema, dict) or not isinstance(schema.get("oneOf"), list):
        return None
    rest = {k: v for k, v in schema.items() if k != "oneOf" and k not in _ANNOTATIONS}
    split: dict[str, dict[str, Any]] = {}
    for branch in schema["oneOf"]:
        resolved = _resolve(branch, schema)
        if resolved is not branch and set(branch) - _ANNOTATIONS != {"$ref"}:
            return None  # a $ref beside other keywords: not worth taking apart
        if not isinstance(resolved, dict):
            return None
        tag = _tag(resolved)
        if tag is None or tag in split:
            return None
        own = {k: v for k, v in resolved.items() if k not in _ANNOTATIONS}
        if set(own) & set(rest):
            merged = {**rest, "allOf": [*rest.get("allOf", []), own]}
        else:
            merged = {**rest, **own}
        if "$defs" in merged and not _refers({k: v for k, v in merged.items() if k != "$defs"}):
            del merged["$defs"]
        split[tag] = merged
    return split


class KindShape:
    """One decision kind's schema, compiled once: ``is_valid`` judges a decision."""

    def __init__(self, schema: dict[str, Any]):
        # A $ref needs the root's $defs: such a schema is judged whole, never in parts.
        self._judge = _Leaf(schema, alone=True) if _refers(schema) else _compile(schema)

    def is_valid(self, decision: Any) -> bool:
        """Whether ``decision`` fits this kind's schema (jsonschema's verdict)."""
        return self._judge(decision)


def kind_shapes(schema: Any) -> dict[str, KindShape]:
    """Return the compiled shape of each decision kind of ``schema`` (``{}``: no split)."""
    return {tag: KindShape(part) for tag, part in (by_kind(schema) or {}).items()}


# -- judging a schema in parts ------------------------------------------------------------
#
# A value's verdict under {type: object, required, properties, additionalProperties: bool}
# is the verdict of the same schema with every property's schema made `true` (the
# skeleton: for an object it depends on the keys alone) and of each present property's
# value under its own schema; likewise an array under {type: array, minItems, maxItems,
# items} is its skeleton's verdict (the length alone) and each item's; ``allOf`` is the
# verdict of every part. Anything else is a leaf: jsonschema judges it whole, and the
# verdict is remembered by the value's repr (equal reprs mean equal JSON values; 1, 1.0,
# True and "1" all differ). Each skeleton and leaf is a jsonschema validator.

_OBJECT_KEYS = frozenset({"type", "required", "properties", "additionalProperties", "allOf"})
_ARRAY_KEYS = frozenset({"type", "minItems", "maxItems", "items"})


def _compile(schema: Any) -> Any:
    """Return a judge (value -> bool) of ``schema``, split into parts where that is exact."""
    plain = (
        {k: v for k, v in schema.items() if k not in _ANNOTATIONS and k != "$schema"}
        if isinstance(schema, dict)
        else None
    )
    if plain is None:
        return _Leaf(schema)
    objectish = plain.get("type") == "object" or ("properties" in plain and "type" not in plain)
    if objectish and set(plain) <= _OBJECT_KEYS:
        return _object(plain)
    if plain.get("type") == "array" and set(plain) <= _ARRAY_KEYS and "items" in plain:
        return _Array(plain)
    return _Leaf(schema)


def _object(plain: dict[str, Any]) -> Any:
    properties = plain.get("properties", {})
    parts = plain.get("allOf", [])
    if (
        not isinstance(properties, dict)
        or not isinstance(plain.get("additionalProperties", True), bool)
        or not isinstance(parts, list)
    ):
        return _Leaf(plain)
    skeleton = {k: v for k, v in plain.items() if k != "allOf"}
    if "properties" in plain:
        skeleton["properties"] = dict.fromkeys(properties, True)
    return _Object(skeleton, {name: _compile(s) for name, s in properties.items()}, parts)


class _Leaf:
    """A schema judged whole by jsonschema, its verdicts remembered by the value's repr."""

    def __init__(self, schema: Any, alone: bool = False):
        self._validator = _Validator(schema, alone)
        self._seen: dict[str, bool] = {}

    def __call__(self, value: Any) -> bool:
        key = repr(value)
        verdict = self._seen.get(key)
        if verdict is None:
            verdict = bool(self._validator.is_valid(value))
            _remember(self._seen, key, verdict)
        return verdict


class _Object:
    """An object schema: its skeleton judges the keys, each property's judge its value."""

    def __init__(self, skeleton: dict[str, Any], fields: dict[str, Any], parts: list[Any]):
        self._skeleton = _Validator(skeleton)
        self._keys_ok: dict[frozenset[str], bool] = {}
        self._fields = fields
        self._parts = [_compile(part) for part in parts]

    def __call__(self, value: Any) -> bool:
        if not isinstance(value, dict):
            return bool(self._skeleton.is_valid(value)) and all(p(value) for p in self._parts)
        keys = frozenset(value)
        ok = self._keys_ok.get(keys)
        if ok is None:
            # Every property's schema is `true` in the skeleton: the values do not matter.
            ok = bool(self._skeleton.is_valid(dict.fromkeys(value)))
            _remember(self._keys_ok, keys, ok)
        if not ok:
            return False
        fields = self._fields
        for name, item in value.items():
            judge = fields.get(name)
            if judge is not None and not judge(item):
                return False
        return all(part(value) for part in self._parts)


class _Array:
    """An array schema: its skeleton judges the length, the items' judge each item."""

    def __init__(self, plain: dict[str, Any]):
        self._skeleton = _Validator({**plain, "items": True})
        self._length_ok: dict[int, bool] = {}
        self._item = _compile(plain["items"])

    def __call__(self, value: Any) -> bool:
        if not isinstance(value, list):
            return bool(self._skeleton.is_valid(value))
        ok = self._length_ok.get(len(value))
        if ok is None:
            ok = bool(self._skeleton.is_valid([None] * len(value)))
            _remember(self._length_ok, len(value), ok)
        item = self._item
        return ok and all(item(x) for x in value)


class _Validator:
    """A jsonschema validator of ``schema``, built when first used: a game meets few of
    its engine's kinds and fields, and building one from nothing costs more than using it."""

    __slots__ = ("_alone", "_built", "_schema")

    def __init__(self, schema: Any, alone: bool = False):
        self._schema, self._alone = schema, alone
        self._built: Any = None

    def is_valid(self, value: Any) -> bool:
        if self._built is None:
            base = _base()
            # A part holds no $ref: derived from one validator, it skips setting up a
            # reference registry of its own. A whole schema with $refs (``alone``) needs one.
            self._built = (
                type(base)(self._schema) if self._alone else base.evolve(schema=self._schema)
            )
        return bool(self._built.is_valid(value))


@cache
def _base() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(True)


def _remember(memo: dict[Any, bool], key: Any, verdict: bool) -> None:
    if len(memo) < _MEMO_LIMIT:
        memo[key] = verdict


def _resolve(branch: Any, root: dict[str, Any]) -> Any:
    """Follow a local ``$ref`` (``#/$defs/Bid``) within ``root``."""
    ref = branch.get("$ref") if isinstance(branch, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return branch
    node: Any = root
    for part in ref[2:].split("/"):
        if not isinstance(node, dict) or part not in node:
            return branch
        node = node[part]
    return node


def _tag(branch: dict[str, Any]) -> str | None:
    """The ``kind`` a union branch stands for: its ``kind`` property's const."""
    properties = branch.get("properties")
    kind = properties.get("kind") if isinstance(properties, dict) else None
    if not isinstance(kind, dict):
        return None
    if isinstance(kind.get("const"), str):
        return str(kind["const"])
    enum = kind.get("enum")
    if isinstance(enum, list) and len(enum) == 1 and isinstance(enum[0], str):
        return enum[0]
    return None


def _refers(node: Any) -> bool:
    """Whether ``node`` holds a ``$ref`` anywhere."""
    if isinstance(node, dict):
        return "$ref" in node or any(_refers(value) for value in node.values())
    if isinstance(node, list):
        return any(_refers(item) for item in node)
    return False
