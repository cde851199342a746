"""Build the exact type of an engine's view, from which its JSON Schema is generated.

An engine describes its ``view`` with TypedDicts (``arbiter/games/<game>/view_schema.py``)
made of the pieces here: words with the schema's own character rules, bounded counts and
lists, and shared types (a card id enum) written once under ``$defs``. ``python -m
arbiter.core.schemas`` writes ``schemas/view-<engine>.schema.json`` from them; at run time
only that committed file is read (``arbiter.core.viewcheck``): pydantic is not imported
to check a state file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any

from pydantic import AfterValidator, Field, TypeAdapter, ValidationError, WithJsonSchema

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _chars_schema(first: str, allowed: str, max_length: int) -> dict[str, Any]:
    """The JSON Schema of a word: starts with ``first``, only ``allowed`` characters.

    No ``$``: Python's matches before a final newline, ECMA-262's does not (as in
    ``arbiter.core.models``); a start anchor, a "no other character" clause and a length
    bound mean the same in every dialect.
    """
    return {
        "type": "string",
        "minLength": 1,
        "maxLength": max_length,
        "pattern": f"^{first}",
        "not": {"pattern": f"[^{allowed}]"},
    }


def word(first: str, allowed: str, max_length: int, description: str = "") -> Any:
    """Return a string type of one word: pydantic checks it as the schema reads it."""
    whole = re.compile(f"{first}[{allowed}]{{0,{max_length - 1}}}")

    def check(value: str) -> str:
        if whole.fullmatch(value) is None:
            raise ValueError("not a word of the allowed characters")
        return value

    schema = _chars_schema(first, allowed, max_length)
    if description:
        schema["description"] = description
    return Annotated[str, AfterValidator(check), WithJsonSchema(schema)]


SeatName = word("[a-z]", "a-z0-9_-", 32, "A seat id (lower case), as in game.json.")
"""A seat id, as ``game.json`` allows it."""


def count(high: int, low: int = 0) -> Any:
    """Return an integer type bounded to ``low..high``."""
    return Annotated[int, Field(ge=low, le=high)]


def text(high: int, low: int = 0) -> Any:
    """Return a string type of ``low..high`` characters (free text: a name, a note)."""
    return Annotated[str, Field(min_length=low, max_length=high)]


def bounded(items: Any, high: int, low: int = 0) -> Any:
    """Return a list type of at most ``high`` (at least ``low``) items."""
    return Annotated[list[items], Field(min_length=low, max_length=high)]


SHARED_MARK = "x-arbiter-shared"


def _link(node: Any) -> Any:
    """Return ``node`` with every shared-type marker made a ``$ref`` to its ``$defs``."""
    if isinstance(node, dict):
        if SHARED_MARK in node:
            return {"$ref": f"#/$defs/{node[SHARED_MARK]}"}
        return {k: _link(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_link(v) for v in node]
    return node


@dataclass(frozen=True)
class Shared:
    """A type used in many places of a view, written once under the schema's ``$defs``
    (a card id enum of 100 names would otherwise be repeated at every zone)."""

    name: str
    python: Any
    """The type pydantic checks (e.g. a ``Literal`` of every card id)."""
    description: str = ""

    @property
    def type(self) -> Any:
        """The annotated type to use in a view's fields."""
        # A marker, made a "$ref" once generated: pydantic resolves the refs it sees
        # against its own definitions, which do not hold this one.
        return Annotated[self.python, WithJsonSchema({SHARED_MARK: self.name})]

    def schema(self) -> dict[str, Any]:
        out = dict(TypeAdapter(self.python).json_schema())
        if self.description:
            out["description"] = self.description
        return out


@dataclass(frozen=True)
class ViewType:
    """An engine's view: a TypedDict (strict, no extra keys) and its shared ``$defs``."""

    type: Any
    shared: tuple[Shared, ...] = ()
    description: str = ""

    @cached_property
    def adapter(self) -> TypeAdapter[Any]:
        # Built on first use: a state file's reader pays for it, ``arbiter --help`` does not.
        return TypeAdapter(self.type)

    def json_schema(self, name: str) -> dict[str, Any]:
        """Return the committed form of the view's JSON Schema (``view-<name>``)."""
        schema = dict(self.adapter.json_schema())
        defs = dict(schema.pop("$defs", {}))
        for shared in self.shared:
            defs[shared.name] = shared.schema()
        out: dict[str, Any] = {
            "$schema": DIALECT,
            "$id": f"https://arbiter.invalid/schemas/view-{name}.schema.json",
        }
        if self.description:
            schema["description"] = self.description
        out |= _link(schema)
        defs = _link(defs)
        if defs:
            out["$defs"] = dict(sorted(defs.items()))
        return out

    def valid(self, view: Any) -> bool:
        """Return whether ``view`` has the type (pydantic, strict: nothing is coerced)."""
        try:
            self.adapter.validate_python(view, strict=True)
        except ValidationError:
            return False
        return True
