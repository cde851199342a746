"""The meta-test of issue 5 (item 3): the 54 cards, their effects and their tests.

Exactly 54 catalog ids; each has exactly one registered effect, written in the module of
its timing window (checked in the registry and, independently, in the source of every
``effects/`` module); each card is named by at least one test function
``test_<card>_…`` of ``tests/games/mottainai/`` (ids with ``-`` spelled ``_``:
``test_deck_of_cards_…``, ``test_go_set_…``); nothing is left unimplemented, and the
engine's notes no longer say so.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from arbiter.games.mottainai import MottainaiEngine
from arbiter.games.mottainai.cards import CARDS, WINDOWS
from arbiter.games.mottainai.effects import REGISTRY, implemented, missing

EFFECTS_DIR = Path(__file__).resolve().parents[3] / "arbiter" / "games" / "mottainai" / "effects"
TESTS_DIR = Path(__file__).resolve().parent
WINDOW_MODULE = "arbiter.games.mottainai.effects."
DECORATOR = re.compile(r"""^@effect\(\s*["']([^"']+)["']""", re.MULTILINE)


def spelled(card_id: str) -> str:
    """Return the test-name spelling of a card id (``deck-of-cards`` → ``deck_of_cards``)."""
    return re.sub(r"[\s\-_]+", "_", card_id.lower())


def card_test_names() -> set[str]:
    """Return every test function name in the card test modules (classes included)."""
    names: set[str] = set()
    for path in sorted(TESTS_DIR.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if is_function and node.name.startswith("test_"):
                names.add(node.name)
    return names


def test_the_catalog_has_exactly_54_distinct_ids():
    assert len(CARDS) == 54
    assert len(set(CARDS)) == 54
    assert all(c.id == cid for cid, c in CARDS.items())
    assert len({spelled(c) for c in CARDS}) == 54  # test names never collide
    assert {c.window for c in CARDS.values()} == set(WINDOWS)


def test_every_card_has_exactly_one_registered_effect():
    assert sorted(REGISTRY) == sorted(CARDS)
    assert implemented() == list(CARDS)
    assert missing() == []


@pytest.mark.parametrize("card_id", list(CARDS))
def test_each_effect_lives_in_the_module_of_its_window(card_id):
    eff = REGISTRY[card_id]
    window = CARDS[card_id].window
    assert eff.card == card_id
    assert eff.window == window
    assert eff.resolve.__module__ == WINDOW_MODULE + window
    if eff.offers is not None:
        assert eff.offers.__module__ == WINDOW_MODULE + window


def test_the_effects_source_registers_each_id_once_in_its_window_module():
    """Read the ``@effect("…")`` decorators in the source: one per id, in the right file."""
    where: dict[str, list[str]] = {}
    for path in sorted(EFFECTS_DIR.glob("*.py")):
        for card_id in DECORATOR.findall(path.read_text(encoding="utf-8")):
            where.setdefault(card_id, []).append(path.stem)
    counts = Counter({c: len(files) for c, files in where.items()})
    assert sorted(where) == sorted(CARDS), sorted(set(where) ^ set(CARDS))
    assert [c for c, n in counts.items() if n != 1] == []
    wrong = {c: files[0] for c, files in where.items() if files != [CARDS[c].window]}
    assert wrong == {}


def test_every_card_is_named_in_at_least_one_test():
    names = card_test_names()
    unnamed = [c for c in CARDS if not any(n.startswith(f"test_{spelled(c)}_") for n in names)]
    assert unnamed == [], f"cards with no test_<card>_… function: {unnamed}"


def test_the_engine_notes_no_longer_mention_unimplemented_effects():
    notes = " ".join(MottainaiEngine.info.notes).lower()
    assert "not implemented" not in notes
    assert "without their effect" not in notes
    assert "plain works" not in notes
