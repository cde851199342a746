"""``arbiter keygen`` killed at each of its write points (issue 24, item 4).

Each key file appears whole or not at all, the private key first; a run killed between
the two leaves the private key alone, and the same command then writes its public key
(the pair matches: ``ssh-keygen -y`` derives the same line) instead of refusing. No
temporary file is left, and a second key is never made over the first.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers.crash import COUNTED, KILLED, arbiter
from helpers.tools import needs


def _count() -> int:
    probe = arbiter("keygen", "probe", "--dir", Path("/tmp") / "arbiter-keygen-count", failpoint="count")
    found = COUNTED.search(probe.stderr)
    assert probe.returncode == 0 and found, probe.stderr
    return int(found.group(1))


@needs("ssh-keygen")
def test_keygen_killed_at_every_write_point_finishes_its_pair(tmp_path: Path) -> None:
    import shutil

    shutil.rmtree(Path("/tmp") / "arbiter-keygen-count", ignore_errors=True)
    points = _count()
    shutil.rmtree(Path("/tmp") / "arbiter-keygen-count", ignore_errors=True)
    assert points == 4  # two files, each before and after it is linked into place
    for point in range(1, points + 1):
        folder = tmp_path / f"k{point}"
        killed = arbiter("keygen", "alice", "--dir", folder, failpoint=point)
        assert killed.returncode == KILLED, (point, killed.stderr)
        left = sorted(p.name for p in folder.iterdir())
        assert left in ([], ["alice"], ["alice", "alice.pub"]) or all(
            n.endswith(".keytmp") or n in ("alice", "alice.pub") for n in left
        ), (point, left)
        private_before = (folder / "alice").read_bytes() if (folder / "alice").exists() else None
        whole = (folder / "alice.pub").exists()
        again = arbiter("keygen", "alice", "--dir", folder)
        if whole:
            # Killed after both files were in place: the pair is whole, a rerun refuses.
            assert again.returncode != 0 and "already exists" in again.stderr, again.stderr
        else:
            assert again.returncode == 0, (point, again.stderr)
            finished = "had no public key" in again.stdout
            assert finished == (private_before is not None), (point, again.stdout)
        assert sorted(p.name for p in folder.iterdir()) == ["alice", "alice.pub"], point
        if private_before is not None:  # the killed run's key was kept, not replaced
            assert (folder / "alice").read_bytes() == private_before
        derived = subprocess.run(
            ["ssh-keygen", "-y", "-f", str(folder / "alice")], capture_output=True, text=True, check=True
        ).stdout.split()[:2]
        assert (folder / "alice.pub").read_text().split()[:2] == derived, point
        assert (folder / "alice").stat().st_mode & 0o777 == 0o600


def test_a_lone_private_key_of_another_kind_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "bob").write_text("not a key\n")
    refused = arbiter("keygen", "bob", "--dir", tmp_path)
    assert refused.returncode == 2 and "already exists" in refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bob"]
    assert (tmp_path / "bob").read_text() == "not a key\n"
