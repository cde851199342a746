"""docs/tournaments.md, "The clock": the form of ``ARBITER_NOW``, checked through the CLI.

Each value of the page's table is given to ``arbiter new`` (which stamps ``created`` with
the referee's clock): an accepted value becomes ``created`` as is, a refused one stops the
command with one line naming ``ARBITER_NOW`` and exit 2, and no folder is made.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "tournaments.md"


def rows() -> list[tuple[str, str]]:
    body = re.search(r"^```text arbiter-now\n(.*?)^```$", DOC.read_text(), re.MULTILINE | re.DOTALL)
    assert body is not None, "docs/tournaments.md needs its ```text arbiter-now block"
    out = [tuple(line.split(None, 1)) for line in body.group(1).splitlines()]
    assert {verdict for verdict, _ in out} == {"accepted", "refused"}
    return out  # type: ignore[return-value]


def new_game(tmp_path: Path, now: str) -> subprocess.CompletedProcess[str]:
    keys = tmp_path / "keys"
    if not keys.exists():
        for seat in ("alice", "bob"):
            subprocess.run(
                [sys.executable, "-m", "arbiter", "keygen", seat, "--dir", keys],
                check=True,
                capture_output=True,
            )
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "arbiter",
            "new",
            tmp_path / "g",
            "--game",
            "mottainai",
            "--seat",
            f"alice={keys / 'alice.pub'}",
            "--seat",
            f"bob={keys / 'bob.pub'}",
        ],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "ARBITER_NOW": now},
    )


@pytest.mark.parametrize(("verdict", "value"), rows())
def test_arbiter_now_takes_exactly_the_documented_form(
    verdict: str, value: str, tmp_path: Path
) -> None:
    from arbiter.core.clock import now_utc
    from arbiter.core.errors import UsageError

    if verdict == "accepted":
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("ARBITER_NOW", f"  {value} ")  # spaces around it are ignored
            assert now_utc() == value
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARBITER_NOW", value)
        with pytest.raises(UsageError) as caught:
            now_utc()
    assert "ARBITER_NOW" in caught.value.message and "\n" not in caught.value.message


def test_through_the_command_line(tmp_path: Path) -> None:
    accepted = next(value for verdict, value in rows() if verdict == "accepted")
    refused = next(value for verdict, value in rows() if verdict == "refused")
    done = new_game(tmp_path, refused)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done
    assert "ARBITER_NOW" in done.stderr and not (tmp_path / "g").exists()
    done = new_game(tmp_path, accepted)
    assert done.returncode == 0, done
    assert json.loads((tmp_path / "g" / "game.json").read_text())["created"] == accepted
