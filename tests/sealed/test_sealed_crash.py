"""A sealed game heals from a crash at any write point of ``submit``, like a plain one.

age output is randomized, so a healed folder cannot be compared byte for byte with an
uninterrupted run; instead every seat opens its files with its key and finds them at
the chain head (``verify --seat --key``), no plain per-seat file or temporary is left,
and a second repair changes nothing.
"""

from __future__ import annotations

import json
import shutil
import signal

import pytest
from cli.clikit import subprocess_env
from helpers.sealed import sealed_started
from helpers.tables import snapshot

from arbiter.core.player import seal_move


def _run(*args, failpoint=None):
    import subprocess
    import sys

    env = subprocess_env()
    env.pop("ARBITER_FAILPOINT", None)
    if failpoint is not None:
        env["ARBITER_FAILPOINT"] = str(failpoint)
    return subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )


@pytest.mark.slow  # about 40 s: dozens of real processes
def test_a_sealed_submit_killed_at_every_write_point_heals(tmp_path):
    table = sealed_started(tmp_path / "base", 2)
    seat = table.turn()
    move = table.move_file(seat, [table.state(seat)["legal"][0]])
    sealed = tmp_path / "move.json.age"
    sealed.write_bytes(seal_move(move, table.gd.manifest))
    killed = 0
    for point in range(1, 60):
        root = tmp_path / f"at-{point}"
        shutil.copytree(table.root, root, symlinks=True)
        result = _run("submit", root, sealed, failpoint=point)
        if result.returncode == 0:
            break  # past the last write point: the submit finished
        assert result.returncode == -signal.SIGKILL, result.stderr
        killed += 1
        repaired = _run("repair", root)
        assert repaired.returncode == 0, repaired.stderr
        again = _run("submit", root, sealed)
        assert again.returncode in (0, 9), again.stderr  # accepted now, or already was
        for name in table.seats:
            check = _run("verify", root, "--seat", name, "--key", table.keys[name])
            assert check.returncode == 0, f"point {point}: {check.stderr}"
        assert not list(root.rglob("*.tmp")), point
        assert not list(root.glob("players/*/state.json")), point
        assert not list(root.glob("players/*/log.md")), point
        chain = (root / "chain.jsonl").read_text().splitlines()
        assert json.loads(chain[-1])["seat"] == seat
        before = snapshot(root)
        assert _run("repair", root).returncode == 0
        assert snapshot(root) == before, f"point {point}: a second repair changed the folder"
        shutil.rmtree(root)
    assert killed >= 10, f"only {killed} write points: the failpoint hook did not fire"
