"""Placeholders for cards not everyone knows, and the two generators of peer games
(docs/peer.md §3).

In a peer game every machine runs the normal engine on a **shared state**, in which each
card whose face not everyone knows is a placeholder id ``?<deck>.<slot>``: slot ``slot`` of
encrypted deck ``deck``. Rules code may move, count and compare placeholders but never
read a face: a card catalogue asked for a placeholder's face raises ``Hidden``, and the
peer layer then obtains that card's opening and applies the step again. A referee game's
state holds no placeholders, so nothing here changes a byte of it.

- ``PeerRng`` is the generator a peer game's engine receives: each ``shuffle`` turns the
  list into a new encrypted deck's placeholders and records the cards it holds (the
  deck's plaintexts, which the players then encrypt and shuffle with proofs). Anything
  else a generator could draw is refused: a peer game has no hidden numbers.
- ``RevealedRng`` replays a finished peer game for ``arbiter verify``: each ``shuffle``
  yields the order the decrypted deck shows.
- ``substitute`` gives a seat's **private state**: the shared state with the placeholders
  that seat has opened replaced by their ids, through the engine's own ``encode`` and
  ``decode``, so that no engine needs code for it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, MutableSequence
from typing import Any

from arbiter.core.errors import Tampered

PLACEHOLDER = re.compile(r"\?([a-z][a-z0-9]*)\.([0-9]{1,4})")


class Hidden(Exception):
    """Rules code asked for the face of ``placeholder``: the step needs it opened first."""

    def __init__(self, placeholder: str):
        super().__init__(f"the face of {placeholder} is not known here")
        self.placeholder = placeholder


def placeholder(deck: str, slot: int) -> str:
    return f"?{deck}.{slot}"


def is_hidden(card: object) -> bool:
    """Whether ``card`` is a placeholder id (a card whose face this state does not hold)."""
    return isinstance(card, str) and PLACEHOLDER.fullmatch(card) is not None


def face(card: str) -> str:
    """``card`` itself, or raise ``Hidden`` for a placeholder: the one check a card
    catalogue makes before reading a face."""
    if is_hidden(card):
        raise Hidden(card)
    return card


def _no_numbers(*_: object) -> Any:
    """What both peer generators answer to anything but a shuffle: a deliberate refusal,
    as an engine that draws numbers cannot be played peer to peer (docs/peer.md §2)."""
    raise NotImplementedError(
        "a peer game draws nothing but shuffles of cards (docs/peer.md §2): this engine "
        "cannot be played peer to peer"
    )


class PeerRng:
    """The generator of a step of a peer game's shared state. Decks are numbered in the
    order the game shuffles them, d0, d1, …, from ``first`` (the decks made before this
    step). A step that raised ``Hidden`` is applied again with a new ``PeerRng`` of the
    same ``first`` and the openings obtained meanwhile (``opened``): it makes the same
    decks, with those slots already turned up, and never reshuffles anything."""

    def __init__(self, opened: Mapping[str, str] | None = None, first: int = 0) -> None:
        self.opened = dict(opened or {})
        self.first = first
        self.decks: dict[str, list[str]] = {}
        """Each deck this step made: its cards (its plaintexts), in the order the list held them."""

    def shuffle(self, items: MutableSequence[Any]) -> None:
        deck = f"d{self.first + len(self.decks)}"
        cards = list(items)
        for card in cards:
            if not isinstance(card, str) or is_hidden(card):
                raise ValueError(f"a peer deck holds card ids the engine knows, not {card!r}")
        self.decks[deck] = cards
        slots = [placeholder(deck, slot) for slot in range(len(cards))]
        items[:] = [self.opened.get(p, p) for p in slots]

    below = between = choice = bytes = _no_numbers


class RevealedRng:
    """The generator that replays a finished peer game: each shuffle takes the next deck's
    order as its decryption shows it (``orders``: the decks' card ids, slot order)."""

    def __init__(self, orders: list[list[str]]):
        self.orders = list(orders)
        self.used = 0

    def shuffle(self, items: MutableSequence[Any]) -> None:
        if self.used >= len(self.orders):
            raise Tampered("the engine shuffles more decks than the game's transcript holds")
        order = self.orders[self.used]
        if Counter(order) != Counter(items):
            raise Tampered(
                f"deck d{self.used} does not hold the cards the engine shuffles there: its "
                "encryption or a shuffle was not of this game"
            )
        self.used += 1
        items[:] = order

    below = between = choice = bytes = _no_numbers


def substitute(value: Any, known: Mapping[str, str]) -> Any:
    """``value`` (a state's JSON encoding) with each placeholder in ``known`` replaced by
    its card id, in keys and values alike."""
    if isinstance(value, str):
        return known.get(value, value)
    if isinstance(value, list):
        return [substitute(item, known) for item in value]
    if isinstance(value, dict):
        return {substitute(k, known): substitute(v, known) for k, v in value.items()}
    return value


def private_state(engine: Any, shared: Any, known: Mapping[str, str]) -> Any:
    """A seat's private state: the shared state with the cards it has opened."""
    if not known:
        return engine.copy(shared)
    return engine.decode(substitute(engine.encode(shared), known))


def placeholders(value: Any) -> set[str]:
    """Every placeholder in ``value`` (a view or a state's encoding)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if is_hidden(item):
                found.add(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    return found
