"""The colours Momiji's leaf types are drawn in (terminal and HTML).

Drawing data only, no rule. The shipped leaf types have their own colours; a type from
other data (``data=FILE``) takes the spare colours in the order the view lists types.
"""

from __future__ import annotations

TYPE_COLOURS: dict[str, tuple[str, str]] = {
    "maple": ("#c0392b", "#ffffff"),  # red maple
    "ginkgo": ("#e1b12c", "#1e1e1e"),  # yellow ginkgo
    "cherry": ("#e895b4", "#1e1e1e"),  # pink cherry
    "oak": ("#7b5a32", "#ffffff"),  # brown oak
    "beech": ("#d35400", "#ffffff"),  # orange beech
    "larch": ("#6b8e23", "#ffffff"),  # olive larch
}
"""Leaf type → (background, text) as ``#rrggbb``."""

SPARE_COLOURS: tuple[tuple[str, str], ...] = (
    ("#5d6d7e", "#ffffff"),
    ("#8e44ad", "#ffffff"),
    ("#16a085", "#ffffff"),
    ("#a04000", "#ffffff"),
)
"""Colours for leaf types not listed above, given in the view's type order."""


def colours(types: list[str]) -> dict[str, tuple[str, str]]:
    """Return the colours of each leaf type in play (``view["types"]``)."""
    out: dict[str, tuple[str, str]] = {}
    spare = 0
    for kind in types:
        if kind in TYPE_COLOURS:
            out[kind] = TYPE_COLOURS[kind]
        else:
            out[kind] = SPARE_COLOURS[spare % len(SPARE_COLOURS)]
            spare += 1
    return out
