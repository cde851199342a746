"""Private files in the repository: junk a player pushes under referee/ is repaired away;
the referee's real secret or key found there stops the desk (the game is compromised)."""

from __future__ import annotations

import pytest

from arbiter.core.errors import UsageError
from git.gitkit import World, git


def _push_private(world: World, rel: str, data: bytes) -> None:
    player = world.player("alice")
    target = player.folder / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    git(player.clone, "add", "-f", "--", str(target.relative_to(player.clone)))
    git(player.clone, "commit", "-q", "-m", "alice: a file under referee/")
    player.push()


def test_junk_under_referee_is_repaired_away(world: World) -> None:
    _push_private(world, "referee/secret", b"0" * 64 + b"\n")
    done = world.round()
    assert "referee/secret" in done.repaired
    assert not [p for p in world.remote_files() if p.startswith("referee/")]
    world.assert_published()


@pytest.mark.parametrize("name", ["secret", "key"])
def test_the_real_secret_in_the_repository_stops_the_desk(world: World, name: str) -> None:
    before = world.head()
    _push_private(world, f"referee/{name}", (world.secret / "referee" / name).read_bytes())
    pushed = world.head()
    with pytest.raises(UsageError, match=f"holds the referee's own referee/{name}: the game is compromised"):
        world.round()
    assert world.head() == pushed != before  # the desk committed nothing
    refused = world.run()
    assert refused.returncode == 2 and "compromised" in refused.stderr
