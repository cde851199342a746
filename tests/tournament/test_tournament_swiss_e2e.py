"""A 9-player, 3-round Swiss Mottainai tournament at tables of 3, played end to end by
seeded random bots: every game joined, played, revealed and verified (slow suite)."""

from __future__ import annotations

import importlib.util
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from cli.clikit import arbiter

from arbiter.core.replay import verify
from arbiter.tournament import folder
from arbiter.tournament.create import create
from arbiter.tournament.folder import Terms
from arbiter.tournament.players import read
from arbiter.tournament.report import write
from arbiter.tournament.rounds import pair_next
from arbiter.tournament.standings import game_points, read_results, standings
from tournament.kit import play_out, players_file

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"]


@pytest.mark.slow
def test_nine_player_swiss_mottainai(tmp_path: Path) -> None:
    players, keys = players_file(tmp_path, NAMES)
    root = tmp_path / "swiss"
    create(
        root,
        engine="mottainai",
        players=read(players),
        options={},
        pairing="swiss",
        rounds=3,
        table_size=3,
        terms=Terms(deadline=None, grace=0, on_timeout="pass"),
        tournament_id="swiss",
        created="2026-01-01T00:00:00Z",
    )
    outcomes: dict[str, dict] = {}
    for number in (1, 2, 3):
        paired = pair_next(root, f"2026-01-0{number + 1}T00:00:00Z", seed=b"swiss e2e")
        assert paired.round.round == number and not paired.round.byes
        assert [len(t.seats) for t in paired.round.tables] == [3, 3, 3]
        for table in paired.round.tables:
            outcomes[table.game] = play_out(root / table.folder, keys, table.game)

    tournament = folder.load(root)
    # Swiss avoided every repeat meeting (9 players at tables of 3 can go 4 rounds without).
    met = Counter(
        frozenset(pair)
        for played in tournament.schedule
        for table in played.tables
        for pair in combinations(table.seats, 2)
    )
    assert set(met.values()) == {1} and len(met) == 27
    # Seat order evens out: nobody sat first in more than two of three games.
    firsts = Counter(t.seats[0] for played in tournament.schedule for t in played.tables)
    assert max(firsts.values()) <= 2

    results = read_results(root, tournament)
    rows = standings(tournament, results)
    # Recompute the standings independently from the outcomes.
    points = Counter({name: 0 for name in NAMES})
    score = Counter({name: 0 for name in NAMES})
    opponents: dict[str, list[str]] = {name: [] for name in NAMES}
    for played in tournament.schedule:
        for table in played.tables:
            outcome = outcomes[table.game]
            for seat, gained in game_points(outcome["ranking"]).items():
                points[seat] += gained
                score[seat] += outcome["scores"][seat]
                opponents[seat] += [s for s in table.seats if s != seat]
    assert sum(points.values()) == 3 * 3 * 6  # 6 points a 3-player game
    by_name = {row.name: row for row in rows}
    for name in NAMES:
        row = by_name[name]
        assert (row.points, row.score, row.games) == (points[name], score[name], 3)
        assert row.opponents == sum(points[o] for o in opponents[name])
    keys_in_order = [(-r.points, -r.opponents, -r.score) for r in rows]
    assert keys_in_order == sorted(keys_in_order)
    # Round 2 put the three round-1 winners at one table (Swiss: top-down by points).
    winners = {outcomes[t.game]["ranking"][0][0] for t in tournament.schedule[0].tables}
    if all(len(outcomes[t.game]["ranking"][0]) == 1 for t in tournament.schedule[0].tables):
        assert set(tournament.schedule[1].tables[0].seats) == winners

    written = write(root, tournament, rows, results, root)
    md = written.markdown.read_text()
    assert all(f"swiss-r{r}-t{k}" in md for r in (1, 2, 3) for k in (1, 2, 3))
    assert "[log](games/r2-t3/public/log.md)" in md
    assert written.html.read_text().count('href="games/') == 9

    for played in tournament.schedule:
        for table in played.tables:
            report = verify(root / table.folder)
            assert report.revealed and report.replayed and report.status == "over"
    if importlib.util.find_spec("arbiter.cli.verify_many") is not None:
        done = arbiter("tournament", "verify", root, "--json")
        assert done.returncode == 0, done.stderr
