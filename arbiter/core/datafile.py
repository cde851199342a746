"""Engine data files that a group may replace with its own (`--option cards=FILE`, …).

An engine ships its printed data as a JSON file; a group that owns the physical game can
load its own. The loaded data is embedded in the manifest options (a replay never needs
the file); the shipped table is recorded as the marker ``"builtin"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbiter.core.canonical import parse_strict
from arbiter.core.errors import ArbiterError, SchemaViolation, UsageError
from arbiter.core.safeio import read_input, shown

BUILTIN = "builtin"

Problem = Callable[[Any], "str | None"]
"""Return what is wrong with a data object (schema and the engine's own rules), or None."""


def load(path: str, label: str, schema: str, problem: Problem) -> dict[str, Any]:
    """Read and check a group's own file, or raise ``UsageError`` saying what is wrong.

    The file is read by ``safeio.read_input``: no symlink, FIFO or device, at most 1 MiB.
    """
    what = f"{label} '{shown(path)}'"
    try:
        data = parse_strict(read_input(path, what), what=what)
    except ArbiterError as exc:  # MalformedInput or NotReady: a bad option value is usage
        raise UsageError(exc.message) from None
    issue = problem(data)
    if issue is not None:
        raise UsageError(f"{what} does not match {schema}: {issue}")
    return dict(data)


def resolve(option: Any, label: str, problem: Problem) -> dict[str, Any] | str:
    """Check a manifest value: ``"builtin"`` or an embedded data object (returned as is)."""
    if option == BUILTIN:
        return BUILTIN
    issue = problem(option) if isinstance(option, dict) else 'expected an object or "builtin"'
    if issue is not None:
        raise SchemaViolation(f"the manifest's {label} is invalid: {issue}")
    return dict(option)
