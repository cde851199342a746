"""Encode a game's frames compactly for the HTML page, and decode them back (for tests).

The page embeds, for each viewer it offers, the state file that viewer had after every
chain entry and the log lines it read for that entry. Stored naively that is hundreds of
near-identical state files, so:

- the entries' public facts (seq, kind, seat, turn) are stored once;
- log lines go into one string table (most lines read the same for every viewer);
- the spectator's states (or, without a spectator, each viewer's) are *deltas* from the
  previous entry's state: ``[path]`` deletes a key, ``[path, value]`` sets it;
- a seat's state is a delta from the spectator's state at the same entry (its hand, what
  it returned...), and ``0`` stands for "the same delta as at the entry before".

Only what the chosen viewers' own frames hold is embedded: nothing is derived from
another viewer's frame. ``legal`` and ``head`` are left out of every state (the page shows
neither; the chain head is in the public ``chain.jsonl``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

FORMAT = "arbiter.replay/1"
DROPPED = ("legal", "head")
"""State file fields the page does not embed."""

Ops = list[list[Any]]


def trimmed(state: dict[str, Any]) -> dict[str, Any]:
    """Return the part of a state file the page embeds."""
    return {k: v for k, v in state.items() if k not in DROPPED}


def diff(old: Any, new: Any, path: list[Any] | None = None, ops: Ops | None = None) -> Ops:
    """Return the operations that turn ``old`` into ``new`` (objects recursively).

    Lists are replaced whole when they differ: they are short, and a card moving from
    one zone to another changes their length anyway.
    """
    path = [] if path is None else path
    ops = [] if ops is None else ops
    if old == new:
        return ops
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append([[*path, key]])
        for key, value in new.items():
            if key in old:
                diff(old[key], value, [*path, key], ops)
            else:
                ops.append([[*path, key], value])
        return ops
    ops.append([path, new])
    return ops


def patch(base: Any, ops: Ops) -> Any:
    """Return a copy of ``base`` with ``ops`` applied (the page's decoder, in Python)."""
    out = copy.deepcopy(base)
    for op in ops:
        path = op[0]
        if not path:
            out = copy.deepcopy(op[1])
            continue
        target = out
        for key in path[:-1]:
            target = target[key]
        if len(op) == 1:
            del target[path[-1]]
        else:
            target[path[-1]] = copy.deepcopy(op[1])
    return out


class Strings:
    """A table of distinct strings, referred to by index."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.index: dict[str, int] = {}

    def refs(self, texts: Iterable[str]) -> list[int]:
        out = []
        for text in texts:
            number = self.index.get(text)
            if number is None:
                number = self.index[text] = len(self.items)
                self.items.append(text)
            out.append(number)
        return out


def encode(
    viewers: Sequence[str | None],
    frames: dict[str | None, list[Any]],
) -> dict[str, Any]:
    """Return the ``entries``, ``strings`` and ``views`` parts of the page's data.

    ``frames[v]`` holds viewer ``v``'s frames (``arbiter.core.timeline.Frame``), all at
    the same entries.
    """
    first = frames[viewers[0]]
    entries = [[f.seq, f.kind, f.seat, f.turn] for f in first]
    for viewer in viewers:
        got = [[f.seq, f.kind, f.seat, f.turn] for f in frames[viewer]]
        if got != entries:
            raise ValueError(f"the frames of viewer {viewer!r} are not at the same entries")
    strings = Strings()
    spectator = [trimmed(f.state) for f in frames[None]] if None in frames else None
    views = []
    for viewer in viewers:
        states = [trimmed(f.state) for f in frames[viewer]]
        rows: list[list[Any]] = []
        if viewer is None or spectator is None:
            before: Any = {}
            for frame, state in zip(frames[viewer], states, strict=True):
                rows.append([strings.refs(frame.lines), diff(before, state)])
                before = state
            base = "previous"
        else:
            last: Ops | None = None
            for frame, state, public in zip(frames[viewer], states, spectator, strict=True):
                ops = diff(public, state)
                rows.append([strings.refs(frame.lines), 0 if ops == last else ops])
                last = ops
            base = "spectator"
        views.append({"viewer": viewer, "base": base, "frames": rows})
    return {"entries": entries, "strings": strings.items, "views": views}


def decode(data: dict[str, Any]) -> dict[str | None, list[dict[str, Any]]]:
    """Return each embedded viewer's frames as ``{seq, kind, seat, turn, state, lines}``."""
    strings = data["strings"]
    out: dict[str | None, list[dict[str, Any]]] = {}
    states: dict[str | None, list[Any]] = {}
    for view in data["views"]:
        viewer = view["viewer"]
        got: list[Any] = []
        last: Ops = []
        for index, (_refs, ops) in enumerate(view["frames"]):
            ops = last if ops == 0 else ops
            if view["base"] == "spectator":
                got.append(patch(states[None][index], ops))
            else:
                got.append(patch(got[-1] if got else {}, ops))
            last = ops
        states[viewer] = got
        out[viewer] = [
            {
                "seq": seq,
                "kind": kind,
                "seat": seat,
                "turn": turn,
                "state": state,
                "lines": [strings[i] for i in refs],
            }
            for (seq, kind, seat, turn), state, (refs, _) in zip(
                data["entries"], got, view["frames"], strict=True
            )
        ]
    return out
