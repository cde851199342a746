"""The Momiji engine as a protocol citizen: schema, shapes, redaction, resampling, playouts."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import jsonschema
import pytest

from arbiter.bots.random_bot import iter_playout
from arbiter.core.errors import IllegalAction
from arbiter.core.rng import Rng
from arbiter.games.momiji import MomijiEngine, moves

ENGINE = MomijiEngine()


def test_action_schema_is_a_hand_written_tagged_union():
    schema = ENGINE.action_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for good in (
        {"kind": "collect", "type": "maple"},
        {"kind": "reveal"},
        {"kind": "play", "cards": ["maple-0", "ginkgo-0L"]},
        {"kind": "activate", "objective": "wide-view"},
        {"kind": "discard", "cards": ["maple-0", "oak-1"]},
        {"kind": "power", "landscape": "koi-pond", "give": "oak-3", "take": "maple-0"},
        {"kind": "end"},
        {"kind": "hand-limit", "card": "oak-1"},
    ):
        validator.validate(good)
        moves.parse(good)
    for bad in (
        {"kind": "play", "cards": []},
        {"kind": "discard", "cards": ["maple-0"]},
        {"kind": "end", "x": 1},
        {"kind": "collect", "type": ["maple"]},
        {"kind": "pass"},
        {"kind": "play", "cards": "maple-0"},
        {"kind": "hand-limit", "card": 3},
    ):
        assert not validator.is_valid(bad)
        with pytest.raises(IllegalAction) as caught:
            moves.parse(bad)
        assert caught.value.rule == "schema" and "\n" not in caught.value.message


def test_no_pydantic_or_jsonschema_at_import():
    code = (
        "import sys, arbiter.games.momiji as m; e = m.MomijiEngine(); e.parse_options({}); "
        "print(any(k.startswith(('pydantic', 'jsonschema')) for k in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_views_hide_hands_deck_and_pile_sizes(mj):
    piles = {"alice": [["maple-0", "maple-1", "maple-1L"]]}
    state = mj.build(hands={"alice": ["oak-1"], "bob": ["oak-2", "oak-3"]}, piles=piles)
    for viewer in ("bob", None):
        alice = ENGINE.view(state, viewer)["players"]["alice"]
        assert alice["hand"] is None and alice["hand_size"] == 1
        assert alice["piles"] == [{"type": "maple", "top": "maple-1L", "closed": False}]
    own = ENGINE.view(state, "alice")
    assert own["players"]["alice"]["hand"] == ["oak-1"] and own["players"]["bob"]["hand"] is None
    assert isinstance(own["deck"], int)
    text = repr(own)
    assert "oak-2" not in text and "'maple-0'" not in text


def test_resample_redraws_buried_cards_hands_and_deck_but_keeps_what_is_seen(mj):
    """A buried card never seen on top may change; tops, known cards and sizes stay."""
    state = mj.build(
        hands={"alice": ["maple-0L", "maple-1", "maple-1R"], "bob": ["oak-1", "oak-2", "cherry-0"]},
        known={"bob": ["oak-2"]},
        piles={"bob": [["ginkgo-0"]]},
        garden=["cherry-1"],
    )
    mj.play_(state, "alice", mj.play("maple-0L", "maple-1"))
    buried = set()
    hands = set()
    for i in range(60):
        other = ENGINE.resample(state, "bob", Rng(bytes([i])))
        ENGINE.invariants(other)
        assert ENGINE.view(other, "bob") == ENGINE.view(state, "bob")
        pile = other.players["alice"].piles[0]
        assert pile.cards[-1] == "maple-1" and len(pile.cards) == 2
        buried.add(pile.cards[0])
        hands.add(tuple(other.players["alice"].hand))
        assert "oak-2" in ENGINE.resample(state, "alice", Rng(bytes([i]))).players["bob"].hand
    assert buried == {"maple-0", "maple-0L", "maple-0R"} and len(hands) > 5


def test_resample_may_change_a_buried_value_when_the_pile_rule_allows(mj):
    """On a 0, two cards ending with a 1 may have buried a 0 or a 1."""
    state = mj.build(hands={"alice": ["maple-0L", "maple-1"]}, piles={"alice": [["maple-0"]]})
    mj.play_(state, "alice", mj.play("maple-0L", "maple-1"))
    values = {
        ENGINE.resample(state, "alice", Rng(bytes([i]))).players["alice"].piles[0].cards[1][6]
        for i in range(60)
    }
    assert values == {"0", "1"}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_playouts_end_with_a_score_table(seats):
    names = ["alice", "bob", "carol", "dave"][:seats]
    options = ENGINE.parse_options({"landscapes": "random"})
    for k in range(5):
        seed = hashlib.sha256(f"momiji-{seats}-{k}".encode()).digest()
        last = None
        for step in iter_playout(ENGINE, options, names, seed, max_steps=3000):
            ENGINE.invariants(step.state)
            for event in step.events:
                for viewer in [*names, None]:
                    line = ENGINE.describe(event, viewer)
                    assert line is None or ("\n" not in line and "None" not in line)
            last = step
        assert last is not None and ENGINE.prompt(last.state) is None
        result = last.state.result
        assert [e.kind for e in last.events if e.kind == "score"] == ["score"] * seats
        assert sorted(result["scores"]) == sorted(names)
        assert ENGINE.render(ENGINE.view(last.state, "alice"), "alice")[-1].startswith("Score")


def test_labels_are_readable():
    assert ENGINE.label({"kind": "play", "cards": ["maple-0R", "oak-1"]}) == (
        "play maple 0 (acorn right), oak 1"
    )
    assert ENGINE.label({"kind": "end"}) == "end the turn"
    assert "landscape koi-pond" in ENGINE.label(
        {"kind": "power", "landscape": "koi-pond", "give": "oak-3", "take": "maple-0"}
    )
