"""The published tie-break list (issue 28 item 5, arbiter.tournament.tiebreaks): each
tie-break checked by hand on a constructed tournament, a tie left after the list shown
shared, and the list chosen at `tournament new`, signed in the record and used by the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli.clikit import arbiter

from arbiter.tournament import record
from arbiter.tournament.folder import Round
from arbiter.tournament.report import columns, markdown, row_cells
from arbiter.tournament.standings import standings
from arbiter.tournament.tiebreaks import lot
from tournament.kit import players_file
from tournament.test_tournament_standings import _cup, _over, _table

# Round 1: a b c at table 1 (a, then b and c tied), d e at table 2 (e wins).
# Round 2: a e d at table 1 (d, a, e), b c at table 2 (a tie).
# Points: a 6, d 4, then b, c, e on 2.
R1 = [_table(1, 1, "abc"), _table(1, 2, "de")]
R2 = [_table(2, 1, "aed"), _table(2, 2, "bc")]
RESULTS = [
    _over(1, R1[0], ["a", "bc"], {"a": 10, "b": 6, "c": 6}),
    _over(1, R1[1], ["e", "d"], {"d": 3, "e": 7}),
    _over(2, R2[0], ["d", "a", "e"], {"a": 8, "d": 9, "e": 2}),
    _over(2, R2[1], ["bc"], {"b": 5, "c": 5}),
]
SCHEDULE = [
    Round(round=1, paired="2026-01-01T00:00:00Z", tables=R1, byes=[]),
    Round(round=2, paired="2026-01-02T00:00:00Z", tables=R2, byes=[]),
]


def ranked(order: list[str], seed: str | None = None) -> list[tuple[int, str, dict[str, str]]]:
    cup = _cup(SCHEDULE).model_copy(update={"tiebreaks": order})
    return [(r.rank, r.name, r.tiebreaks) for r in standings(cup, RESULTS, lot_seed=seed)]


def test_no_tiebreak_leaves_equal_points_shared() -> None:
    assert [(r, n) for r, n, _ in ranked([])] == [(1, "a"), (2, "d"), (3, "b"), (3, "c"), (3, "e")]


def test_opponents_points_and_its_cut1() -> None:
    # e met d (4), a (6), d (4): 14; cut 1 drops one 4: 10.
    # b met a (6), c (2), c (2): 10; cut 1: 8. c likewise.
    rows = ranked(["opponents-points-cut1"])
    assert [(r, n, t["opponents-points-cut1"]) for r, n, t in rows][2:] == [
        (3, "e", "10"), (4, "b", "8"), (4, "c", "8"),
    ]  # fmt: skip


def test_head_to_head_only_among_the_tied() -> None:
    # Among b, c, e on 2 points: b and c tied each other twice (1 + 1 each); e met neither.
    rows = ranked(["head-to-head"])
    assert [(r, n, t["head-to-head"]) for r, n, t in rows] == [
        (1, "a", "-"), (2, "d", "-"), (3, "b", "2"), (3, "c", "2"), (5, "e", "0"),
    ]  # fmt: skip


def test_place_points_weigh_tables_of_every_size_the_same() -> None:
    # b: 1 of 4 at a table of 3 (0.25) + 1 of 2 at a table of 2 (0.5) = 0.75; c the same;
    # e: 2 of 2 (1.0) + 0 of 4 (0) = 1.0.
    rows = ranked(["place-points"])
    assert [(r, n, t["place-points"]) for r, n, t in rows][2:] == [
        (3, "e", "1.000"), (4, "b", "0.750"), (4, "c", "0.750"),
    ]  # fmt: skip


def test_the_lot_is_drawn_from_the_public_seed() -> None:
    rows = ranked(["game-score", "lot"], seed="s1")
    tied = sorted(["b", "c"], key=lambda n: lot("s1", n))
    # Game score puts b and c (11) above e (9); the lot then separates b and c.
    assert [n for _, n, _ in rows][2:] == [*tied, "e"] and [r for r, _, _ in rows] == [1, 2, 3, 4, 5]
    other = ranked(["game-score", "lot"], seed="s2")
    assert {n for _, n, _ in other[2:4]} == {"b", "c"}


def test_a_tie_left_after_the_list_is_shown_shared() -> None:
    cup = _cup(SCHEDULE)  # the default list: opponents' points, then game score
    rows = standings(cup, RESULTS)
    assert [(r.rank, r.name) for r in rows][3:] == [(4, "b"), (4, "c")]
    page = markdown(cup, rows, RESULTS, {r.table.game: "log.md" for r in RESULTS})
    assert "| 4 | b | 2 | 10 | 11 | 2 | 0 |" in page and "| 4 | c | 2 | 10 | 11 | 2 | 0 |" in page
    assert columns(cup.tiebreaks) == [
        "rank", "player", "points", "opponents' points", "game score", "games", "byes",
    ]  # fmt: skip
    assert row_cells(rows[0], cup.tiebreaks) == row_cells(rows[0])


def test_the_list_is_chosen_at_new_and_signed(tmp_path: Path) -> None:
    players, _ = players_file(tmp_path, ["alice", "bob", "carol", "dave"])
    root = tmp_path / "cup"
    made = arbiter("tournament", "new", root, "--game", "tally", "--players", players,
                   "--tiebreaks", "head-to-head,place-points,lot")  # fmt: skip
    assert made.returncode == 0, made.stderr
    terms = json.loads((root / record.RECORD).read_text().splitlines()[0])["body"]
    assert terms["tiebreaks"] == ["head-to-head", "place-points", "lot"]
    assert json.loads((root / "tournament.json").read_text())["tiebreaks"] == terms["tiebreaks"]
    shown = arbiter("tournament", "standings", root)
    assert "head to head" in shown.stdout and "place points" in shown.stdout


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("buchholz", "'buchholz' is not a tie-break: choose from opponents-points"),
        ("lot,lot", "names a tie-break twice"),
    ],
)
def test_a_bad_list_is_refused(tmp_path: Path, text: str, says: str) -> None:
    players, _ = players_file(tmp_path, ["alice", "bob"])
    made = arbiter("tournament", "new", tmp_path / "cup", "--game", "tally", "--players", players,
                   "--tiebreaks", text)  # fmt: skip
    assert made.returncode == 2 and says in made.stderr
    assert not (tmp_path / "cup").exists()
