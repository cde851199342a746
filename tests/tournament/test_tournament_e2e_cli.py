"""Issue 28 item 9: a 9-player Swiss with deadlines, a drop and a late entry, run through
the command line as an organiser would, its games played by seeded random bots and one
lost on time, then verified end to end — record, pairings, games, standings (slow suite)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli.clikit import arbiter
from helpers.tables import make_keys

from arbiter.tournament import folder, record
from tournament.kit import play_out, players_file

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"]
DAY = ["2026-03-01", "2026-03-05", "2026-03-12"]


def ok(result):  # type: ignore[no-untyped-def]
    assert result.returncode == 0, (result.stdout, result.stderr)
    return result


@pytest.mark.slow
def test_nine_player_swiss_with_deadlines_a_drop_and_a_late_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    players, keys = players_file(tmp_path, NAMES)
    keys.update(make_keys(tmp_path / "late", ["jo"]))
    root = tmp_path / "spring"
    monkeypatch.setenv("ARBITER_NOW", f"{DAY[0]}T09:00:00Z")
    ok(arbiter("tournament", "new", root, "--game", "mottainai", "--players", players,
               "--format", "swiss", "--rounds", "3", "--table-size", "3", "--deadline", "72h",
               "--grace", "24h", "--on-timeout", "forfeit",
               "--tiebreaks", "opponents-points,head-to-head,lot"))  # fmt: skip
    lost_on_time = None
    for number in (1, 2, 3):
        monkeypatch.setenv("ARBITER_NOW", f"{DAY[number - 1]}T10:00:00Z")
        paired = json.loads(ok(arbiter("tournament", "round", root, "--json")).stdout)
        assert paired["round"] == number and [len(t["seats"]) for t in paired["tables"]] == [3] * 3
        seated = {s for t in paired["tables"] for s in t["seats"]}
        if number > 1:
            assert "ivy" not in seated and "jo" in seated
        for k, table in enumerate(paired["tables"]):
            game = Path(table["folder"])
            if number == 2 and k == 0:
                # Everyone joins through the CLI, then the seat to start never moves: after the
                # deadline and the grace, `arbiter timeout` forfeits them.
                for seat in table["seats"]:
                    join = tmp_path / f"join-{seat}.json"
                    ok(arbiter("join", game / "game.json", "--seat", seat, "--key", keys[seat],
                               "-o", join))  # fmt: skip
                    ok(arbiter("submit", game, join))
                starter = json.loads((game / "public/state.json").read_text())["prompt"]["seat"]
                monkeypatch.setenv("ARBITER_NOW", "2026-03-09T09:59:59Z")
                ok(arbiter("timeout", game))  # within the grace: nothing happens yet
                assert json.loads((game / "public/state.json").read_text())["status"] == "playing"
                monkeypatch.setenv("ARBITER_NOW", "2026-03-09T10:00:01Z")
                ok(arbiter("timeout", game))
                public = json.loads((game / "public/state.json").read_text())
                assert public["status"] == "over"
                lost_on_time = starter
                assert public["outcome"]["ranking"][-1] == [lost_on_time]
                ok(arbiter("reveal", game))
                monkeypatch.setenv("ARBITER_NOW", f"{DAY[number - 1]}T10:00:00Z")
            else:
                play_out(game, keys, table["game"])
        if number == 1:
            said = ok(arbiter("tournament", "drop", root, "ivy")).stdout
            assert "from round 2" in said
            jo = " ".join(Path(f"{keys['jo']}.pub").read_text().split()[:2])
            ok(arbiter("tournament", "enter", root, "jo", jo, "--comment", "late entry"))
    assert lost_on_time is not None
    ok(arbiter("tournament", "finish", root))
    ok(arbiter("tournament", "report", root))

    # What a player receives: the folder without the organiser's key and the secrets.
    import shutil

    published = tmp_path / "published"
    shutil.copytree(root, published, ignore=shutil.ignore_patterns("referee", "organiser"))
    checked = ok(arbiter("tournament", "verify", published))
    assert "every pairing recomputed and equal" in checked.stdout
    assert "9 passed, 0 failed" in checked.stdout
    for number in (1, 2, 3):
        ok(arbiter("tournament", "check", published, "--round", str(number)))
    rows = json.loads(ok(arbiter("tournament", "standings", published, "--json")).stdout)
    by_name = {row["name"]: row for row in rows["standings"]}
    assert by_name["ivy"]["games"] == 1 and by_name["jo"]["games"] == 2
    assert sum(row["games"] for row in rows["standings"]) == 27
    kinds = [json.loads(line)["kind"] for line in (published / record.RECORD).read_text().splitlines()]
    assert kinds.count("round") == 3 and kinds.count("result") == 9 and kinds[-1] == "finish"
    assert {"drop", "enter"} <= set(kinds)
    assert folder.load(published).finished
