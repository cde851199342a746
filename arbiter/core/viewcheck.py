"""Check a state file's view against its engine before any engine code reads it.

The state schema leaves ``view`` open: each engine has its own. A state file is untrusted
input (a hand-edited copy, whatever sits in a shared inbox), so before ``show``, ``moves``,
``move``, ``bot`` or ``replay`` hand a view to an engine it passes two checks:

1. the engine's committed view schema (``schemas/view-<engine>.schema.json``, generated
   from the engine's view type, ``arbiter.core.viewtypes``): exact types, enums of card
   ids, ranges;
2. ``Engine.view_problem``: what a schema cannot say (a count against a list, a card in
   two places, the view's seats against the state file's), so that ``determinize`` and
   the renderers never meet a view no game could show.

Only a view of the engine version installed here is checked (and then read by the
engine): a view of another version is shown as a plain tree, and no bot plays it.

The schema check costs a few milliseconds with jsonschema, which is what a command that
reads one or two state files pays. A process that reads thousands (a bot or a desk
playing a whole game, the benchmarks) switches, after its first few, to the engine's view
type itself, compiled once by pydantic (a tenth of a second) and then about fifty times
faster: the schema is generated from that type, and tests/fuzz/test_view_checks.py
checks that both accept the same views. A refused view is always explained by the schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arbiter.core.errors import SchemaViolation

if TYPE_CHECKING:
    from arbiter.core.engine import Engine


def committed(name: str) -> Path:
    """Return where the committed view schema of engine ``name`` lives."""
    from arbiter.core.schemas import schema_dir

    return schema_dir() / f"view-{name}.schema.json"


@cache
def _validator(path: Path) -> Any:
    from jsonschema import Draft202012Validator, validators

    schema = _inline(json.loads(path.read_text(encoding="utf-8")))
    # Card ids are enums of a hundred names or more, listed at every zone: jsonschema's
    # own enum compares a string with each name in turn and formats the whole list into
    # every failed alternative's message. A set lookup says the same for a string.
    fast = validators.extend(Draft202012Validator, {"enum": _enum})
    return fast(schema)


def _inline(schema: dict[str, Any]) -> dict[str, Any]:
    """Return the schema with each ``{"$ref": "#/$defs/X"}`` replaced by ``X`` itself.

    The same schema (view types hold no cycle), checked about three times faster:
    jsonschema resolves every ``$ref`` it meets through its registry, and a view names
    a card at every place it lists one.
    """
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            rest = {k: walk(v) for k, v in node.items() if k not in ("$ref", "$defs")}
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                target = walk(defs[ref.removeprefix("#/$defs/")])
                # Keywords beside a "$ref" apply too (draft 2020-12): keep both.
                return {"allOf": [target], **rest} if rest else target
            return rest if ref is None else {"$ref": ref, **rest}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return dict(walk(schema))


_ALLOWED: dict[int, frozenset[str]] = {}


def _enum(validator: Any, enums: list[Any], instance: Any, schema: Any) -> Any:
    from jsonschema import ValidationError
    from jsonschema._keywords import enum

    if type(instance) is not str:
        yield from enum(validator, enums, instance, schema)
        return
    allowed = _ALLOWED.get(id(enums))
    if allowed is None:
        # Keyed by the list's identity: the schema (and so the list) lives for the process.
        allowed = _ALLOWED[id(enums)] = frozenset(e for e in enums if type(e) is str)
    if instance not in allowed:
        yield ValidationError("is not one of the allowed names")


COMPILE_AFTER = 3
"""Views of one engine checked with the schema alone before its view type is compiled."""
_CHECKED: dict[str, int] = {}


def _compiled_verdict(engine: Engine, view: Any) -> bool | None:
    """Return whether the engine's compiled view type accepts ``view`` (``None``: not
    compiled in this process yet)."""
    name = engine.info.name
    _CHECKED[name] = _CHECKED.get(name, 0) + 1
    if _CHECKED[name] <= COMPILE_AFTER:
        return None
    view_type = engine.view_type()
    return None if view_type is None else view_type.valid(view)


def known_engine(state: Mapping[str, Any]) -> Engine | None:
    """Return the engine that wrote a state file when this arbiter has that very version
    (``None``: an unknown engine or another version, whose views this one cannot read)."""
    from arbiter.core import registry
    from arbiter.core.errors import ArbiterError

    ref = state["engine"]
    try:
        engine = registry.get(ref["name"])
    except ArbiterError:
        return None
    return engine if engine.info.version == ref["version"] else None


def _explain(validator: Any, view: Any, what: str) -> None:
    from arbiter.core.schemas import describe

    # The first error met, in the schema's order: listing every error of a view that is
    # wrong everywhere costs a hundred times more.
    error = next(validator.iter_errors(view), None)
    if error is not None:
        raise SchemaViolation(f"{what}: {describe(error)}")


def check(state: Mapping[str, Any], what: str) -> None:
    """Raise ``SchemaViolation`` (one line, no value from the file) unless the state
    file's view is one its engine could have written for its reader.

    ``state`` has passed the state schema. Views of engines or versions not installed
    here are left alone (``known_engine``): no engine code reads them.
    """
    view = state["view"]
    if (view is None) != (state["status"] == "joining"):
        raise SchemaViolation(
            f"{what} contradicts itself (a game being joined has no view, a started one "
            "has): use the state file the referee wrote"
        )
    engine = known_engine(state)
    path = None if view is None or engine is None else engine.view_schema()
    if path is None or engine is None:
        return
    info = engine.info
    compiled = _compiled_verdict(engine, view)
    if compiled is not True:
        _explain(_validator(path), view, f"{what}, its view")
        if compiled is False:
            # The type and the schema are tested to agree; should they ever part, the
            # stricter reading wins.
            raise SchemaViolation(f"{what}: its view is not a {info.name} {info.version} view")
    problem = engine.view_problem(state)
    if problem is not None:
        raise SchemaViolation(
            f"{what}: its {info.name} view contradicts itself ({problem}): "
            "use the state file the referee wrote"
        )
