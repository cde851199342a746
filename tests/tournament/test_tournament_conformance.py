"""Pairings are stable across releases (issue 28 item 2): 1,000 seeded random tournaments
(``tournament simulate``, tests/tournament/pairing_cases.py) pair to the digests kept in
tests/golden/tournament-pairings.json. The default run checks every 25th case; the slow
suite checks all 1,000. A deliberate change of the pairing rules regenerates the file
and says so in its commit."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tournament.pairing_cases import COUNT, GOLDEN, case, digest

GOLDEN_ROWS = json.loads(GOLDEN.read_text())


def test_the_golden_file_lists_every_case() -> None:
    assert [row["case"] for row in GOLDEN_ROWS] == list(range(COUNT))
    assert all({k: v for k, v in row.items() if k != "digest"} == case(row["case"])
               for row in GOLDEN_ROWS)  # fmt: skip


@pytest.mark.parametrize("i", range(0, COUNT, 25))
def test_a_sample_pairs_to_its_golden_digest(i: int) -> None:
    assert digest(case(i)) == GOLDEN_ROWS[i]["digest"]


@pytest.mark.slow
def test_all_1000_pair_to_their_golden_digests() -> None:
    wrong = [i for i in range(COUNT) if i % 25 and digest(case(i)) != GOLDEN_ROWS[i]["digest"]]
    assert not wrong, f"cases whose pairings changed: {wrong[:20]}"


def test_the_cli_prints_the_same_digest() -> None:
    spec = case(42)
    ran = subprocess.run(
        [sys.executable, "-m", "arbiter", "tournament", "simulate", "--players",
         str(spec["players"]), "--table-size", str(spec["table_size"]), "--seed", spec["seed"],
         "--format", "swiss", "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    made = json.loads(ran.stdout)
    assert made["digest"] == GOLDEN_ROWS[42]["digest"]
    seated = sorted(n for r in made["schedule"] for t in r["tables"] for n in t)
    assert len(seated) == made["players"] * made["rounds"] - sum(
        len(r["byes"]) for r in made["schedule"]
    )


def test_bad_arguments_are_one_line() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "arbiter", "tournament", "simulate", "--players", "1", "--seed", "x"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert ran.returncode == 2 and ran.stderr == "arbiter: error: --players must be 2 to 200, not 1\n"
