"""Load and validate Mot Coin card tables; look cards up by id.

The table is data (``cards.json``, checked against ``cards.schema.json``). Card ids are
strings: ``"1"`` … ``"24"`` for the numbered cards, ``"S1"`` … ``"S7"`` for Stable Coins.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from arbiter.core import datafile
from arbiter.core.hidden import face

if TYPE_CHECKING:  # jsonschema checks custom tables only: loaded when one is read
    import jsonschema

BUILTIN = datafile.BUILTIN
MOTCOIN, HARDFORK, STABLECOIN = "motcoin", "hardfork", "stablecoin"
REMOVE = "remove"
"""The fluctuation value printed as "Remove one die"."""
SEATS_MAX = 5
HARDFORKS = 4
LAST_HARDFORK = 24
"""Rules 4 (note): No. 24 is a HardFork and can never be auctioned in round 1."""


def _package_json(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(_package_json("cards.schema.json"))


@lru_cache(maxsize=1)
def builtin_table() -> dict[str, Any]:
    """Return the shipped (provisional) table."""
    table: dict[str, Any] = _package_json("cards.json")
    return table


def problem(table: Any) -> str | None:
    """Return the first thing wrong with a table as one line, or ``None`` if it is valid."""
    import jsonschema

    errors = sorted(
        _validator().iter_errors(table), key=lambda e: (list(e.absolute_path), e.message)
    )
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        where = "/".join(str(part) for part in error.absolute_path) or "top level"
        return f"{_short(error)} (at {where})"
    numbers = sorted(row["number"] for row in table["cards"])
    if numbers != list(range(1, 25)):
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        return f"card numbers must be 1 to 24, each once (repeated: {repeated})"
    forks = [row["number"] for row in table["cards"] if row["type"] == HARDFORK]
    if len(forks) != HARDFORKS:
        return f"there must be exactly {HARDFORKS} HardFork cards, found {len(forks)} {forks}"
    if LAST_HARDFORK not in forks:
        # Rules 4 (note): the 4th HardFork is No. 24, always the higher card of its pair in
        # round 1, so the game cannot end before round 2 (MC-R13).
        return (
            f"card No. {LAST_HARDFORK} must be a HardFork, the 4th that never comes up in "
            f"round 1 (rules 4); this table's HardForks are {forks}"
        )
    doubles = sum(1 for row in table["cards"] if row.get("auction") == "double")
    spare = table["stable_coin"]["count"] - SEATS_MAX
    if doubles > spare:
        return f"{doubles} double-auction cards need {doubles} spare Stable Coins, the table has {spare}"
    return None


def _short(error: jsonschema.exceptions.ValidationError) -> str:
    """Return a schema error without a dump of a large instance."""
    if error.validator in ("minItems", "maxItems") and isinstance(error.instance, list):
        bound = "at least" if error.validator == "minItems" else "at most"
        return f"needs {bound} {error.validator_value} items, has {len(error.instance)}"
    message = str(error.message)
    return message if len(message) <= 160 else message[:157] + "..."


def load_file(path: str) -> dict[str, Any]:
    """Read and validate a group's own file, or raise ``UsageError`` saying what is wrong."""
    return datafile.load(path, "card table", "cards.schema.json", problem)


def resolve(option: Any) -> dict[str, Any] | str:
    """Check a manifest value: ``"builtin"`` or an embedded data object."""
    return datafile.resolve(option, "Mot Coin card table", problem)


class Catalog:
    """Every card of one table by id, with the derived numbers the rules need."""

    def __init__(self, table: dict[str, Any]):
        self.table = table
        self.rows: dict[str, dict[str, Any]] = {}
        for row in table["cards"]:
            card = str(row["number"])
            self.rows[card] = {
                "id": card,
                "number": row["number"],
                "type": row["type"],
                "price": row.get("price", 0),
                "fluctuation": row["fluctuation"],
                "crash": row["crash"],
                "double": 1 if row.get("auction") == "double" else 0,
            }
        stable = table["stable_coin"]
        self.stable_ids = [f"S{i}" for i in range(1, stable["count"] + 1)]
        for card in self.stable_ids:
            self.rows[card] = {
                "id": card,
                "number": 0,
                "type": STABLECOIN,
                "price": 0,
                "fluctuation": 0,
                "crash": stable["crash"],
                "double": 0,
            }
        self.numbered = [str(n) for n in range(1, 25)]

    # A peer game's shared state holds placeholders for the draw pile's unseen cards: a
    # face read through here raises ``Hidden`` for one (docs/peer.md §3.2).
    def __getitem__(self, card: str) -> dict[str, Any]:
        return self.rows[face(card)]

    def name(self, card: str) -> str:
        """Return the short printed name: ``No.12`` or ``Stable Coin S3``."""
        face(card)
        return f"Stable Coin {card}" if card.startswith("S") else f"No.{card}"

    def brief(self, card: str) -> dict[str, Any]:
        """Return the public card data carried by events and views (ints and strings)."""
        row = self.rows[face(card)]
        out: dict[str, Any] = {"id": card, "name": self.name(card), "type": row["type"]}
        if row["type"] == MOTCOIN:
            out["price"] = row["price"]
        if row["type"] != STABLECOIN:
            out["fluctuation"] = row["fluctuation"]
        out["crash"] = row["crash"]
        if row["double"]:
            out["auction"] = "double"
        return out


@lru_cache(maxsize=8)
def _catalog_for(key: str) -> Catalog:
    return Catalog(json.loads(key))


def catalog(table: dict[str, Any] | str) -> Catalog:
    """Return the (cached) catalog of a table, or of the shipped one for ``"builtin"``."""
    if table == BUILTIN:
        return _builtin_catalog()
    assert isinstance(table, dict)
    return _catalog_for(json.dumps(table, sort_keys=True))


@lru_cache(maxsize=1)
def _builtin_catalog() -> Catalog:
    return Catalog(builtin_table())
