"""The ``@effect("id")`` registry: one plain function per card, in its window's module.

A card's behaviour is registered from the module named after its timing window
(``effects/morning_night.py`` for Kite). The decorator fails at import if the id is not
in the catalog, sits in another window's module, or is registered twice.

What the function receives depends on the window:

- decision windows (``morning_night``, ``before_task``, ``before_tailor``, ``after_this``,
  ``after_work``, ``after_action``, ``instead_of``; ``boosters`` with ``offers``):
  ``offers(state, seat, work, ctx) -> list[params]`` lists what the owner may choose now
  (``[]``: not usable), and ``resolve(state, seat, work, ctx, params, events)`` applies
  one choice. The player sends ``{"kind": "use", "card": work, **params}``.
- ``scoring``: ``resolve(state, seat, work, sheet)`` adjusts the seat's score sheet.
- ``continuous``, ``obstruction`` and ``boosters`` without offers:
  ``resolve(state, seat, work, query, value, ctx) -> value`` for each query named in
  ``queries`` (see ``query``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arbiter.games.mottainai.cards import CARDS, INSTANCES, WINDOWS

Offers = Callable[..., list[dict[str, Any]]]


@dataclass(frozen=True)
class Effect:
    """A registered card behaviour."""

    card: str
    window: str
    resolve: Callable[..., Any]
    offers: Offers | None = None
    last: bool = False
    """Rules glossary (M-R8): Poem and Cloak are used last within one trigger."""
    group: str | None = None
    """Effects of one group exclude each other within one trigger."""
    step: str | None = None
    """``instead_of``: the Morning step replaced ("hand-limit", "old-task", "choose-task")."""
    queries: tuple[str, ...] = ()
    exists: Callable[..., bool] | None = None
    """Whether the effect offers anything now, asked without listing its offers: given
    where that depends on a hidden hand (``facts.holds``, M-R126), and then exactly
    ``bool(offers(...))`` on a state without placeholders."""


REGISTRY: dict[str, Effect] = {}
ANSWERING: dict[str, frozenset[str]] = {}
"""Query name → the instance ids of every card ever registered to answer it (other names
are skipped at once). A superset, as a test may swap an effect out again: ``dispatch.query``
still asks the registry."""
NARRATORS: dict[str, Callable[[dict[str, Any], str | None], str | None]] = {}
"""Log lines of effects' own event kinds: ``fn(data, viewer)`` (see ``narrates``)."""
PUBLIC_NARRATORS: set[str] = set()
"""The kinds of ``NARRATORS`` whose line is the same for every viewer (narrated once)."""


def narrates(
    kind: str, *, public: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated ``fn(data, viewer) -> line | None`` for events of ``kind``.

    ``public``: the line never depends on the viewer, so a replay narrates it once for all.
    """

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if kind in NARRATORS:
            raise ValueError(f"events of kind {kind!r} are narrated twice")
        NARRATORS[kind] = fn
        if public:
            PUBLIC_NARRATORS.add(kind)
        return fn

    return register


def _window_of(module: str) -> str:
    return module.rpartition(".")[2]


def effect(
    card_id: str,
    *,
    offers: Offers | None = None,
    last: bool = False,
    group: str | None = None,
    step: str | None = None,
    queries: tuple[str, ...] = (),
    exists: Callable[..., bool] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the behaviour of card ``card_id``."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        window = _window_of(fn.__module__)
        if card_id not in CARDS:
            raise ValueError(f'@effect("{card_id}"): no such card in the catalog')
        if window not in WINDOWS:
            raise ValueError(f'@effect("{card_id}") must live in an effects/<window>.py module')
        expected = CARDS[card_id].window
        if window != expected:
            raise ValueError(
                f'@effect("{card_id}") is in effects/{window}.py but the card\'s window is {expected}'
            )
        if card_id in REGISTRY:
            raise ValueError(f'@effect("{card_id}") is registered twice')
        if window == "instead_of" and step not in ("hand-limit", "old-task", "choose-task"):
            raise ValueError(
                f'@effect("{card_id}"): an instead-of effect names the step it replaces'
            )
        REGISTRY[card_id] = Effect(card_id, window, fn, offers, last, group, step, queries, exists)
        instances = {i for i, c in INSTANCES.items() if c.id == card_id}
        for name in queries:
            ANSWERING[name] = ANSWERING.get(name, frozenset()) | instances
        return fn

    return register


def implemented() -> list[str]:
    """Return the ids of the cards whose effect is implemented, in catalog order."""
    return [c for c in CARDS if c in REGISTRY]


def missing() -> list[str]:
    """Return the ids of the cards that still play as plain works, in catalog order."""
    return [c for c in CARDS if c not in REGISTRY]
