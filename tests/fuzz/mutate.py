"""Mutations of real files: JSON documents edited in place, and raw bytes.

Every choice goes through a ``Chooser`` (``below(n)``): hypothesis draws them in the
tests (so a failure shrinks to a few small choices), an ``arbiter.core.rng.Rng`` in
``benchmarks/fuzz.py`` (a million inputs, reproducible from a seed). Mutations start
from files the referee wrote, so most inputs get past the outer checks (strict JSON, the
file schemas) and reach the engines: a value moved to another zone, a count one off, a
card id from another game, a field of the wrong type, a seat that is not in the game.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from arbiter.core.canonical import MAX_SAFE_INT

Path_ = tuple[Any, ...]


class Chooser(Protocol):
    """A source of choices: ``below(n)`` is an integer in ``[0, n)``."""

    def below(self, n: int) -> int: ...


def pick(chooser: Chooser, items: list[Any] | tuple[Any, ...]) -> Any:
    return items[chooser.below(len(items))]


HOSTILE: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 2, 3, 7, 64, 10_000, MAX_SAFE_INT, -MAX_SAFE_INT,
    "", "x", "alice", "nobody", "kite", "kite#2", "kite#3", "om-99", "S99", "99", "maple-9",
    "over", "playing", "builtin", "sha256:" + "0" * 32, "\x00", "a\nb", "Ünï", "x" * 300,
    [], {}, [None], [[]], {"x": 1}, ["x"], [0], [-1], {"": None},
)
"""Values that are wrong almost anywhere: other types, bounds, ids of nothing."""


def nodes(doc: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """Yield every (path, value) of a JSON document, the root first."""
    yield path, doc
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from nodes(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from nodes(value, (*path, i))


def at(doc: Any, path: Path_) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def _scalar_tweaks(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value, int(value)]
    if isinstance(value, int):
        return [value + 1, value - 1, -value, 2 * value, 0, MAX_SAFE_INT, str(value)]
    if isinstance(value, str):
        return [value + "#2", value.upper(), value[:-1], value + value, "", value + "\n", [value]]
    return []


def _set(doc: Any, path: Path_, value: Any) -> Any:
    if not path:
        return value
    at(doc, path[:-1])[path[-1]] = value
    return doc


def _replace(doc: Any, path: Path_, chooser: Chooser, pool: list[Any]) -> Any:
    how = chooser.below(3)
    if how == 0:
        value = pick(chooser, HOSTILE)
    elif how == 1 and pool:
        value = pick(chooser, pool)
    else:
        tweaks = _scalar_tweaks(at(doc, path))
        value = pick(chooser, tweaks) if tweaks else pick(chooser, HOSTILE)
    return _set(doc, path, copy.deepcopy(value))


def _delete(doc: Any, path: Path_, chooser: Chooser, pool: list[Any]) -> Any:
    if not path:
        return doc
    parent = at(doc, path[:-1])
    del parent[path[-1]]
    return doc


def _insert(doc: Any, path: Path_, chooser: Chooser, pool: list[Any]) -> Any:
    target = at(doc, path)
    value = copy.deepcopy(pick(chooser, pool) if pool and chooser.below(2) else pick(chooser, HOSTILE))
    if isinstance(target, list):
        target.insert(chooser.below(len(target) + 1), value)
    elif isinstance(target, dict):
        keys = [k for k in (pool or []) if isinstance(k, str)] + ["x", "hand", "count", "view"]
        target[pick(chooser, keys)] = value
    else:
        return _replace(doc, path, chooser, pool)
    return doc


def _move(doc: Any, path: Path_, chooser: Chooser, pool: list[Any]) -> Any:
    """Move an item from one list to another (a card to another zone, a seat to a team)."""
    lists = [p for p, v in nodes(doc) if isinstance(v, list)]
    sources = [p for p in lists if at(doc, p)]
    if not sources:
        return _replace(doc, path, chooser, pool)
    source = at(doc, pick(chooser, sources))
    target_path = pick(chooser, lists)
    item = source.pop(chooser.below(len(source)))
    try:
        target = at(doc, target_path)  # the pop may have shifted the path
    except (KeyError, IndexError, TypeError):
        target = None
    if not isinstance(target, list):
        target = source
    target.insert(chooser.below(len(target) + 1), item)
    return doc


def _swap(doc: Any, path: Path_, chooser: Chooser, pool: list[Any]) -> Any:
    """Swap two values of the document (two seats, two counts, a list and a number)."""
    every = [p for p, _ in nodes(doc) if p]
    if len(every) < 2:
        return doc
    a, b = pick(chooser, every), pick(chooser, every)
    if a[: len(b)] == b or b[: len(a)] == a:
        return doc
    va, vb = copy.deepcopy(at(doc, a)), copy.deepcopy(at(doc, b))
    _set(doc, a, vb)
    _set(doc, b, va)
    return doc


OPERATORS: tuple[Callable[[Any, Path_, Chooser, list[Any]], Any], ...] = (
    _replace, _replace, _replace, _delete, _insert, _move, _swap,
)


def mutate_json(
    doc: Any, chooser: Chooser, vocabulary: list[Any] = (), within: Path_ = (), steps: int = 0
) -> Any:
    """Return a mutated deep copy of ``doc``: 1 to 3 edits (``steps``) under ``within``.

    ``vocabulary``: plausible values from elsewhere (card ids of every game, the seats,
    the document's own strings and numbers are added).
    """
    out = copy.deepcopy(doc)
    for _ in range(steps or 1 + chooser.below(3)):
        try:
            inner = at(out, within)
        except (KeyError, IndexError, TypeError):
            within, inner = (), out  # an earlier edit removed it: edit anywhere
        found = list(nodes(inner, within))
        pool = list(vocabulary) + [v for _, v in found if not isinstance(v, (dict, list))][:200]
        path, _ = pick(chooser, found)
        op = pick(chooser, OPERATORS)
        try:
            out = op(out, path, chooser, pool)
        except (KeyError, IndexError, TypeError, AttributeError):
            continue  # the path moved under an earlier edit: skip this one
    return out


def mutate_bytes(data: bytes, chooser: Chooser) -> bytes:
    """Return ``data`` with one raw edit: cut, a flipped byte, junk, a line dropped,
    doubled or swapped, a BOM, a trailing newline gone."""
    lines = data.split(b"\n")
    how = chooser.below(9)
    if how == 0:
        return data[: chooser.below(len(data) + 1)]
    if how == 1 and data:
        i = chooser.below(len(data))
        return data[:i] + bytes([data[i] ^ (1 << chooser.below(8))]) + data[i + 1 :]
    if how == 2:
        i = chooser.below(len(data) + 1)
        junk = pick(chooser, [b"\x00", b"\xff", b"{", b"}", b",", b'"', b"\n", b"1e9", b"\xc3"])
        return data[:i] + junk + data[i:]
    if how == 3 and len(lines) > 1:
        del lines[chooser.below(len(lines))]
        return b"\n".join(lines)
    if how == 4 and lines:
        i = chooser.below(len(lines))
        lines.insert(i, lines[i])
        return b"\n".join(lines)
    if how == 5 and len(lines) > 1:
        i, j = chooser.below(len(lines)), chooser.below(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if how == 6:
        return b"\xef\xbb\xbf" + data
    if how == 7:
        return data.rstrip(b"\n")
    return data + pick(chooser, [b"\n", b" ", b"x", b"{}\n"])


def mutate_jsonl(data: bytes, chooser: Chooser, vocabulary: list[Any] = ()) -> bytes:
    """Return JSON lines (``chain.jsonl``) with one line's document mutated, or raw edits."""
    lines = data.split(b"\n")
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if not filled or chooser.below(3) == 0:
        return mutate_bytes(data, chooser)
    i = pick(chooser, filled)
    try:
        doc = json.loads(lines[i])
    except ValueError:
        return mutate_bytes(data, chooser)
    lines[i] = dump(mutate_json(doc, chooser, vocabulary))
    return b"\n".join(lines)


def dump(doc: Any) -> bytes:
    """Return a document as compact JSON (keys kept in order; the checks find the rest)."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


def pretty(doc: Any) -> bytes:
    """Return a document as the referee writes it (sorted keys, indented)."""
    return (json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode()
