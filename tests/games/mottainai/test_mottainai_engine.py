"""The Mottainai engine as a protocol citizen: registry, schema, views, resample, speed-free."""

from __future__ import annotations

import subprocess
import sys

import jsonschema
import pytest

from arbiter.core import registry
from arbiter.core.rng import Rng
from arbiter.games.mottainai import MottainaiEngine
from arbiter.games.mottainai.cards import CARDS, TASKS, VALUE

ENGINE = MottainaiEngine()
EXAMPLES = [
    {"kind": "return", "card": "kite"},
    {"kind": "done"},
    {"kind": "task", "card": "kite#2"},
    {"kind": "no_task"},
    {"kind": "clerk", "card": "deck-of-cards"},
    {"kind": "monk", "card": "go-set"},
    {"kind": "potter", "card": "jar"},
    {"kind": "tailor"},
    {"kind": "smith", "work": "jar", "support": ["teapot", "vase"], "wing": "gallery"},
    {"kind": "craft", "work": "bell", "wing": "gift_shop"},
    {"kind": "prayer"},
    {"kind": "use", "card": "bowl"},
    {"kind": "use", "card": "kite", "cards": ["jar"], "target": "bob"},
]
BAD = [
    {},
    {"kind": "smith", "work": "jar", "support": "vase", "wing": "gallery"},
    {"kind": "craft", "work": "bell", "wing": "attic"},
    {"kind": "prayer", "extra": 1},
    {"kind": "return", "card": "Kite"},
    {"kind": "monk"},
]


def test_registered_first_so_the_demo_plays_it():
    assert registry.names()[0] == "mottainai" and registry.demo_default() == "mottainai"


def test_catalog_has_54_cards_with_material_value_and_task():
    assert len(CARDS) == 54
    for c in CARDS.values():
        assert c.value == VALUE[c.material] and c.task == TASKS[c.material]
    assert CARDS["daidoro"].name == "Daidoro" and CARDS["pinwheel"].moment == "night"


@pytest.mark.parametrize("action", EXAMPLES)
def test_schema_accepts_every_decision_shape(action):
    jsonschema.Draft202012Validator(ENGINE.action_schema()).validate(action)


@pytest.mark.parametrize("action", BAD)
def test_schema_rejects_malformed_decisions(action):
    assert list(jsonschema.Draft202012Validator(ENGINE.action_schema()).iter_errors(action))


def test_importing_the_engine_builds_no_pydantic_model():
    code = "import sys, arbiter.games.mottainai; print('pydantic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_views_redact_hands_waiting_areas_and_the_deck(mot):
    """M-R16, M-R18: hands private (counts public), waiting areas count-only for all."""
    state = mot.build(hand={"alice": ["kite", "bell"], "bob": ["jar"]}, waiting={"bob": ["vase"]})
    alice = ENGINE.view(state, "alice")
    assert alice["players"]["alice"]["hand"] == ["kite", "bell"]
    assert "hand" not in alice["players"]["bob"] and alice["players"]["bob"]["hand_count"] == 1
    for viewer in ("alice", "bob", None):
        bob = ENGINE.view(state, viewer)["players"]["bob"]
        assert "waiting" not in bob and bob["waiting_count"] == 1
        assert set(ENGINE.view(state, viewer)["deck"]) <= {"count", "returned_by_you"}
    assert "returned_by_you" not in ENGINE.view(state, None)["deck"]


def test_resample_keeps_own_returned_cards_in_place_and_redraws_the_rest(mot):
    """M-R18: the returner's knowledge survives resampling; hidden zones are redrawn."""
    hand = ["kite", "bell", "vase", "jar", "frog", "crane", "mask"]
    state = mot.build(hand={"alice": hand, "bob": ["tower", "statue"]}, waiting={"bob": ["robe"]})
    mot.run(state, "alice", mot.ret("crane"), mot.ret("mask"))
    changed = 0
    for i in range(10):
        other = ENGINE.resample(state, "alice", Rng(bytes([i]) * 32))
        ENGINE.invariants(other)
        assert (
            other.deck[-2:] == ["crane", "mask"]
            and other.players["alice"].hand == state.players["alice"].hand
        )
        assert ENGINE.view(other, "alice") == ENGINE.view(state, "alice")
        changed += other.players["bob"].hand != state.players["bob"].hand
    assert changed
    bob_world = ENGINE.resample(state, "bob", Rng(b"\x07" * 32))
    assert ENGINE.view(bob_world, "bob") == ENGINE.view(state, "bob")


def test_labels_read_like_the_cards(mot):
    assert ENGINE.label({"kind": "monk", "card": "jar"}) == "monk Jar [POTTER]"
    smith = {"kind": "smith", "work": "jar", "support": ["teapot", "vase"], "wing": "gallery"}
    assert ENGINE.label(smith) == "smith Jar (CLAY 3) with Teapot, Vase -> gallery"
