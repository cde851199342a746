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
from collections.abc import Callable, Collection, Mapping, MutableSequence, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, cast

from arbiter.core.errors import Tampered
from arbiter.core.rng import Rng

PLACEHOLDER = re.compile(r"\?([a-z][a-z0-9]*)\.([0-9]{1,4})")


class Hidden(Exception):
    """Rules code asked for the faces of ``placeholders``: the step needs them opened
    first. A rule that reads several faces at once (a garden sorted by type, the piles
    scored at the end) names them all, so that one opening round serves the step."""

    def __init__(self, *placeholders: str):
        super().__init__(f"the face of {', '.join(placeholders)} is not known here")
        self.placeholders = placeholders
        self.placeholder = placeholders[0]


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


def faces(cards: list[str]) -> list[str]:
    """``cards`` themselves, or raise ``Hidden`` naming every placeholder among them."""
    hidden = [card for card in cards if is_hidden(card)]
    if hidden:
        raise Hidden(*dict.fromkeys(hidden))
    return cards


class FaceTable(dict[str, Any]):
    """A card catalogue's table (id to printed data) that raises ``Hidden`` when asked for
    a placeholder, and ``KeyError`` for any other id it lacks. The check runs only on a
    miss, so a referee game's lookups cost what a plain dict's do."""

    def __missing__(self, key: str) -> Any:
        if is_hidden(key):
            raise Hidden(key)
        raise KeyError(key)


@dataclass(frozen=True)
class Disclosure:
    """A decision a seat made on its private state, as every machine applies it to the
    shared state (docs/peer.md §3.5): ``public`` names each held card by id, except the
    ``kept`` and ``returned`` ones, named by their placeholders; ``shown`` are the
    placeholders whose openings travel with the decision (the holder's shares, with
    proofs), ``kept`` those that stay hidden, each proven to be one of the faces the
    engine's ``claims`` lists.

    ``returned`` (docs/peer-mottainai.md §3.2) are held cards the decision puts face down
    into a deck, each with a proof that the deck receives the card the seat held;
    ``concealed`` (§3.3) the cards the shared hand holds by id (everyone saw them) that the
    seat must turn back into placeholders before the decision, as a returned card must not
    be named. Engines without such moves leave both empty."""

    public: dict[str, Any]
    shown: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    returned: tuple[str, ...] = ()
    concealed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fact:
    """A question a rule asks about a hidden hand without reading it: does ``holder`` hold,
    among ``cards`` (placeholders), one whose face is among ``faces``? (docs/peer-mottainai.md
    §3.4: whether an effect is offered at all, Cloak's "a METAL card in hand".) The holder
    answers with its decision, with a proof of presence or absence."""

    holder: str
    cards: tuple[str, ...]
    faces: tuple[str, ...]


class Unanswered(Hidden):
    """A rule asked a ``Fact`` that this step's facts do not answer."""

    def __init__(self, fact: Fact):
        super().__init__(*fact.cards)
        self.fact = fact


class Facts:
    """The answers a step of a peer game's shared state may use (``holds_any``): given
    ones (a decision's, as every machine checks it), or an ``oracle`` that answers from
    the holder's own knowledge and records each answer (the holder's machine)."""

    def __init__(
        self,
        given: Mapping[Fact, bool] | None = None,
        oracle: Callable[[Fact], bool] | None = None,
    ) -> None:
        self.answers: dict[Fact, bool] = dict(given or {})
        self.oracle = oracle
        self.asked: list[Fact] = []
        """Every fact the step asked, in order, once each."""

    def answer(self, fact: Fact) -> bool:
        if fact not in self.asked:
            self.asked.append(fact)
        if fact not in self.answers:
            if self.oracle is None:
                raise Unanswered(fact)
            self.answers[fact] = self.oracle(fact)
        return self.answers[fact]

    def __enter__(self) -> Facts:
        self._token = _FACTS.set(self)
        return self

    def __exit__(self, *_: object) -> None:
        _FACTS.reset(self._token)


_FACTS: ContextVar[Facts | None] = ContextVar("arbiter_peer_facts", default=None)


def holds_any(holder: str, cards: Sequence[str], wanted: Collection[str]) -> bool:
    """Whether ``holder``'s ``cards`` include one whose face is in ``wanted``.

    Cards named by id answer at once (a referee state holds nothing else, so this is a
    plain membership test there). Only if none of them does and placeholders remain is
    the question a ``Fact``, answered by the step's ``Facts`` (``Unanswered`` without)."""
    if any(card in wanted for card in cards if not is_hidden(card)):
        return True
    hidden = tuple(card for card in cards if is_hidden(card))
    if not hidden or not wanted:
        return False  # nothing hidden, or no face asked about: no question to ask
    facts = _FACTS.get()
    fact = Fact(holder, hidden, tuple(sorted(wanted)))
    if facts is None:
        raise Unanswered(fact)
    return facts.answer(fact)


class Holdings:
    """A seat's hidden zone as the shared state holds it, for ``Engine.disclose``: each
    card a decision names is taken once, by id when the zone holds that id (a card
    everyone saw arrive), else by a placeholder the seat knows to be that card. Among
    several placeholders of one card it takes the first in ``order`` (the seat's own
    random order, so that which copy it gives up tells the others nothing), by default
    the zone's."""

    def __init__(
        self, zone: list[str], known: Mapping[str, str], order: Sequence[str] | None = None
    ):
        self.left = list(zone)
        self.known = known
        rank = {card: i for i, card in enumerate(order or ())}
        self.preferred = sorted(
            (c for c in zone if is_hidden(c)), key=lambda c: rank.get(c, len(rank))
        )

    def take(self, card: str) -> str | None:
        """The zone's entry for ``card`` (its id or a placeholder), or None if not held."""
        if card in self.left:
            self.left.remove(card)
            return card
        for entry in self.preferred:
            if entry in self.left and self.known.get(entry) == card:
                self.left.remove(entry)
                return entry
        return None


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


def as_rng(rng: PeerRng | RevealedRng) -> Rng:
    """A peer generator where an engine takes an ``Rng``: it serves the one thing engines
    draw, shuffles (docs/peer.md §2; ``test_hidden`` keeps every engine so), and refuses
    the rest."""
    return cast(Rng, rng)


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
