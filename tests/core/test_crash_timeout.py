"""``arbiter timeout`` killed at its write points heals, and times nobody out twice.

A timeout writes like a submit (the referee's signed record, then the chain, its commit
point, then the views and logs), but nobody sends it again: the referee's cron simply
runs ``arbiter timeout`` once more. So after a kill the next run, at the same clock, must
record the timeout exactly once — again if the chain lacks it, not again if it has it —
and leave the very bytes an uninterrupted run leaves (the record is signed with Ed25519,
so it is the same file).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.crash import (
    Killed,
    arbiter,
    assert_at_head,
    assert_verifies,
    behind,
    chain,
    kill_at_write_points,
    parallel,
    show,
)
from helpers.tables import REFEREE_SEED, SECRET, Table, make_keys, snapshot

from arbiter.core.canonical import pretty
from arbiter.core.errors import GameOver
from arbiter.core.player import make_move
from arbiter.core.referee import new_game, submit

START = "2026-01-01T00:00:00Z"
DAY = 86400
# The first seat's deadline (3 days) and grace (1 day) are over.
LATE = {"ARBITER_NOW": "2026-01-05T00:00:01Z"}


def deadline_game(tmp: Path, policy: str) -> Table:
    names = ["alice", "bob"]
    keys = make_keys(tmp / "keys", names)
    new_game(
        tmp / "game",
        "tally",
        [(s, f"{keys[s]}.pub") for s in names],
        {"cards": "8", "hand": "2"},
        join=False,
        game_id="crash-timeout",
        created=START,
        secret=SECRET,
        referee_seed=REFEREE_SEED,
        deadline=3 * DAY,
        grace=DAY,
        on_timeout=policy,
    )
    return Table(tmp / "game", keys, names, tmp / "out")


# The default run kills twice: the signed record written but not the chain (2), and the
# chain written with the public log but not the state files (6).
CASES = [
    pytest.param("pass", (2, 6), id="pass-few-points"),
    pytest.param("pass", None, id="pass-every-point", marks=pytest.mark.slow),
    pytest.param("bot", None, id="bot-every-point", marks=pytest.mark.slow),
    pytest.param("forfeit", None, id="forfeit-every-point", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("policy", "points"), CASES)
def test_timeout_killed_at_its_write_points_heals(
    tmp_path: Path, policy: str, points: tuple[int, ...] | None
) -> None:
    table = deadline_game(tmp_path / "base", policy)
    committed: dict[int, bool] = {}
    late_files: dict[int, list[Path]] = {}

    def look(killed: Killed) -> None:
        committed[killed.point] = len(chain(killed.folder)) == 2
        late_files[killed.point] = behind(killed.folder)

    kills, reference = kill_at_write_points(
        table.root,
        tmp_path / "runs",
        lambda folder: ["timeout", folder, "--json"],
        points,
        extra=LATE,
        look=look,
    )
    assert [e["kind"] for e in chain(reference)] == ["genesis", "timeout"]
    expected = snapshot(reference)
    over = json.loads((reference / "public" / "state.json").read_bytes())["status"] == "over"
    assert over == (policy == "forfeit")

    # Observed before anything healed them: crashes before the commit point, and after it
    # with the views still showing the entry before.
    assert any(not done for done in committed.values()), "no crash before the chain write"
    assert any(committed[p] and late_files[p] for p in committed), "no crash after it"

    def again(killed: Killed) -> None:
        folder, point = killed.folder, killed.point
        result = arbiter("timeout", folder, "--json", extra=LATE)
        if committed[point] and over:
            # The forfeit ended the game: the run heals it and says so.
            assert result.returncode == GameOver.exit_code, f"point {point}: {show(result)}"
            assert "the game is over" in result.stderr, show(result)
        else:
            assert result.returncode == 0, f"point {point}: {show(result)}"
            # A timeout the chain already holds is not applied again: the next seat's
            # clock started at it.
            assert json.loads(result.stdout)["timed_out"] is not committed[point], show(result)
        assert_at_head(folder, 1)
        assert snapshot(folder) == expected, f"point {point}: not what one run leaves"
        assert_verifies(folder)
        # Run by cron once more at the same clock: still one timeout.
        once_more = arbiter("timeout", folder, "--json", extra=LATE)
        assert once_more.returncode == (GameOver.exit_code if over else 0), show(once_more)
        assert len(chain(folder)) == 2

    parallel(again, kills)

    if over:
        return
    # The game goes on: the seat whose turn the timeout ended moves next.
    folder = kills[0].folder
    healed = Table(folder, table.keys, table.seats, tmp_path / "out")
    seat = healed.turn()
    state = healed.state(seat)
    move = make_move(state, table.keys[seat], [state["legal"][0]])
    accepted = submit(folder, pretty(move), "next.json", now=LATE["ARBITER_NOW"])
    assert accepted.seq == 2
