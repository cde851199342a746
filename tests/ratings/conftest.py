"""Fixtures of the ratings tests: an in-process ``arbiter`` and a small archive of games.

The archive (built once per test session, never modified: a test that tampers copies it
first) holds four tally games between four people, each with one key, sitting under
different seat names in different games:

    folder  game id  seats (seat=person)          deadlines: entries at     created
    g1      r-west   ann=ann, benny=ben           2026-03-01T12:00:00Z      2026-02-26
    g2      r-east   kat=cat, anna=ann, ben=ben   2026-04-01T08:30:00Z      2026-03-30
    g3      r-tie    ben=ben, cat=cat, dan=dan    none (no time in chain)   2026-02-01
    g4      a-north  dan=dan, ann=ann             2026-03-01T12:00:00Z      2026-02-27

so the rating order (time, then id) is r-tie, a-north, r-west, r-east: not the order of
the folders, of the ids or of ``created``. r-tie ends in a tie (its seed was chosen so).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ratings_kit import Cli, Result, people_keys, play

from arbiter.cli.main import run


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run ``arbiter ARGS...`` in-process (the tally engine is registered here)."""

    def invoke(*args: Any) -> Result:
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        code = info.value.code
        return Result(0 if code is None else int(code), out, err)

    return invoke


@pytest.fixture(scope="session")
def built_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ratings")
    keys = people_keys(root / "keys")
    games = root / "archive"
    play(
        games / "g1",
        "r-west",
        [("ann", keys["ann"]), ("benny", keys["ben"])],
        "west",
        created="2026-02-26T00:00:00Z",
        now="2026-03-01T12:00:00Z",
    )
    play(
        games / "g2",
        "r-east",
        [("kat", keys["cat"]), ("anna", keys["ann"]), ("ben", keys["ben"])],
        "east",
        created="2026-03-30T00:00:00Z",
        now="2026-04-01T08:30:00Z",
    )
    play(
        games / "g3",
        "r-tie",
        [("ben", keys["ben"]), ("cat", keys["cat"]), ("dan", keys["dan"])],
        "tie-38",
        created="2026-02-01T00:00:00Z",
    )
    play(
        games / "g4",
        "a-north",
        [("dan", keys["dan"]), ("ann", keys["ann"])],
        "north",
        created="2026-02-27T00:00:00Z",
        now="2026-03-01T12:00:00Z",
    )
    return root


@pytest.fixture
def archive(built_archive: Path) -> Path:
    """The archive's games folder (read-only: copy it before changing anything)."""
    return built_archive / "archive"


@pytest.fixture
def keys(built_archive: Path) -> dict[str, Path]:
    return {person: built_archive / "keys" / person for person in ("ann", "ben", "cat", "dan")}
