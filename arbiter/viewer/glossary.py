"""What the page needs to draw a card id: its name, material, value... per engine.

Only the ids that appear in the embedded states get a row: the page must not list the
whole deck (a card id found in the file is a card the viewer saw). An engine without an
entry here is drawn by the page's generic table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any


def strings_in(value: Any) -> Iterator[str]:
    """Yield every string inside a JSON value (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def _mottainai(seen: Iterable[str]) -> dict[str, Any]:
    from arbiter.games.mottainai.cards import INSTANCES

    out = {}
    for text in sorted(set(seen)):
        card = INSTANCES.get(text)
        if card is not None:
            out[text] = {
                "name": card.name,
                "material": card.material,
                "value": card.value,
                "task": card.task,
                "text": card.text,
            }
    return out


def _momiji(seen: Iterable[str]) -> dict[str, Any]:
    from arbiter.games.momiji.data import parse_code

    out = {}
    for text in sorted(set(seen)):
        card = parse_code(text)
        if card is not None:
            out[text] = {
                "type": card.type,
                "value": card.value,
                "left": card.left,
                "right": card.right,
            }
    return out


GLOSSARIES: dict[str, Callable[[Iterable[str]], dict[str, Any]]] = {
    "mottainai": _mottainai,
    "momiji": _momiji,
}
"""Engine name → the glossary of the card ids seen. Mot Coin's views carry their cards."""


def glossary(engine: str, data: Any) -> dict[str, Any]:
    """Return the rows for the card ids found anywhere in ``data`` (JSON; empty for an
    engine without a glossary)."""
    build = GLOSSARIES.get(engine)
    return {} if build is None else build(strings_in(data))
