"""What `arbiter export` refuses, leaving every byte of the game as it was: a game not
revealed yet, and a game that does not verify. And where a game's header comes from
outside a tournament: the --event, --round and --table options."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cli.clikit import Cli, error_line, ok


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes (a change of name, content or count shows)."""
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_an_unrevealed_game_is_refused_and_left_unchanged(
    unrevealed: Path, cli: Cli, tmp_path: Path
) -> None:
    game = tmp_path / "game"
    shutil.copytree(unrevealed, game)
    before = snapshot(game)
    said = error_line(cli("export", game), 17)
    assert f"{game} is not revealed: reveal it first (`arbiter reveal {game}`)" in said
    out = tmp_path / "record.json"
    error_line(cli("export", game, "-o", out), 17)
    assert not out.exists()
    record = tmp_path / "given.json"
    record.write_text("{}", encoding="utf-8")
    assert "is not revealed: reveal it first" in error_line(
        cli("verify", game, "--record", record), 17
    )
    assert snapshot(game) == before


def test_a_game_that_does_not_verify_has_no_record(
    revealed: dict[str, Path], cli: Cli, tmp_path: Path
) -> None:
    game = tmp_path / "game"
    shutil.copytree(revealed["momiji"], game)
    log = game / "public" / "log.md"
    log.write_text(log.read_text(encoding="utf-8").replace("bob", "bib", 1), encoding="utf-8")
    before = snapshot(game)
    out = tmp_path / "record.json"
    said = error_line(cli("export", game, "-o", out), 16)
    assert f"{game} does not verify, so it has no record: " in said
    assert "public/log.md differs" in said
    assert not out.exists() and snapshot(game) == before


def test_the_place_of_a_game_outside_a_tournament(
    revealed: dict[str, Path], cli: Cli, tmp_path: Path
) -> None:
    game = revealed["momiji"]
    out = tmp_path / "record.json"
    ok(cli("export", game, "--event", "Friday club", "--round", 2, "--table", 3, "-o", out))
    record = json.loads(out.read_text(encoding="utf-8"))
    assert (record["event"], record["round"], record["table"]) == ("Friday club", 2, 3)
    ok(cli("verify", game, "--record", out))
    refused = cli("export", game, "--round", 0)  # Typer's own range check: its usage text
    assert refused.code == 2 and "'--round': 0 is not in the range" in refused.err
    assert "--event must be 1 to 200 characters" in error_line(
        cli("export", game, "--event", "x" * 201), 2
    )


def test_record_checks_one_game(revealed: dict[str, Path], cli: Cli, tmp_path: Path) -> None:
    record = tmp_path / "record.json"
    record.write_text("{}", encoding="utf-8")
    said = error_line(
        cli("verify", revealed["momiji"], revealed["mottainai"], "--record", record), 2
    )
    assert "--receipt, --record, --seat and --key check one game folder" in said
