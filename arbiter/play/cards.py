"""One line per card a decision names: its name, its type, what it does (``arbiter play``).

A decision names cards by id (``deck-of-cards``, ``maple-1R``, Mot Coin's ``12``); a
player reads and types names. Each engine's own tables give the line: Mottainai's card
rows (our paraphrase, never the printed wording), Momiji's card codes, Mot Coin's cards
as the seat's view carries them. A string an engine does not know is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CardInfo:
    """What a player needs to recognise a card: ``name`` (what they type), ``type`` (its
    material, suit or kind) and ``text`` (what it does, one line; may be empty)."""

    id: str
    name: str
    type: str
    text: str

    def line(self) -> str:
        """``Bell [PAPER 1, CLERK]: …`` — the card in one line."""
        head = f"{self.name} [{self.type}]" if self.type else self.name
        return f"{head}: {self.text}" if self.text else head


def _mottainai(card_id: str, view: Mapping[str, Any]) -> CardInfo | None:
    from arbiter.games.mottainai.cards.catalog import INSTANCES

    card = INSTANCES.get(card_id)
    if card is None:
        return None
    kind = f"{card.material} {card.value}, {card.task}"
    return CardInfo(card_id, card.name, kind, card.text)


def _momiji(card_id: str, view: Mapping[str, Any]) -> CardInfo | None:
    from arbiter.games.momiji.data import parse_code
    from arbiter.games.momiji.narrate import CORNERS

    card = parse_code(card_id)
    if card is None:
        return None
    corners = CORNERS.get(card_id.rpartition("-")[2][1:], "")
    return CardInfo(card_id, f"{card.type} {card.value}", card.type, corners)


def _motcoin_cards(view: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every card brief the Mot Coin view carries (each has an ``id``)."""
    stack: list[Any] = [view]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("id"), str) and isinstance(node.get("type"), str):
                yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _motcoin(card_id: str, view: Mapping[str, Any]) -> CardInfo | None:
    from arbiter.games.motcoin.narrate import card_text, name

    for brief in _motcoin_cards(view):
        if brief["id"] == card_id:
            try:
                text = card_text(brief)
            except (KeyError, TypeError):
                text = ""
            return CardInfo(card_id, name(card_id), str(brief["type"]), text)
    return None


CARDS: dict[str, Callable[[str, Mapping[str, Any]], CardInfo | None]] = {
    "mottainai": _mottainai,
    "momiji": _momiji,
    "motcoin": _motcoin,
}
"""Engine name → the card line of an id (``None``: not a card of that engine)."""


def card_info(engine: str, card_id: str, view: Mapping[str, Any] | None) -> CardInfo | None:
    """Return the card an id names in ``engine`` (``None`` when it names none)."""
    find = CARDS.get(engine)
    if find is None:
        return None
    return find(card_id, view or {})
