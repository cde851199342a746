"""Candidate decisions for the check-versus-legal_actions test: near misses and junk."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from arbiter.core.canonical import MAX_SAFE_INT
from arbiter.core.engine import Action
from arbiter.core.rng import Rng
from conformance.harness import key

JUNK: list[Any] = ["", "x", None, -1, 0, 1, True, False, MAX_SAFE_INT, [], {}, ["x"], {"x": 1}]
ILL_FORMED: list[Action] = [
    {},
    {"kind": None},
    {"kind": "no-such-kind"},
    {"kind": 7},
    {"kind": ["x"]},
]


class Pool:
    """Actions and field values seen in legal actions anywhere in the run."""

    def __init__(self) -> None:
        self._actions: dict[bytes, Action] = {}
        self._values: dict[str, dict[bytes, Any]] = {}
        self._shapes: dict[str, dict[bytes, list[str]]] = {}

    @property
    def actions(self) -> list[Action]:
        return list(self._actions.values())

    @property
    def values(self) -> dict[str, list[Any]]:
        return {name: list(seen.values()) for name, seen in self._values.items()}

    @property
    def shapes(self) -> dict[str, list[list[str]]]:
        return {kind: list(seen.values()) for kind, seen in self._shapes.items()}

    def add(self, actions: list[Action]) -> None:
        """Remember these legal actions, their field values and their shapes."""
        for action in actions:
            self._actions.setdefault(key(action), action)
            for name, value in action.items():
                self._values.setdefault(name, {}).setdefault(key(value), value)
            shape = sorted(action)
            self._shapes.setdefault(str(action.get("kind")), {}).setdefault(key(shape), shape)


def candidates(legal: list[Action], pool: Pool, rng: Rng, count: int) -> list[Action]:
    """Return ``count`` plausible but mostly illegal decisions built from ``legal`` and ``pool``."""
    actions, values, shapes = pool.actions, pool.values, pool.shapes
    if not actions:
        return list(ILL_FORMED)

    def base() -> Action:
        return copy.deepcopy(rng.choice(legal or actions))

    def fields(action: Action) -> list[str]:
        return [name for name in sorted(action) if name != "kind"]

    def other_action() -> Action:
        return copy.deepcopy(rng.choice(actions))

    def same_field(action: Action) -> Action:
        if names := fields(action):
            name = rng.choice(names)
            action[name] = copy.deepcopy(rng.choice(values[name]))
        return action

    def odd_value(action: Action) -> Action:
        name = rng.choice(sorted(action))
        every = [v for values in values.values() for v in values]
        action[name] = copy.deepcopy(rng.choice(every + JUNK))
        return action

    def retyped(action: Action) -> Action:
        # Lax parsers coerce "7" or true to 7: a signed decision must mean one thing.
        name = rng.choice(sorted(action))
        value = action[name]
        options = [str(value), [value], {name: value}, value is not None]
        if isinstance(value, str) and value.isdigit():
            options.append(int(value))
        action[name] = rng.choice(options)
        return action

    def other_kind(action: Action) -> Action:
        action["kind"] = rng.choice(values["kind"])
        return action

    def dropped(action: Action) -> Action:
        del action[rng.choice(sorted(action))]
        return action

    def extra(action: Action) -> Action:
        action["extra"] = rng.choice(JUNK)
        return action

    def built(_: Action) -> Action:
        kind = rng.choice(sorted(shapes))
        shape = rng.choice(shapes[kind])
        return {name: copy.deepcopy(rng.choice(values[name])) for name in shape}

    def ill_formed(_: Action) -> Action:
        return copy.deepcopy(rng.choice(ILL_FORMED))

    makers: list[Callable[[Action], Action]] = [
        lambda _: other_action(),
        same_field,
        same_field,
        odd_value,
        retyped,
        retyped,
        other_kind,
        dropped,
        extra,
        built,
        built,
        ill_formed,
    ]
    return [rng.choice(makers)(base()) for _ in range(count)]
