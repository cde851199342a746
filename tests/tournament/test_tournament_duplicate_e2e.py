"""Issue 28 item 3: a 12-player, 3-round duplicate Momiji tournament at tables of 3, its
organiser steps through the command line, its games played by seeded random bots: every
table of a round gets the same deal, each game verifies on its own, and the matchpoints
recomputed here by hand are the standings' (slow suite)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from cli.clikit import arbiter

from arbiter.core.player import load_state
from tournament.duplicate_kit import join_all, play
from tournament.kit import players_file

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea"]


def ok(result):  # type: ignore[no-untyped-def]
    assert result.returncode == 0, (result.stdout, result.stderr)
    return result


def _hands_by_position(game: Path) -> list[list[str]]:
    state = load_state(game / "public" / "state.json")
    hands = []
    for seat in state["seats"]:
        view = load_state(game / "players" / seat / "state.json")["view"]
        hands.append(sorted(view["players"][seat]["hand"]))
    return hands


@pytest.mark.slow
def test_twelve_player_duplicate_momiji(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    players, keys = players_file(tmp_path, NAMES)
    root = tmp_path / "autumn"
    monkeypatch.setenv("ARBITER_NOW", "2026-10-01T09:00:00Z")
    ok(arbiter("tournament", "new", root, "--game", "momiji", "--players", players,
               "--format", "swiss", "--rounds", "3", "--table-size", "3", "--duplicate"))  # fmt: skip
    outcomes: dict[str, dict] = {}
    tables_of: dict[int, list[dict]] = {}
    for number in (1, 2, 3):
        paired = json.loads(ok(arbiter("tournament", "round", root, "--json")).stdout)
        tables = paired["tables"]
        tables_of[number] = tables
        assert [len(t["seats"]) for t in tables] == [3, 3, 3, 3] and not paired["byes"]
        (group,) = paired["deals"]
        assert group["games"] == [t["game"] for t in tables]
        games = [Path(t["folder"]) for t in tables]
        # Three tables join; the deal waits for the fourth.
        for game in games[:3]:
            join_all(game, keys)
        waiting = json.loads(ok(arbiter("tournament", "deal", root, "--json")).stdout)
        assert waiting == {"dealt": [], "waiting": {f"autumn-r{number}": [tables[3]["game"]]}}
        assert load_state(games[0] / "public/state.json")["status"] == "joining"
        join_all(games[3], keys)
        dealt = json.loads(ok(arbiter("tournament", "deal", root, "--json")).stdout)
        assert dealt["dealt"] == group["games"]
        # The same deal at every table: each seat position holds the same hand.
        hands = [_hands_by_position(game) for game in games]
        assert all(h == hands[0] for h in hands[1:])
        assert len({tuple(h) for h in hands[0]}) == 3  # and the positions differ
        for k, (table, game) in enumerate(zip(tables, games, strict=True)):
            outcomes[table["game"]] = play(game, keys, table["game"])
            if k == 0:
                # A table that is over is not revealed while the group plays on.
                said = json.loads(ok(arbiter("tournament", "reveal", root, "--json")).stdout)
                assert said["revealed"] == [] and tables[0]["game"] in said["waiting"]
                refused = arbiter("reveal", game)
                assert refused.returncode != 0 and "duplicate group" in refused.stderr
                assert "every table of its round is over" in refused.stderr
        said = json.loads(ok(arbiter("tournament", "reveal", root, "--json")).stdout)
        assert said["revealed"] == group["games"]
        for game in games:
            reveal = json.loads((game / "reveal/reveal.json").read_text())
            assert "deal_secret" in reveal
    ok(arbiter("tournament", "finish", root))
    ok(arbiter("tournament", "report", root))

    # Matchpoints by hand: at each seat position, 2 per other table scoring less, 1 per tie.
    expected = Counter({name: 0 for name in NAMES})
    for tables in tables_of.values():
        for position in range(3):
            scores = [
                outcomes[t["game"]]["scores"][t["seats"][position]] for t in tables
            ]
            for t, mine in zip(tables, scores, strict=True):
                expected[t["seats"][position]] += sum(
                    2 if mine > other else 1 if mine == other else 0 for other in scores
                ) - 1  # the table itself counted as a tie
    assert sum(expected.values()) == 3 * 3 * 12  # 12 points per position per round

    published = tmp_path / "published"
    shutil.copytree(root, published, ignore=shutil.ignore_patterns("referee", "organiser"))
    checked = ok(arbiter("tournament", "verify", published))
    assert "12 passed, 0 failed" in checked.stdout
    assert "duplicate: 3 group(s)" in checked.stdout
    rows = json.loads(ok(arbiter("tournament", "standings", published, "--json")).stdout)
    assert {row["name"]: row["points"] for row in rows["standings"]} == dict(expected)
    assert all(row["games"] == 3 for row in rows["standings"])
    one = Path(tables_of[2][1]["folder"].replace(str(root), str(published)))
    single = ok(arbiter("verify", one))
    assert "group secret: matches the commitment" in single.stdout
