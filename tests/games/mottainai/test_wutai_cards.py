"""WUT-13: the Wutai card list as data — the shipped list, a group's own list, refusals."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from arbiter.core.errors import SchemaViolation, UsageError
from arbiter.games.mottainai import wutai
from arbiter.games.mottainai.cards import card
from arbiter.games.mottainai.om_effects import OM_EFFECTS


def test_WUT_13_1_the_shipped_list(mot):
    """WUT-13.1 (M-R113, M-R114, M-R118): 54 cards, URN, WICK, BANDANA and the reported
    Paper card, 50 vanilla placeholders om-01..om-50; materials 11/11/11/11/10."""
    table = wutai.builtin_table()
    assert wutai.problem(table) is None
    rows = table["cards"]
    assert len(rows) == 54
    assert Counter(r["material"] for r in rows) == Counter(
        PAPER=11, STONE=11, CLOTH=11, CLAY=11, METAL=10
    )
    placeholders = [r for r in rows if r["provenance"] == "placeholder"]
    assert [r["id"] for r in placeholders] == [f"om-{i:02d}" for i in range(1, 51)]
    assert all(r["effect"] is None for r in placeholders)
    effects = {r["id"]: r["effect"] for r in rows if r["effect"]}
    assert effects == {"urn": "urn", "wick": "wick", "paper-booster": "om-smith-booster"}
    assert set(OM_EFFECTS) >= set(effects.values())
    assert card("bandana").window == "none" and card("urn").moment == "morning"
    assert "provisional" in mot.engine.info.notes[-1].lower()


def _list(rows):
    return {"format": wutai.FORMAT, "cards": rows}


def _row(cid, material="STONE", effect=None):
    return {
        "id": cid,
        "name": cid.title(),
        "material": material,
        "effect": effect,
        "provenance": "printed",
        "note": "",
    }


def test_WUT_13_2_a_groups_own_list_is_embedded(mot, tmp_path):
    """WUT-13.2 (M-R118): wutai_cards=FILE embeds the list; a game with it deals its cards,
    and the builtin list is back for the next game."""
    rows = [_row(f"stone-om-{c}") for c in "abcdef"] + [_row("urn", "METAL", "urn")]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(_list(rows)))
    options = mot.options(wutai="yes", wutai_cards=str(path))
    assert options["wutai_cards"]["cards"] == rows
    mot.engine.check_options(options)
    state, events = mot.engine.setup(options, ["alice", "bob"], mot.rng())
    assert card("urn").material == "METAL"  # this list's URN
    assert len(state.wutai["deck"]) == 5 and events[0].data["wutai"]["placeholders"] == 0
    view = mot.engine.view(state, None)
    assert view["wutai"]["cards"]["rows"][0]["id"] == "stone-om-a"
    base, _ = mot.new_game(wutai="yes")
    assert card("urn").material == "CLAY"  # the shipped list again
    mot.engine.view(state, "alice")  # the other game's list comes back when it is used
    assert card("urn").material == "METAL"
    mot.engine.view(base, "alice")


@pytest.mark.parametrize(
    "rows,message",
    [
        (
            [_row("a", effect="no-such-effect")] + [_row(f"b{i}") for i in range(6)],
            "does not implement",
        ),
        ([_row("kite")] + [_row(f"b{i}") for i in range(6)], "base card's id"),
        ([_row("b1")] + [_row(f"b{i}") for i in range(6)], "listed twice"),
        ([_row("Bad Id")] + [_row(f"b{i}") for i in range(6)], "does not match"),
    ],
)
def test_WUT_13_3_bad_lists_are_refused_at_new(mot, tmp_path, rows, message):
    """WUT-13.3 (M-R118): a list that breaks the schema, repeats an id, takes a base card's
    id or names an unknown effect is refused when the game is made."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_list(rows)))
    with pytest.raises(UsageError, match=message):
        mot.options(wutai="yes", wutai_cards=str(path))
    with pytest.raises(SchemaViolation):
        mot.engine.check_options(
            {
                "extended": False,
                "teams": False,
                "wutai": True,
                "wutai_cards": _list(rows),
                "wutai_draws": "prayer",
                "om_works_end": True,
                "om_leave": "return",
            }
        )
