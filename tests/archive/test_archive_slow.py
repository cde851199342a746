"""The archive verify on 300 demo games with one tampered (slow suite).

The games are self-played with the bots through the real path (keys, joins, signed
moves, the referee, reveal), two seats of the small test engine so that building 300
of them takes seconds; the benchmark (benchmarks/archive.py) uses Mottainai.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from archive_kit import Cli, build, name, tamper

GAMES = 300
TAMPERED = 137


@pytest.fixture(scope="module")
def demo_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    archive = tmp_path_factory.mktemp("demo-archive") / "archive"
    build(archive, GAMES, engine="tally", seed="demo")
    return archive


@pytest.mark.slow
@pytest.mark.parametrize("where", ["chain", "log", "revealed"])
def test_one_tampered_game_among_300_is_found_and_named(
    cli: Cli, demo_archive: Path, where: str
) -> None:
    game = demo_archive / name(TAMPERED)
    saved = {path: path.read_bytes() for path in game.rglob("*") if path.is_file()}
    entry = tamper(game, where)
    try:
        result = cli("verify", demo_archive, "--json")  # one process per core
        assert result.code == 16, result
        assert result.err == (
            f"arbiter: error: 1 of {GAMES} games failed verification — "
            f"{game}: {result.json()['results'][TAMPERED]['error']}\n"
        )
        assert entry in result.err
        report = result.json()
        assert report["games"] == GAMES and report["passed"] == GAMES - 1
        assert [row["folder"] for row in report["results"] if not row["ok"]] == [str(game)]
        assert report["replayed"] == GAMES - 1
    finally:
        for path, data in saved.items():
            path.write_bytes(data)


@pytest.mark.slow
def test_300_games_one_and_all_processes_agree(cli: Cli, demo_archive: Path) -> None:
    one = cli("verify", demo_archive, "-j", "1", "--json")
    every = cli("verify", demo_archive, "--json")
    assert one.code == every.code == 0, (one.err, every.err)
    assert one.out == every.out
    assert one.json()["passed"] == GAMES
