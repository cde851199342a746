"""The Mot Coin engine as a protocol citizen: options, card table, schema, views, playouts."""

from __future__ import annotations

import hashlib
import itertools
import json

import jsonschema
import pytest

from arbiter.bots.random_bot import iter_playout
from arbiter.core import registry
from arbiter.core.canonical import canonical
from arbiter.core.errors import IllegalAction, SchemaViolation, UsageError
from arbiter.core.rng import Rng
from arbiter.games.motcoin import MotCoinEngine, cards, moves

ENGINE = MotCoinEngine()


def no_floats(value):
    assert not isinstance(value, float), "float found"
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str)
            no_floats(v)
    elif isinstance(value, list):
        for v in value:
            no_floats(v)


def test_registered_as_builtin():
    assert registry.get("motcoin").info.name == "motcoin"


def test_info_says_the_table_is_provisional():
    notes = " ".join(ENGINE.info.notes)
    assert "provisional except cards 1-5, 15, 19 and 24" in notes
    assert (ENGINE.info.min_seats, ENGINE.info.max_seats) == (3, 5)


def test_shipped_table_marks_rule_rows():
    table = cards.builtin_table()
    assert cards.problem(table) is None
    rules = [row["number"] for row in table["cards"] if row["source"] == "rules"]
    assert rules == [1, 2, 3, 4, 5, 15, 19, 24]
    forks = [row["number"] for row in table["cards"] if row["type"] == "hardfork"]
    assert forks[0] == 1 and forks[-1] == 24 and len(forks) == 4
    assert sum(1 for row in table["cards"] if row["fluctuation"] == "remove") >= 2
    by_number = {row["number"]: row for row in table["cards"]}
    assert (by_number[15]["price"], by_number[15]["crash"]) == (23, -4)
    assert (by_number[19]["price"], by_number[19]["crash"]) == (26, -6)


def test_default_options_embed_a_marker():
    options = ENGINE.parse_options({})
    assert options == {"cards": "builtin"}
    ENGINE.check_options(options)


def test_cards_file_is_embedded_and_used(tmp_path):
    table = json.loads(json.dumps(cards.builtin_table()))
    table["cards"][6]["price"] = 99  # No.7
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(table))
    options = ENGINE.parse_options({"cards": str(path)})
    assert options["cards"]["cards"][6]["price"] == 99
    ENGINE.check_options(options)
    path.unlink()  # replay needs no file
    state, _ = ENGINE.setup(options, ["a", "b", "c"], Rng(b"k"))
    assert ENGINE.view(state, None)["cards"]["7"]["price"] == 99


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda t: t.pop("stable_coin"), "'stable_coin' is a required property"),
        (
            lambda t: t["cards"][3].update(price="13"),
            "'13' is not of type 'integer' (at cards/3/price)",
        ),
        (lambda t: t["cards"][1].update(number=1), "each once"),
        (lambda t: t["cards"][0].update(type="motcoin", price=10), "exactly 4 HardFork"),
        (lambda t: t["cards"][5].update(auction="double"), "spare Stable Coins"),
    ],
)
def test_bad_cards_file_is_a_usage_error(tmp_path, mutate, words):
    table = json.loads(json.dumps(cards.builtin_table()))
    mutate(table)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(table))
    with pytest.raises(UsageError) as caught:
        ENGINE.parse_options({"cards": str(path)})
    assert words in caught.value.message and "\n" not in caught.value.message


def test_unreadable_or_malformed_cards_file(tmp_path):
    with pytest.raises(UsageError, match="cannot read card table"):
        ENGINE.parse_options({"cards": str(tmp_path / "missing.json")})
    path = tmp_path / "broken.json"
    path.write_text('{"format": 1.5}')
    with pytest.raises(UsageError, match="not an integer"):
        ENGINE.parse_options({"cards": str(path)})
    with pytest.raises(UsageError, match="unknown option"):
        ENGINE.parse_options({"deck": "x"})
    with pytest.raises(SchemaViolation):
        ENGINE.check_options({"cards": {"format": "nope"}})


def test_action_schema_is_a_tagged_union():
    schema = ENGINE.action_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for good in (
        {"kind": "bid", "dice": [6, 6, 3]},
        {"kind": "pass"},
        {"kind": "remove", "card": "S2"},
    ):
        validator.validate(good)
    for bad in (
        {"kind": "bid", "dice": []},
        {"kind": "bid", "dice": [7]},
        {"kind": "pass", "x": 1},
        {"kind": "fold"},
    ):
        assert not validator.is_valid(bad)
        with pytest.raises(IllegalAction):
            moves.parse(bad)


def test_malformed_decisions_are_rejected_on_one_line():
    state, _ = ENGINE.setup(ENGINE.parse_options({}), ["a", "b", "c"], Rng(b"k"))
    for bad in ({"kind": "bid", "dice": ["6"]}, {"kind": "bid", "dice": [True]}, {"dice": [6]}):
        with pytest.raises(IllegalAction) as caught:
            ENGINE.check(state, "a", bad)
        assert caught.value.rule == "schema" and "\n" not in caught.value.message
    with pytest.raises(IllegalAction, match="it is a's turn"):
        ENGINE.check(state, "b", {"kind": "pass"})


def brute_weakest(high, size):
    bids = [list(c) for c in itertools.combinations_with_replacement(range(6, 0, -1), size)]
    above = [b for b in bids if moves.stronger(b, high)]
    return min(above, key=moves.strength) if above else None


def test_weakest_above_matches_brute_force():
    for size in range(6):
        for high in itertools.combinations_with_replacement(range(6, 0, -1), size):
            for k in range(1, 6):
                assert moves.weakest_above(list(high), k) == brute_weakest(list(high), k), (high, k)
    for available in range(9):
        for high in ([], [6], [6, 6, 1], [1, 1, 1]):
            assert moves.can_beat(available, high) == bool(moves.minimal_bids(available, high))


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_random_playouts_end_cleanly(seats):
    names = [f"p{i}" for i in range(seats)]
    options = ENGINE.parse_options({})
    for k in range(6):
        seed = hashlib.sha256(f"motcoin-{seats}-{k}".encode()).digest()
        previous = None
        for step in iter_playout(ENGINE, options, names, seed, max_steps=2000):
            state = step.state
            ENGINE.invariants(state)
            for event in step.events:
                no_floats(event.data)
                assert ENGINE.describe(event, None)
            if step.n % 25 == 0:
                data = ENGINE.encode(state)
                no_floats(data)
                assert ENGINE.encode(ENGINE.decode(json.loads(json.dumps(data)))) == data
                view = ENGINE.view(state, "p1")
                no_floats(view)
                canonical(view)
                assert ENGINE.render(view, "p1")
                resampled = ENGINE.resample(state, "p1", Rng(seed))
                assert ENGINE.view(resampled, "p1") == view
            previous = step
        assert previous is not None and ENGINE.prompt(previous.state) is None
        outcome = ENGINE.outcome(previous.state)
        assert outcome is not None and sorted(outcome.scores) == names
        assert previous.state.ender is not None and previous.state.round == 2


def test_replay_is_deterministic():
    options = ENGINE.parse_options({})
    seed = hashlib.sha256(b"replay").digest()
    runs = [
        [
            ENGINE.encode(step.state)
            for step in iter_playout(ENGINE, options, ["a", "b", "c", "d"], seed)
        ]
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_labels():
    assert ENGINE.label({"kind": "bid", "dice": [3, 6, 6]}) == "bid [6 6 3]"
    assert ENGINE.label({"kind": "pass"}) == "pass"
    assert (
        ENGINE.label({"kind": "remove", "card": "S2"})
        == "take back the lowest die from Stable Coin S2"
    )


# -- decisions parsed once per distinct value (moves._PARSED) ----------------------------


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "pass"},
        {"kind": "bid", "dice": [6, 3]},
        {"kind": "bid", "dice": [3, 6]},
        {"kind": "remove", "card": "12"},
    ],
)
def test_a_decision_parsed_again_is_the_same_model(action):
    first = moves.parse(action)
    assert moves.parse(dict(action)) == first == moves._validate(action)
    if action["kind"] == "bid":
        assert moves.parse(action).dice == action["dice"]  # the order shown is kept


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "bid", "dice": [True]},  # a bool is no die, even once [1] was parsed
        {"kind": "bid", "dice": [1], "extra": 1},
        {"kind": "pass", "dice": [1]},
        {"kind": "remove", "card": 12},
        {"kind": "bid", "dice": [7]},
    ],
)
def test_a_cached_decision_never_vouches_for_a_malformed_one(action):
    moves.parse({"kind": "bid", "dice": [1]})
    moves.parse({"kind": "remove", "card": "12"})
    with pytest.raises(IllegalAction) as caught:
        moves.parse(action)
    with pytest.raises(IllegalAction) as again:
        moves._validate(action)
    assert caught.value.message == again.value.message
