"""A tournament's games that end by resignation or by agreement (issue 27): points follow
the ranking the resignation gives; an abandoned game gives nobody points and does not
hold up the next round."""

from __future__ import annotations

import json
from pathlib import Path

from cli.clikit import arbiter

from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.life_files import make_answer, make_propose_end, make_resign
from arbiter.core.player import load_state, make_join
from arbiter.core.referee import submit
from arbiter.tournament import folder
from tournament.kit import players_file

NAMES = ["alice", "bob", "carol", "dave"]


def _joined(game: Path, keys: dict[str, Path]) -> tuple[GameDir, list[str]]:
    gd = GameDir(game)
    seats = list(load_state(gd.public_state)["seats"])
    for seat in seats:
        submit(game, pretty(make_join(gd.manifest, seat, keys[seat])), f"join-{seat}.json")
    return gd, seats


def test_resigned_and_abandoned_games_in_the_standings(tmp_path: Path) -> None:
    players, keys = players_file(tmp_path, NAMES)
    root = tmp_path / "club"
    made = arbiter("tournament", "new", root, "--game", "tally", "--players", players)
    assert made.returncode == 0, made.stderr
    assert arbiter("tournament", "round", root).returncode == 0
    first, second = folder.load(root).schedule[0].tables

    gd, seats = _joined(root / first.folder, keys)
    loser, winner = seats[1], seats[0]
    state = load_state(gd.seat_state(loser))
    submit(gd.root, pretty(make_resign(state, keys[loser])), "resign.json")

    gd, seats = _joined(root / second.folder, keys)
    proposer, other = seats
    state = load_state(gd.seat_state(proposer))
    submit(gd.root, pretty(make_propose_end(state, keys[proposer], "abandon")), "end.json")
    state = load_state(gd.seat_state(other))
    submit(gd.root, pretty(make_answer(state, keys[other], "accept")), "yes.json")

    listed = arbiter("tournament", "standings", root, "--json")
    assert listed.returncode == 0, listed.stderr
    rows = {row["name"]: row for row in json.loads(listed.stdout)["standings"]}
    assert rows[winner]["points"] > rows[loser]["points"]
    assert rows[proposer]["points"] == rows[other]["points"] == 0
    assert rows[proposer]["games"] == 0
    # The round is over: the next one is paired.
    paired = arbiter("tournament", "round", root)
    assert paired.returncode == 0, paired.stderr
    out = tmp_path / "site"
    assert arbiter("tournament", "report", root, "-o", out).returncode == 0
    assert "abandoned by agreement: no result" in (out / "standings.md").read_text()
