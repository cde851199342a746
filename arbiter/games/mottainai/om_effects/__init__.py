"""Om effects: one module per effect, registered by effect id (``@om_effect("urn", ...)``).

A Wutai card names its effect by id in the card list (``wutai.json`` or a group's own
list); several cards may share one effect. An Om effect has a timing window of the base
game's effect glossary and receives exactly what a base card's effect of that window
receives (``effects/registry.py``); it reads the cards tucked under *its own* work with
``arbiter.games.mottainai.om`` (``tucked``, ``om_types``). Every module of this package
is imported at start (in name order), so adding an effect is adding one file:
``docs/wutai-cards.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arbiter.games.mottainai.cards import WINDOWS
from arbiter.games.mottainai.effects.dispatch import RUNNING
from arbiter.games.mottainai.effects.registry import Effect, Offers

MOMENTS = ("morning", "night")


@dataclass(frozen=True)
class OmEffect:
    """A registered Om effect: its window and its functions (as ``registry.Effect``)."""

    id: str
    window: str
    resolve: Callable[..., Any]
    moment: str = ""
    offers: Offers | None = None
    queries: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    """The edges whose Om types the effect reads (M-R110): each new material tucked there
    widens what it does (the bots' evaluation counts them)."""
    exists: Callable[..., bool] | None = None
    """As ``registry.Effect.exists``: whether it offers anything, where a hidden hand decides."""

    def as_effect(self, card_id: str) -> Effect:
        """Return the dispatcher's record of this effect on card ``card_id``."""
        return Effect(
            card_id,
            self.window,
            self.resolve,
            self.offers,
            queries=self.queries,
            exists=self.exists,
        )


OM_EFFECTS: dict[str, OmEffect] = {}
"""Effect id → its behaviour."""
__all__ = ["OM_EFFECTS", "RUNNING", "OmEffect", "om_effect"]
WINDOWS_OK = (
    "morning_night",
    "boosters",
    "after_this",
    "after_work",
    "after_action",
    "before_task",
    "before_tailor",
    "continuous",
    "scoring",
)


def om_effect(
    effect_id: str,
    *,
    window: str,
    moment: str = "",
    offers: Offers | None = None,
    queries: tuple[str, ...] = (),
    types: tuple[str, ...] = (),
    exists: Callable[..., bool] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the Om effect ``effect_id`` of ``window``;
    ``types``: the edges whose Om types it reads (``helpers``, ``materials``, ``sales``)."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if window not in WINDOWS or window not in WINDOWS_OK:
            raise ValueError(
                f'@om_effect("{effect_id}"): window {window!r} is not one of {WINDOWS_OK}'
            )
        if (window == "morning_night") != (moment in MOMENTS):
            raise ValueError(f'@om_effect("{effect_id}"): a morning_night effect names its moment')
        if effect_id in OM_EFFECTS:
            raise ValueError(f'@om_effect("{effect_id}") is registered twice')
        if not set(types) <= {"helpers", "materials", "sales"}:
            raise ValueError(f'@om_effect("{effect_id}"): types names edges, not {types}')
        OM_EFFECTS[effect_id] = OmEffect(
            effect_id, window, fn, moment, offers, queries, types, exists
        )
        return fn

    return register


for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")
