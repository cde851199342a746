"""The printed data as a file: the shipped rows, the schema, a group's own file, options."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arbiter.core import registry
from arbiter.core.errors import SchemaViolation, UsageError
from arbiter.core.rng import Rng
from arbiter.games.momiji import MomijiEngine, data
from arbiter.games.momiji.objectives import MEASURES
from arbiter.games.momiji.powers import POWERS

ENGINE = MomijiEngine()


def shipped():
    return json.loads(json.dumps(data.builtin_data()))


def test_registered_as_builtin():
    assert registry.get("momiji").info.name == "momiji"
    assert (ENGINE.info.min_seats, ENGINE.info.max_seats) == (2, 4)


def test_shipped_data_is_valid_and_every_row_says_its_source():
    table = shipped()
    assert data.problem(table) is None
    for section in ("types", "acorns", "landscapes", "panoramas", "objectives"):
        assert all(row["source"] in ("confirmed", "provisional") for row in table[section])
    confirmed = [r["id"] for r in table["objectives"] if r["source"] == "confirmed"]
    assert confirmed[0] == "fresh-buds" and "wide-view" in confirmed and len(confirmed) == 8
    assert table["starting_acorns"] == {
        "count": 2,
        "source": "provisional",
        "note": table["starting_acorns"]["note"],
    }
    assert data.provisional_summary(table)[0] == "types 6/6"


def test_info_notes_say_what_is_provisional():
    notes = " ".join(ENGINE.info.notes)
    for words in ("acorn corners", "landscapes", "objectives", "starting acorns", "data=FILE"):
        assert words in notes


RULINGS = Path(__file__).resolve().parents[3] / "docs" / "rulings" / "momiji.md"


def test_MOM_1_4_documented_data_counts_match_the_shipped_file():
    """MOM-1.4 (rulings: "The data: confirmed and provisional rows"): the row counts of that
    table, its objective split, and the engine notes shown by ``arbiter games`` agree with
    ``data.json``, so neither can drift from the data."""
    table = shipped()
    doc = RULINGS.read_text(encoding="utf-8")
    for section in ("types", "acorns", "landscapes", "panoramas", "objectives"):
        row = re.search(rf"^\| `{section}` \| (\d+) \|", doc, re.M)
        assert row is not None, f"no row for {section}"
        assert int(row.group(1)) == len(table[section]), section
    objectives = table["objectives"]
    provisional = sum(1 for o in objectives if o["source"] == "provisional")
    confirmed = len(objectives) - provisional
    split = re.search(r"^\| `objectives` \| \d+ \| (\d+): .*\| (\d+): [^|]*\|$", doc, re.M)
    assert split is not None
    assert (int(split.group(1)), int(split.group(2))) == (confirmed, provisional)
    notes = " ".join(ENGINE.info.notes)
    assert f"{provisional} of the {len(objectives)} objectives" in notes
    assert f"the {len(table['landscapes'])} landscapes" in notes


def test_schema_enums_match_the_behaviour_registries():
    schema = data._package_json("data.schema.json")
    items = schema["properties"]
    assert sorted(items["landscapes"]["items"]["properties"]["power"]["enum"]) == sorted(POWERS)
    assert sorted(items["objectives"]["items"]["properties"]["measure"]["enum"]) == sorted(MEASURES)


def test_deck_composition_from_the_acorn_rows():
    cat = data.catalog(data.BUILTIN)
    maple = cat.decks["maple"]
    assert len(maple) == 14
    assert maple.count("maple-0R") == 2 and maple.count("maple-0L") == 2
    assert maple.count("maple-0") == 1 and maple.count("maple-3") == 2


def test_default_options_embed_a_marker():
    options = ENGINE.parse_options({})
    assert options == {"data": "builtin", "landscapes": "fixed"}
    ENGINE.check_options(options)


def test_a_groups_file_is_embedded_and_used(tmp_path):
    table = shipped()
    table["starting_acorns"]["count"] = 5
    table["types"][0]["id"] = "momiji"
    for row in table["acorns"] + table["objectives"]:
        if row.get("type") == "maple":
            row["type"] = "momiji"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(table))
    options = ENGINE.parse_options({"data": str(path), "landscapes": "random"})
    assert options["data"]["starting_acorns"]["count"] == 5
    ENGINE.check_options(options)
    path.unlink()  # replay needs no file
    state, _ = ENGINE.setup(options, ["a", "b"], Rng(b"k"))
    assert state.players["a"].acorns == 5 and state.types[0] == "momiji"
    assert ENGINE.view(state, None)["types"][0] == "momiji"


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda t: t.pop("objectives"), "'objectives' is a required property"),
        (lambda t: t["starting_acorns"].update(count="2"), "is not of type 'integer'"),
        (lambda t: t["types"].pop(), "types"),
        (lambda t: t["acorns"][0].update(count=5), "more acorn cards than the 5 copies"),
        (lambda t: t["landscapes"][0].update(power="fly"), "is not one of"),
        (lambda t: t["landscapes"][1].update(set="B"), "set A needs at least 4"),
        (
            lambda t: t["panoramas"][0].update(
                landscapes=["stone-lantern", "koi-pond", "moon-gate"]
            ),
            "panorama 1",
        ),
        (lambda t: t["objectives"][1].pop("type"), "'type' goes with measure most-of-type"),
        (lambda t: t["objectives"][0].update(source="maybe"), "is not one of"),
        (lambda t: t["types"][1].update(id="maple"), "unique"),
    ],
)
def test_a_bad_file_is_a_one_line_usage_error(tmp_path, mutate, words):
    table = shipped()
    mutate(table)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(table))
    with pytest.raises(UsageError) as caught:
        ENGINE.parse_options({"data": str(path)})
    assert words in caught.value.message and "\n" not in caught.value.message


def test_unreadable_or_malformed_file_and_bad_options(tmp_path):
    with pytest.raises(UsageError, match="cannot read Momiji data"):
        ENGINE.parse_options({"data": str(tmp_path / "missing.json")})
    path = tmp_path / "broken.json"
    path.write_text('{"format": 1.5}')
    with pytest.raises(UsageError, match="not an integer"):
        ENGINE.parse_options({"data": str(path)})
    with pytest.raises(UsageError, match="choose fixed or random"):
        ENGINE.parse_options({"landscapes": "draft"})
    with pytest.raises(UsageError, match="unknown option"):
        ENGINE.parse_options({"deck": "x"})
    with pytest.raises(SchemaViolation):
        ENGINE.check_options({"data": {"format": "nope"}, "landscapes": "fixed"})
    with pytest.raises(SchemaViolation):
        ENGINE.check_options({"data": "builtin"})


def test_seat_count_is_checked():
    with pytest.raises(UsageError, match="2 to 4 players"):
        ENGINE.setup(ENGINE.parse_options({}), ["a"], Rng(b"k"))
