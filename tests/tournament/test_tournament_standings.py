"""Points and tie-breaks, checked by hand on a small constructed tournament."""

from __future__ import annotations

from typing import Any

from arbiter.tournament.folder import TOURNAMENT_FORMAT, Entrant, Round, Table, Terms, Tournament
from arbiter.tournament.standings import GameResult, game_points, standings


def test_points_by_place_two_per_opponent_beaten_one_per_tie() -> None:
    assert game_points([["a"], ["b"], ["c"]]) == {"a": 4, "b": 2, "c": 0}
    assert game_points([["a"], ["b", "c"]]) == {"a": 4, "b": 1, "c": 1}
    assert game_points([["a", "b"], ["c"]]) == {"a": 3, "b": 3, "c": 0}
    assert game_points([["a", "b", "c"]]) == {"a": 2, "b": 2, "c": 2}
    assert game_points([["a"], ["b"]]) == {"a": 2, "b": 0}
    # A table of 4 with a tie for 2nd: places 2 and 3 (4 and 2 points) shared: 3 each.
    assert game_points([["a"], ["b", "c"], ["d"]]) == {"a": 6, "b": 3, "c": 3, "d": 0}
    # Every game hands out 2 points per pair of players at the table.
    assert sum(game_points([["a"], ["b", "c"], ["d"], ["e"]]).values()) == 2 * 10


def _table(r: int, k: int, seats: str) -> Table:
    return Table(table=k, game=f"cup-r{r}-t{k}", folder=f"games/r{r}-t{k}", seats=list(seats))


def _over(r: int, table: Table, ranking: list[str], scores: dict[str, int]) -> GameResult:
    outcome: dict[str, Any] = {
        "ranking": [list(group) for group in ranking],
        "scores": scores,
        "winners": list(ranking[0]),
    }
    return GameResult(r, table, "over", outcome, game_points(outcome["ranking"]))


def _cup(schedule: list[Round], table_size: int = 3) -> Tournament:
    return Tournament(
        format=TOURNAMENT_FORMAT,
        id="cup",
        engine="tally",
        options={},
        pairing="swiss",
        rounds=3,
        table_size=table_size,
        players=[Entrant(name=n, key=f"ssh-ed25519 AAAA{n}") for n in "abcde"],
        terms=Terms(deadline=None, grace=0, on_timeout="pass"),
        created="2026-01-01T00:00:00Z",
        schedule=schedule,
    )


def test_standings_by_hand() -> None:
    # Round 1: a b c at table 1 (a wins, b and c tie), d e at table 2 (e wins).
    # Round 2: a e d at table 1 (d, a, e), b c at table 2 (a tie).
    r1 = [_table(1, 1, "abc"), _table(1, 2, "de")]
    r2 = [_table(2, 1, "aed"), _table(2, 2, "bc")]
    results = [
        _over(1, r1[0], ["a", "bc"], {"a": 10, "b": 6, "c": 6}),  # a 4, b 1, c 1
        _over(1, r1[1], ["e", "d"], {"d": 3, "e": 7}),  # e 2, d 0
        _over(2, r2[0], ["d", "a", "e"], {"a": 8, "d": 9, "e": 2}),  # d 4, a 2, e 0
        _over(2, r2[1], ["bc"], {"b": 5, "c": 5}),  # b 1, c 1
    ]
    schedule = [
        Round(round=1, paired="2026-01-01T00:00:00Z", tables=r1, byes=[]),
        Round(round=2, paired="2026-01-02T00:00:00Z", tables=r2, byes=[]),
    ]
    rows = standings(_cup(schedule), results)
    # Points: a 4+2 = 6, d 0+4 = 4, b 1+1 = 2, c 1+1 = 2, e 2+0 = 2.
    # Opponents' points: e met d (4) then a (6) and d (4): 14;
    #   b met a (6), c (2), then c (2): 10; c likewise 10.
    # Game score: b 6+5 = 11, c 6+5 = 11: b and c are equal on everything and share 4th.
    got = [(r.rank, r.name, r.points, r.opponents, r.score, r.games) for r in rows]
    assert got == [
        (1, "a", 6, 2 + 2 + 2 + 4, 18, 2),
        (2, "d", 4, 2 + 6 + 2, 12, 2),
        (3, "e", 2, 14, 9, 2),
        (4, "b", 2, 10, 11, 2),
        (4, "c", 2, 10, 11, 2),
    ]


def test_games_not_over_do_not_count_and_byes_score_table_size_minus_one() -> None:
    r1 = [_table(1, 1, "abc")]
    schedule = [Round(round=1, paired="2026-01-01T00:00:00Z", tables=r1, byes=["d", "e"])]
    playing = GameResult(1, r1[0], "playing")
    rows = {r.name: r for r in standings(_cup(schedule), [playing])}
    assert rows["a"].points == 0 and rows["a"].games == 0 and rows["a"].opponents == 0
    assert rows["d"].points == 2 and rows["d"].byes == 1 and rows["d"].games == 0
    assert rows["d"].rank == 1 and rows["e"].rank == 1
