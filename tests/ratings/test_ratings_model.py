"""The ratings of a small archive are the Plackett–Luce updates computed by hand.

The expected numbers come from ``weng_lin.update`` (the published formulas, written out in
that file; no openskill), applied to each game's result as its own files give it
(game.json's keys, public/state.json's ranking), in the order the archive's times give.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import weng_lin
from ratings_kit import ORDER, Cli

TOLERANCE = 2e-6
"""ratings.json rounds to 6 decimal places; the rest is floating point noise."""


def fingerprint(key: str) -> str:
    blob = base64.b64decode(key.split()[1])
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def result(folder: Path) -> tuple[str, list[tuple[str, str, int]]]:
    """Return a game's id and its (seat, key, place) in seat order, read from its files."""
    manifest = json.loads((folder / "game.json").read_text())
    state = json.loads((folder / "public" / "state.json").read_text())
    place, above = {}, 0
    for group in state["outcome"]["ranking"]:
        for seat in group:
            place[seat] = above + 1
        above += len(group)
    return manifest["game"], [(s["seat"], s["key"], place[s["seat"]]) for s in manifest["seats"]]


def expected(archive: Path) -> tuple[dict[str, Any], list[list[tuple[float, float]]]]:
    """Rate the archive by hand: each key's (mu, sigma, games, names), each game's updates."""
    games = dict(result(folder) for folder in sorted(archive.iterdir()))
    players: dict[str, dict[str, Any]] = {}
    steps = []
    for game in ORDER:
        seats = games[game]
        for seat, key, _ in seats:
            player = players.setdefault(
                key, {"mu": weng_lin.MU, "sigma": weng_lin.SIGMA, "games": 0, "names": []}
            )
            if seat not in player["names"]:
                player["names"].append(seat)
        before = [(players[key]["mu"], players[key]["sigma"]) for _, key, _ in seats]
        after = weng_lin.update(before, [place for _, _, place in seats])
        for (_, key, _), (mu, sigma) in zip(seats, after, strict=True):
            players[key].update(mu=mu, sigma=sigma, games=players[key]["games"] + 1)
        steps.append(after)
    return players, steps


def test_the_archive_is_what_the_test_needs(archive: Path) -> None:
    """2- and 3-player games, people under several seat names, and a tie."""
    games = dict(result(folder) for folder in sorted(archive.iterdir()))
    assert sorted(games) == sorted(ORDER)
    assert sorted(len(seats) for seats in games.values()) == [2, 2, 3, 3]
    assert [place for _, _, place in games["r-tie"]] == [1, 2, 2], "the seed no longer ties"


def test_ratings_are_the_hand_computed_updates(archive: Path, cli: Cli) -> None:
    done = cli("ratings", archive, "--json")
    assert done.code == 0, done
    doc = json.loads(done.out)
    players, steps = expected(archive)

    assert doc["model"] == {
        "name": "plackett-luce",
        "library": doc["model"]["library"],
        "mu": weng_lin.MU,
        "sigma": weng_lin.SIGMA,
        "beta": weng_lin.BETA,
        "tau": weng_lin.TAU,
        "kappa": weng_lin.KAPPA,
        "display": "mu - 3*sigma",
    }
    assert doc["model"]["library"].startswith("openskill 6.")
    # Games in the order of their times, then ids; each seat's skill after that game.
    assert [g["game"] for g in doc["games"]] == ORDER
    assert [g["time"] for g in doc["games"]] == [
        "2026-02-01T00:00:00Z",
        "2026-03-01T12:00:00Z",
        "2026-03-01T12:00:00Z",
        "2026-04-01T08:30:00Z",
    ]
    assert [g["time_from"] for g in doc["games"]] == ["created", "chain", "chain", "chain"]
    for game, after in zip(doc["games"], steps, strict=True):
        for seat, (mu, sigma) in zip(game["seats"], after, strict=True):
            assert seat["mu"] == pytest.approx(mu, abs=TOLERANCE), (game["game"], seat)
            assert seat["sigma"] == pytest.approx(sigma, abs=TOLERANCE), (game["game"], seat)
    # The players: one row per key, named by its seat names, ranked by mu - 3 sigma.
    assert sorted(p["key"] for p in doc["players"]) == sorted(players)
    for row in doc["players"]:
        want = players[row["key"]]
        assert row["fingerprint"] == fingerprint(row["key"])
        assert row["names"] == want["names"]
        assert row["games"] == want["games"]
        assert row["mu"] == pytest.approx(want["mu"], abs=TOLERANCE)
        assert row["sigma"] == pytest.approx(want["sigma"], abs=TOLERANCE)
        assert row["rating"] == pytest.approx(want["mu"] - 3 * want["sigma"], abs=3 * TOLERANCE)
    order = sorted(doc["players"], key=lambda p: (-p["rating"], p["fingerprint"]))
    assert doc["players"] == order
    assert [p["rank"] for p in doc["players"]] == [1, 2, 3, 4]  # no two equal here
    names = {tuple(p["names"]) for p in doc["players"]}
    assert names == {("ann", "anna"), ("ben", "benny"), ("cat", "kat"), ("dan",)}
    assert doc["left_out"] == []


def test_the_tied_seats_are_rated_as_a_tie(archive: Path, cli: Cli) -> None:
    """r-tie: cat and dan share 2nd place. Both start from the prior, so a tie moves them
    alike; had the library read it as 2nd and 3rd, they would differ."""
    doc = json.loads(cli("ratings", archive / "g3", "--json").out)
    ben, cat, dan = doc["games"][0]["seats"]
    assert [ben["place"], cat["place"], dan["place"]] == [1, 2, 2]
    assert cat["mu"] == dan["mu"] and cat["sigma"] == dan["sigma"]
    by_hand = weng_lin.update([(weng_lin.MU, weng_lin.SIGMA)] * 3, [1, 2, 2])
    assert (cat["mu"], cat["sigma"]) == pytest.approx(by_hand[1], abs=TOLERANCE)
    untied = weng_lin.update([(weng_lin.MU, weng_lin.SIGMA)] * 3, [1, 2, 3])
    assert cat["mu"] != pytest.approx(untied[1][0], abs=0.01)
    # Equal ratings share a rank, the fingerprint ordering them.
    rows = [p for p in doc["players"] if p["names"] in (["cat"], ["dan"])]
    assert rows[0]["rank"] == rows[1]["rank"] == 2
    assert rows[0]["fingerprint"] < rows[1]["fingerprint"]


def test_the_worked_example_of_the_page() -> None:
    """docs/ratings.md's example: two new players, one game, by the formulas."""
    (winner, loser) = weng_lin.update([(25.0, 25.0 / 3.0)] * 2, [1, 2])
    assert round(winner[0], 6) == 27.635389 and round(loser[0], 6) == 22.364611
    assert round(winner[1], 6) == round(loser[1], 6) == 8.065901
    page = (Path(__file__).resolve().parents[2] / "docs" / "ratings.md").read_text()
    for number in ("27.635389", "22.364611", "8.065901", "3.437685", "-1.833094"):
        assert number in page, number
