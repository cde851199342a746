"""Pairings: round-robin schedules, Swiss without repeats, table sizes, byes, seat order."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from arbiter.tournament.pairing import History, group, round_robin, round_robin_rounds, swiss
from arbiter.tournament.tables import lateness, seat_order, table_sizes

MOTTAINAI = [2, 3, 4, 5]


def _play_round_robin(n: int, size: int, allowed: list[int]) -> History:
    names = [f"p{i}" for i in range(1, n + 1)]
    past = History()
    for number in range(1, round_robin_rounds(n, size) + 1):
        pairing = round_robin(
            names, size, [s for s in allowed if abs(s - size) <= 1], number, past, "t"
        )
        seated = [name for table in pairing.tables for name in table] + pairing.byes
        assert sorted(seated) == sorted(names), "every player sits once a round"
        for table in pairing.tables:
            past.add_table(table)
        for name in pairing.byes:
            past.add_bye(name)
    return past


@pytest.mark.parametrize("n", [4, 6])
def test_round_robin_two_player_every_pair_meets_once(n: int) -> None:
    past = _play_round_robin(n, 2, MOTTAINAI)
    pairs = {frozenset(p) for p in combinations([f"p{i}" for i in range(1, n + 1)], 2)}
    assert set(past.met) == pairs
    assert set(past.met.values()) == {1}
    assert not past.byes


@pytest.mark.parametrize("n", [4, 6])
def test_round_robin_seat_balance(n: int) -> None:
    past = _play_round_robin(n, 2, MOTTAINAI)
    games = n - 1
    for name, seatings in past.seatings.items():
        firsts = sum(1 for position, _ in seatings if position == 0)
        assert abs(2 * firsts - games) <= 1, (name, firsts, games)


def test_round_robin_odd_field_gives_each_player_one_bye() -> None:
    past = _play_round_robin(5, 2, MOTTAINAI)
    assert set(past.met.values()) == {1} and len(past.met) == 10
    assert past.byes == Counter({f"p{i}": 1 for i in range(1, 6)})


def test_round_robin_nine_players_three_seat_tables_is_a_perfect_schedule() -> None:
    # 9 players at tables of 3 in 4 rounds: the affine plane of order 3, every pair once.
    past = _play_round_robin(9, 3, MOTTAINAI)
    assert len(past.met) == 36 and set(past.met.values()) == {1}
    for seatings in past.seatings.values():
        assert abs(lateness(seatings)) <= 1  # average seat near the middle


def test_table_sizes() -> None:
    assert table_sizes(9, 3, [2, 3, 4]) == ([3, 3, 3], 0)
    assert table_sizes(10, 3, [2, 3, 4]) == ([3, 3, 4], 0)
    assert table_sizes(11, 3, [2, 3, 4]) == ([3, 3, 3, 2], 0)
    assert table_sizes(7, 2, [2, 3]) == ([2, 2, 3], 0)
    # Momiji seats 2-4: five players at tables of 4 cannot all sit: one bye.
    assert table_sizes(5, 4, [3, 4]) == ([4], 1)
    # Team Mottainai seats exactly 4: ten players, two byes.
    assert table_sizes(10, 4, [4]) == ([4, 4], 2)


def test_swiss_avoids_repeats_on_a_constructed_history() -> None:
    past = History()
    # Earlier rounds: the top players already met each other.
    for table in (["a", "b", "c"], ["d", "e", "f"], ["g", "h", "i"]):
        past.add_table(table)
    order = list("abcdefghi")  # the standings, best first
    pairing = swiss(order, 3, [2, 3, 4], 2, past, "t")
    assert all(past.cost(table) == 0 for table in pairing.tables), pairing.tables
    # Top-down: the leader plays the best players it has not met.
    assert sorted(pairing.tables[0]) == ["a", "d", "e"] or "a" in pairing.tables[0]
    assert {name for table in pairing.tables for name in table} == set(order)


def test_swiss_two_player_avoids_rematch_when_possible() -> None:
    past = History()
    past.add_table(["a", "b"])
    past.add_table(["c", "d"])
    pairing = swiss(["a", "b", "c", "d"], 2, [2, 3], 2, past, "t")
    assert sorted(sorted(t) for t in pairing.tables) == [["a", "c"], ["b", "d"]]


def test_group_takes_the_fewest_repeats_when_some_are_forced() -> None:
    past = History()
    past.add_table(["a", "b", "c", "d"])
    tables = group(list("abcd"), [2, 2], past)
    assert sum(past.cost(t) for t in tables) == 2  # any split of four who all met repeats twice
    assert tables == [["a", "b"], ["c", "d"]]  # and the first in order


def test_swiss_bye_goes_to_the_lowest_without_a_bye() -> None:
    past = History()
    past.add_bye("e")
    pairing = swiss(list("abcde"), 4, [3, 4], 2, past, "t")  # Momiji-like: 2-4 seats
    assert pairing.byes == ["d"]
    assert sorted(pairing.tables[0]) == ["a", "b", "c", "e"]


def test_seat_order_who_sat_late_sits_first() -> None:
    seatings = {"a": [(0, 2), (0, 3)], "b": [(1, 2), (2, 3)], "c": [(1, 3), (1, 3)]}
    assert seat_order(["a", "b", "c"], seatings, "t", 3) == ["b", "c", "a"]
    assert lateness(seatings["c"]) == 0
