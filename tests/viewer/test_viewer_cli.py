"""``arbiter html`` on the command line, and ``arbiter demo``'s replay page."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from cli.clikit import Result, error_line, ok
from viewer_kit import EXAMPLES

from arbiter.cli.main import run
from arbiter.viewer.page import embedded


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Any:
    def invoke(*args: Any) -> Result:
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            run([str(arg) for arg in args])
        out, err = capsys.readouterr()
        code = info.value.code
        return Result(0 if code is None else int(code), out, err)

    return invoke


def test_html_writes_every_viewer_after_the_reveal(cli: Any, tmp_path: Path) -> None:
    target = tmp_path / "page.html"
    result = ok(cli("html", EXAMPLES / "mottainai" / "game", "-o", target))
    entries = len((EXAMPLES / "mottainai" / "game" / "chain.jsonl").read_text().splitlines())
    assert f"{entries} entries as seen by spectator, alice, bob" in result.out
    assert embedded(target.read_text())["viewers"] == [None, "alice", "bob"]


def test_html_for_one_seat(cli: Any, tmp_path: Path) -> None:
    target = tmp_path / "bob.html"
    ok(cli("html", EXAMPLES / "momiji" / "game", "-o", target, "--seat", "bob"))
    assert embedded(target.read_text())["viewers"] == ["bob"]


def test_html_refusals(
    cli: Any, tmp_path: Path, before_reveal: dict[str, tuple[Path, Path]]
) -> None:
    target = tmp_path / "x.html"
    error_line(cli("html", EXAMPLES / "motcoin" / "game", "-o", target, "--seat", "zed"), 6)
    referee_copy = before_reveal["mottainai"][0]
    assert "after the reveal" in error_line(
        cli("html", referee_copy, "-o", target, "--seat", "alice"), 17
    )
    published = tmp_path / "published"
    shutil.copytree(referee_copy, published)
    shutil.rmtree(published / "referee")
    error_line(cli("html", published, "-o", target), 17)
    error_line(cli("html", tmp_path / "nowhere", "-o", target), 17)
    assert not target.exists()
    ok(cli("html", referee_copy, "-o", target))
    assert embedded(target.read_text())["viewers"] == [None]


def test_demo_writes_and_prints_its_replay_page(cli: Any, tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    result = ok(cli("demo", folder, "--game", "momiji", "--seed", "viewer"))
    page = folder / "replay.html"
    assert f"watch a replay  {page}" in result.out
    assert embedded(page.read_text())["viewers"] == [None, "alice", "bob"]
