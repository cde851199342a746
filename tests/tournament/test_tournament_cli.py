"""``arbiter tournament`` through the real command line (tally games, played by bots)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli.clikit import arbiter

from arbiter.tournament import folder
from arbiter.tournament.standings import read_results, standings
from tournament.kit import play_out, players_file

NAMES = ["alice", "bob", "carol", "dave"]


def ok(result):  # type: ignore[no-untyped-def]
    assert result.returncode == 0, (result.stdout, result.stderr)
    return result


def refused(result, code: int) -> str:  # type: ignore[no-untyped-def]
    assert result.returncode == code, (result.stdout, result.stderr)
    assert result.stderr.startswith("arbiter: error: ") and result.stderr.count("\n") == 1
    return str(result.stderr)


def test_a_round_robin_of_tally_games(tmp_path: Path) -> None:
    players, keys = players_file(tmp_path, NAMES, header="# club night")
    root = tmp_path / "club"
    short = ["--option", "cards=6", "--option", "hand=1"]  # short games: a fast test
    made = ok(
        arbiter(
            "tournament", "new", root, "--game", "tally", "--players", players, *short, "--json"
        )
    )
    # Four players at 2-player tables: a full round-robin (3 rounds) fits in the Swiss
    # default of 3 rounds, so the default format is round-robin.
    info = json.loads(made.stdout)
    assert (info["format"], info["rounds"], info["table_size"], info["players"]) == (
        "round-robin",
        3,
        2,
        4,
    )
    first = json.loads(ok(arbiter("tournament", "round", root, "--json")).stdout)
    assert first["round"] == 1 and len(first["tables"]) == 2 and first["byes"] == []
    table = first["tables"][0]
    assert table["game"] == "club-r1-t1" and table["folder"] == str(root / "games/r1-t1")
    seat = table["seats"][0]
    assert table["join"][seat] == (
        f"arbiter join {root / 'games/r1-t1/game.json'} --seat {seat} --key KEY -o join-{seat}.json"
    )
    manifest = json.loads((root / "games/r1-t1/game.json").read_text())
    assert manifest["game"] == "club-r1-t1"
    assert [s["seat"] for s in manifest["seats"]] == table["seats"]

    # The next round waits for every game of this one.
    says = refused(arbiter("tournament", "round", root), 17)
    assert "round 1 is not over: games/r1-t1 (joining), games/r1-t2 (joining)" in says

    for number in (1, 2, 3):
        for t in folder.load(root).schedule[number - 1].tables:
            play_out(root / t.folder, keys, t.game)
        if number < 3:
            ok(arbiter("tournament", "round", root))
    assert "all 3 rounds are paired" in refused(arbiter("tournament", "round", root), 2)

    tournament = folder.load(root)
    met = {frozenset(t.seats) for r in tournament.schedule for t in r.tables}
    assert len(met) == 6, "everyone met everyone once"
    listed = json.loads(ok(arbiter("tournament", "standings", root, "--json")).stdout)
    assert listed["over"] == listed["games"] == 6
    rows = listed["standings"]
    assert sum(row["points"] for row in rows) == 2 * 6  # 2 points a game of two
    assert rows == [row.to_json() for row in standings(tournament, read_results(root, tournament))]
    text = ok(arbiter("tournament", "standings", root)).stdout
    assert "opponents' points" in text and rows[0]["name"] in text

    out = tmp_path / "site"
    ok(arbiter("tournament", "report", root, "-o", out))
    md = (out / "standings.md").read_text()
    page = (out / "standings.html").read_text()
    assert "## Round 3" in md and "[log](../club/games/r3-t2/public/log.md)" in md
    assert 'href="../club/games/r1-t1/public/log.md"' in page
    assert "<script" not in page and "http" not in page.lower().replace("<!doctype html>", "")
    for r in tournament.schedule:
        for t in r.tables:
            assert (out / f"../club/{t.folder}/public/log.md").resolve().is_file()


def test_new_refuses_and_writes_nothing(tmp_path: Path) -> None:
    players, _ = players_file(tmp_path, NAMES)
    root = tmp_path / "t"
    twice = tmp_path / "twice.txt"
    twice.write_text(players.read_text() + players.read_text().splitlines()[0] + "\n")
    cases = [
        (["--players", twice], "line 5: alice is already listed on line 1"),
        (["--players", players, "--table-size", "5"], "tally seats 2–4 players"),
        (["--players", players, "--format", "round-robin", "--rounds", "4"], "has 3 rounds"),
        (["--players", players, "--grace", "24h"], "need a --deadline"),
        (["--players", players, "--format", "knockout"], "round-robin or swiss"),
        (["--players", players, "--option", "cards=2"], "option cards"),
        (["--players", players, "--id", "Cup"], "tournament id 'Cup'"),
    ]
    for extra, says in cases:
        message = refused(arbiter("tournament", "new", root, "--game", "tally", *extra), 2)
        assert says in message, message
        assert not root.exists()
    root.mkdir()
    (root / "notes.txt").write_text("mine")
    message = refused(
        arbiter("tournament", "new", root, "--game", "tally", "--players", players), 2
    )
    assert "not empty" in message


def test_deadline_terms_reach_every_game(tmp_path: Path) -> None:
    players, _ = players_file(tmp_path, [f"p{i}" for i in range(1, 7)])
    root = tmp_path / "cup"
    ok(
        arbiter(
            "tournament", "new", root, "--game", "mottainai", "--players", players,
            "--table-size", "3", "--format", "swiss", "--rounds", "2",
            "--deadline", "72h", "--grace", "1d", "--on-timeout", "pass", "--forfeit-after", "2",
        )
    )  # fmt: skip
    terms = json.loads((root / "tournament.json").read_text())["terms"]
    assert terms == {
        "deadline": 72 * 3600, "grace": 86400, "on_timeout": "pass", "forfeit_after": 2
    }
    ok(arbiter("tournament", "round", root))
    manifest = json.loads((root / "games/r1-t2/game.json").read_text())
    assert manifest["deadline"]["seconds"] == 72 * 3600
    assert manifest["deadline"]["grace"] == 86400
    assert manifest["deadline"]["on_timeout"] == "pass"
    assert manifest["deadline"]["forfeit_after"] == 2


def test_verify_calls_the_archive_verifier(tmp_path: Path) -> None:
    pytest.importorskip("arbiter.cli.verify_many", reason="the archive verifier has not landed")
    players, keys = players_file(tmp_path, NAMES[:2])
    root = tmp_path / "duel"
    short = ["--option", "cards=6", "--option", "hand=1"]
    ok(arbiter("tournament", "new", root, "--game", "tally", "--players", players, *short))
    ok(arbiter("tournament", "round", root))
    play_out(root / "games/r1-t1", keys, "duel")
    ok(arbiter("tournament", "verify", root, "-j", "1"))
    (root / "games/r1-t1/public/log.md").write_text("forged\n")
    assert refused(arbiter("tournament", "verify", root, "-j", "1"), 16)
