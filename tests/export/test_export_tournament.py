"""A tournament's game takes its event, round and table from the tournament that
schedules it (``arbiter.export.context``), and `verify --record` holds a record to them."""

from __future__ import annotations

import json
from pathlib import Path

from cli.clikit import Cli, error_line, ok
from tournament.kit import play_out, players_file

from arbiter.core.canonical import pretty
from arbiter.core.gamedir import deferred_sync


def test_a_tournament_game_is_placed_by_its_tournament(cli: Cli, tmp_path: Path) -> None:
    players, keys = players_file(tmp_path, ["alice", "bob", "carol", "dave"])
    root = tmp_path / "club"
    short = ["--option", "cards=6", "--option", "hand=1"]  # short games: a fast test
    ok(cli("tournament", "new", root, "--game", "tally", "--players", players, *short))
    ok(cli("tournament", "round", root))
    game = root / "games" / "r1-t2"
    with deferred_sync():
        play_out(game, keys, "r1-t2")
    path = tmp_path / "record.json"
    ok(cli("export", game, "-o", path))
    record = json.loads(path.read_text(encoding="utf-8"))
    assert (record["event"], record["round"], record["table"]) == ("club", 1, 2)
    assert record["game"] == "club-r1-t2"
    ok(cli("verify", game, "--record", path))

    # The tournament has the last word on where its game was played.
    said = error_line(cli("export", game, "--round", 3), 2)
    assert "this game is table 2 of round 1 of club: its header comes from the tournament" in said
    ok(cli("export", game, "--event", "club", "--round", 1, "--table", 2))  # the same: fine
    record["table"] = 1
    path.write_bytes(pretty(record))
    said = error_line(cli("verify", game, "--record", path), 16)
    assert "record header: the table differs from the game's" in said

    # The same game outside its tournament folder has no place but the exporter's word.
    alone = tmp_path / "alone"
    game.rename(alone)
    bare = json.loads(ok(cli("export", alone)).out)
    assert (bare["event"], bare["round"], bare["table"]) == (None, None, None)
