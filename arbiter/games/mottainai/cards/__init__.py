"""The Mottainai card data: 54 rows, materials and instance ids."""

from arbiter.games.mottainai.cards.catalog import (
    CARDS,
    INSTANCES,
    MATERIAL,
    MATERIALS,
    TASKS,
    VALUE,
    WINDOWS,
    Card,
    base_id,
    card,
    deck_ids,
    faced,
)

__all__ = [
    "CARDS",
    "INSTANCES",
    "MATERIAL",
    "MATERIALS",
    "TASKS",
    "VALUE",
    "WINDOWS",
    "Card",
    "base_id",
    "card",
    "deck_ids",
    "faced",
]
