"""WUT-14: ``arbiter demo --option wutai=yes`` plays and verifies at every player count."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from arbiter.cli.main import app
from arbiter.core.errors import UsageError


def _demo(tmp_path, n: int, *extra: str):
    folder = tmp_path / f"demo-{n}"
    args = ["demo", str(folder), "--game", "mottainai", "--players", str(n), "--seed", f"w{n}"]
    done = CliRunner().invoke(app, [*args, "--option", "wutai=yes", *extra])
    return folder, done


def test_WUT_14_1_demo_with_wutai_two_players(tmp_path):
    """WUT-14.1 (issue 15): two players; the manifest embeds the Wutai options and the
    setup line of every log says the list is provisional."""
    folder, done = _demo(tmp_path, 2)
    assert done.exit_code == 0, done.output
    assert "every published byte matches" in done.output
    assert "--option wutai=yes" in done.output  # the command to play it again
    manifest = json.loads((folder / "game" / "game.json").read_text())
    assert manifest["options"]["wutai"] is True
    for log in (folder / "game").glob("**/log.md"):
        assert "PROVISIONAL card list" in log.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5])
def test_WUT_14_2_demo_with_wutai_three_to_five_players(tmp_path, n):
    """WUT-14.2 (issue 15): 3, 4 and 5 players."""
    _, done = _demo(tmp_path, n)
    assert done.exit_code == 0, done.output


def test_WUT_14_3_demo_refuses_a_bad_option(tmp_path):
    """WUT-14.3: a bad --option is a usage error (exit 2 from the CLI) before the game
    is made."""
    folder, done = _demo(tmp_path, 2, "--option", "om_leave=nowhere")
    assert isinstance(done.exception, UsageError), done.output
    assert "om_leave takes return or floor" in str(done.exception)
    assert not (folder / "game").exists()


def test_WUT_14_4_the_golden_wutai_example_replays_byte_for_byte(tmp_path):
    """WUT-14.4 (issue 15): examples/mottainai-wutai (3 players, made by
    tests/golden/regenerate.py --option wutai=yes --seed golden-mottainai-wutai-6, a deal
    where a card effect's card goes under an Om work, M-R119) verifies byte for byte."""
    import shutil
    from pathlib import Path

    from arbiter.core.replay import verify

    source = Path(__file__).resolve().parents[3] / "examples" / "mottainai-wutai" / "game"
    copy = tmp_path / "game"
    shutil.copytree(source, copy)
    report = verify(copy)
    assert report.replayed and report.status == "over"
    log = (copy / "public" / "log.md").read_text()
    assert "tucks" in log
    assert "under Om 17 as an Om material (METAL) instead of their craft bench (Socks)" in log
