"""``tournament round`` after a crash: the recorded round's missing games are created."""

from __future__ import annotations

import shutil
from pathlib import Path

from arbiter.tournament import folder
from arbiter.tournament.create import create
from arbiter.tournament.folder import Terms
from arbiter.tournament.players import read
from arbiter.tournament.rounds import pair_next
from tournament.kit import players_file

CREATED = "2026-01-01T00:00:00Z"


def test_a_crash_between_record_and_games_heals(tmp_path: Path) -> None:
    players, _ = players_file(tmp_path, ["alice", "bob", "carol", "dave", "erin"])
    root = tmp_path / "t"
    create(
        root,
        engine="tally",
        players=read(players),
        options={},
        pairing="swiss",
        rounds=2,
        table_size=2,
        terms=Terms(deadline=None, grace=0, on_timeout="pass"),
        tournament_id=None,
        created=CREATED,
    )
    first = pair_next(root, CREATED, seed=b"s")
    # Five players at 2-player tables: 2 + 3, no bye.
    assert sorted(len(t.seats) for t in first.round.tables) == [2, 3] and not first.round.byes
    # As if the organiser's machine stopped after recording the round: one game folder is
    # missing and a half-built one lies beside its path, as `arbiter new` builds it.
    lost = root / first.round.tables[1].folder
    half = root / "games" / f".{lost.name}.new-abcd1234"
    shutil.move(lost, half)
    (half / "game.json").unlink()
    again = pair_next(root, CREATED, seed=b"s")
    assert again.resumed and again.round == first.round
    assert (lost / "game.json").is_file()
    assert not half.exists()
    assert len(folder.load(root).schedule) == 1
