"""Load and validate Momiji's printed data; build the deck and look cards up.

The data is a file (``data.json``, checked against ``data.schema.json``); a group may
supply its own with ``--option data=FILE``. Card codes name what a card shows, so two
identical cards share a code: ``maple-0`` (no acorn), ``maple-0L``, ``maple-0R`` and
``maple-0LR`` (acorns in the left, right or both top corners).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from arbiter.core import datafile
from arbiter.core.hidden import FaceTable, Hidden, faces

BUILTIN = datafile.BUILTIN
COPIES = (5, 4, 3, 2)
"""Confirmed: per type five 0s, four 1s, three 2s and two 3s (14 cards)."""
TOP = 3
"""A 3 closes its pile with a torii."""
CORNER_CODES = {"left": "L", "right": "R", "both": "LR"}
MAX_SEATS = 4


def _package_json(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema  # lazily: only a data file (or its check) needs it

    return jsonschema.Draft202012Validator(_package_json("data.schema.json"))


@lru_cache(maxsize=1)
def builtin_data() -> dict[str, Any]:
    """Return the shipped (mostly provisional) data."""
    data: dict[str, Any] = _package_json("data.json")
    return data


def problem(data: Any) -> str | None:
    """Return the first thing wrong with a data object as one line, or ``None``."""
    import jsonschema

    errors = list(_validator().iter_errors(data))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        where = "/".join(str(part) for part in error.absolute_path) or "top level"
        message = str(error.message)
        return f"{message if len(message) <= 160 else message[:157] + '...'} (at {where})"
    return _semantic_problem(data)


def _semantic_problem(data: dict[str, Any]) -> str | None:
    types = [row["id"] for row in data["types"]]
    if len(set(types)) != len(types):
        return f"leaf type ids must be unique: {types}"
    used: dict[tuple[str, int], int] = {}
    for row in data["acorns"]:
        if row["type"] not in types:
            return f"acorn row names unknown type {row['type']!r} (types: {', '.join(types)})"
        key = (row["type"], row["value"])
        used[key] = used.get(key, 0) + row["count"]
        if used[key] > COPIES[row["value"]]:
            return f"more acorn cards than the {COPIES[row['value']]} copies of {key[0]} {key[1]}"
    sets: dict[str, str] = {}
    for row in data["landscapes"]:
        if row["id"] in sets:
            return f"landscape id {row['id']!r} is repeated"
        sets[row["id"]] = row["set"]
    for name in "ABC":
        if list(sets.values()).count(name) < MAX_SEATS:
            return f"set {name} needs at least {MAX_SEATS} landscapes (one per player)"
    seen: set[str] = set()
    for i, row in enumerate(data["panoramas"]):
        ids = row["landscapes"]
        if any(x not in sets for x in ids):
            return f"panorama {i + 1} names an unknown landscape: {ids}"
        if sorted(sets[x] for x in ids) != ["A", "B", "C"] or seen & set(ids):
            return f"panorama {i + 1} must hold one unused landscape of each set A, B, C: {ids}"
        seen |= set(ids)
    ids = [row["id"] for row in data["objectives"]]
    if len(set(ids)) != len(ids):
        return "objective ids must be unique"
    for row in data["objectives"]:
        if (row["measure"] == "most-of-type") != ("type" in row):
            return f"objective {row['id']!r}: 'type' goes with measure most-of-type, only there"
        if "type" in row and row["type"] not in types:
            return f"objective {row['id']!r} names unknown type {row['type']!r}"
    for seats in range(2, MAX_SEATS + 1):
        live = types[: seats + 2]
        eligible = [r for r in data["objectives"] if r.get("type", live[0]) in live]
        if len(eligible) < seats + 2:
            return f"{seats} players need {seats + 2} objectives with their types in play"
    return None


def load_file(path: str) -> dict[str, Any]:
    """Read and validate a group's own file, or raise ``UsageError`` saying what is wrong."""
    return datafile.load(path, "Momiji data", "data.schema.json", problem)


def resolve(option: Any) -> dict[str, Any] | str:
    """Check a manifest value: ``"builtin"`` or an embedded data object."""
    return datafile.resolve(option, "Momiji data", problem)


@dataclass(frozen=True)
class Card:
    """What one card code shows."""

    code: str
    type: str
    value: int
    left: bool
    right: bool


def code_of(kind: str, value: int, corners: str = "") -> str:
    """Return the card code ``maple-1R``."""
    return f"{kind}-{value}{corners}"


def parse_code(code: str) -> Card | None:
    """Return what a well-formed code shows (no check that it is in the game)."""
    kind, sep, rest = code.rpartition("-")
    if not sep or not kind or not rest or not rest[0].isdigit():
        return None
    corners = rest[1:]
    if corners not in ("", "L", "R", "LR") or not kind.isalpha() or len(rest) > 3:
        return None
    return Card(code, kind, int(rest[0]), "L" in corners, "R" in corners)


class Catalog:
    """One data set, indexed: types, the deck per type, landscapes and objectives."""

    def __init__(self, data: dict[str, Any]):
        self.data = data
        self.types = [row["id"] for row in data["types"]]
        self.starting_acorns = int(data["starting_acorns"]["count"])
        # Each table raises ``Hidden`` for a placeholder (a card of a peer game whose face
        # is not known here, docs/peer.md §3.2).
        self.landscapes = FaceTable({row["id"]: row for row in data["landscapes"]})
        self.panoramas = [list(row["landscapes"]) for row in data["panoramas"]]
        self.objectives = FaceTable({row["id"]: row for row in data["objectives"]})
        self.cards: dict[str, Card] = FaceTable()
        self.decks: dict[str, list[str]] = {}
        for kind in self.types:
            deck: list[str] = []
            for value, copies in enumerate(COPIES):
                rows = [r for r in data["acorns"] if r["type"] == kind and r["value"] == value]
                for row in rows:
                    deck += [code_of(kind, value, CORNER_CODES[row["corners"]])] * row["count"]
                deck += [code_of(kind, value)] * (copies - sum(r["count"] for r in rows))
            self.decks[kind] = deck
            for code in deck:
                card = parse_code(code)
                assert card is not None
                self.cards[code] = card
        self._keys = FaceTable(
            {
                code: (self.types.index(card.type), card.value, code)
                for code, card in self.cards.items()
            }
        )
        self.decks = {kind: self.sort(deck) for kind, deck in self.decks.items()}

    def sort_key(self, code: str) -> tuple[int, int, str]:
        """Order cards by type (setup order), value, then corners ("" < L < LR < R)."""
        return self._keys[code]

    def sort(self, codes: list[str]) -> list[str]:
        """Return the cards in hand order (``Hidden`` naming every placeholder among them)."""
        try:
            return sorted(codes, key=self._keys.__getitem__)
        except Hidden:
            faces(codes)
            raise

    def deck(self, types: list[str]) -> list[str]:
        """Return every card of the given types, sorted."""
        return [code for kind in types for code in self.decks[kind]]

    def objective_ids(self, types: list[str]) -> list[str]:
        """Return the objectives playable with these types in play, in data order."""
        return [o for o, row in self.objectives.items() if row.get("type", types[0]) in types]


@lru_cache(maxsize=8)
def _catalog_for(key: str) -> Catalog:
    return Catalog(json.loads(key))


@lru_cache(maxsize=1)
def _builtin_catalog() -> Catalog:
    return Catalog(builtin_data())


def catalog(data: dict[str, Any] | str) -> Catalog:
    """Return the (cached) catalog of embedded data, or of the shipped data."""
    if data == BUILTIN:
        return _builtin_catalog()
    assert isinstance(data, dict)
    return _catalog_for(json.dumps(data, sort_keys=True))


def provisional_summary(data: dict[str, Any]) -> list[str]:
    """Return which sections of the data hold provisional rows (for ``arbiter games``)."""
    out = []
    for section in ("types", "acorns", "landscapes", "panoramas", "objectives"):
        rows = data[section]
        count = sum(1 for row in rows if row["source"] == "provisional")
        if count:
            out.append(f"{section} {count}/{len(rows)}")
    if data["starting_acorns"]["source"] == "provisional":
        out.append("starting acorns")
    return out
