"""Candidate decisions for the check-versus-legal_actions test: near misses and junk."""

from __future__ import annotations

import copy
from typing import Any, Callable

from arbiter.core.canonical import MAX_SAFE_INT
from arbiter.core.engine import Action
from arbiter.core.rng import Rng

from conformance.harness import distinct

JUNK: list[Any] = ["", "x", None, -1, 0, 1, True, False, MAX_SAFE_INT, [], {}, ["x"], {"x": 1}]
ILL_FORMED: list[Action] = [{}, {"kind": None}, {"kind": "no-such-kind"}, {"kind": 7}, {"kind": ["x"]}]


class Pool:
    """Actions and field values seen in legal actions anywhere in the run."""

    def __init__(self) -> None:
        self.actions: list[Action] = []
        self.values: dict[str, list[Any]] = {}
        self.shapes: dict[str, list[list[str]]] = {}

    def add(self, actions: list[Action]) -> None:
        """Remember these legal actions, their field values and their shapes."""
        self.actions = distinct(self.actions + actions)
        for action in actions:
            for name, value in action.items():
                self.values[name] = distinct(self.values.get(name, []) + [value])
            kind = str(action.get("kind"))
            self.shapes[kind] = distinct(self.shapes.get(kind, []) + [sorted(action)])


def candidates(legal: list[Action], pool: Pool, rng: Rng, count: int) -> list[Action]:
    """Return ``count`` plausible but mostly illegal decisions built from ``legal`` and ``pool``."""
    if not pool.actions:
        return list(ILL_FORMED)

    def base() -> Action:
        return copy.deepcopy(rng.choice(legal or pool.actions))

    def fields(action: Action) -> list[str]:
        return [name for name in sorted(action) if name != "kind"]

    def other_action() -> Action:
        return copy.deepcopy(rng.choice(pool.actions))

    def same_field(action: Action) -> Action:
        if names := fields(action):
            name = rng.choice(names)
            action[name] = copy.deepcopy(rng.choice(pool.values[name]))
        return action

    def odd_value(action: Action) -> Action:
        name = rng.choice(sorted(action))
        every = [v for values in pool.values.values() for v in values]
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
        action["kind"] = rng.choice(pool.values["kind"])
        return action

    def dropped(action: Action) -> Action:
        del action[rng.choice(sorted(action))]
        return action

    def extra(action: Action) -> Action:
        action["extra"] = rng.choice(JUNK)
        return action

    def built(_: Action) -> Action:
        kind = rng.choice(sorted(pool.shapes))
        shape = rng.choice(pool.shapes[kind])
        return {name: copy.deepcopy(rng.choice(pool.values[name])) for name in shape}

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
