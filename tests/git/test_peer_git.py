"""A peer game through a git repository (docs/peer.md §6, ``--via git``): three players,
each with its own clone of one bare repository and no referee anywhere. Each command
pulls first; each new file is committed and pushed. A player who pushes while another
already has is put on top (``git pull --rebase``) and tries again, never forcing: that
is the player desk's own ``GitTransport.publish``, tested with it."""

from __future__ import annotations

from pathlib import Path

from git.gitkit import arbiter, cli_env, git

SEATS = ["alice", "bob", "carol"]


def _setup(tmp_path: Path) -> tuple[dict[str, str], Path]:
    env = {**cli_env(), "ARBITER_PEER_HOME": str(tmp_path / "home")}
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(origin), str(seed))
    git(seed, "commit", "-q", "--allow-empty", "-m", "a shared repository")
    git(seed, "push", "-q", "origin", "main")
    for seat in SEATS:
        git(tmp_path, "clone", "-q", str(origin), str(tmp_path / seat))
        done = arbiter("keygen", seat, "--dir", tmp_path / "keys", env=env)
        assert done.returncode == 0, done.stderr
    return env, origin


def _run(env: dict[str, str], *args: object) -> str:
    done = arbiter(*args, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_three_clones_deal_and_play_with_no_referee(tmp_path: Path) -> None:
    env, origin = _setup(tmp_path)
    keys = tmp_path / "keys"
    seats = [arg for s in SEATS for arg in ("--seat", f"{s}={keys / s}.pub")]
    _run(
        env,
        "peer",
        "new",
        tmp_path / "alice" / "friday",
        "--game",
        "motcoin",
        *seats,
        "--via",
        "git",
    )
    for seat in SEATS:
        _run(
            env,
            "peer",
            "join",
            tmp_path / seat / "friday",
            "--seat",
            seat,
            "--key",
            keys / seat,
            "--via",
            "git",
        )
    for _ in range(3):  # each seat's shuffle in seat order, then the deal's openings
        for seat in SEATS:
            _run(env, "peer", "play", tmp_path / seat / "friday", "--seat", seat, "--key", keys / seat,
                 "--via", "git")  # fmt: skip
    shown = _run(env, "peer", "play", tmp_path / "alice" / "friday", "--seat", "alice", "--key",
                 keys / "alice", "--via", "git")  # fmt: skip
    assert "your decisions" in shown
    _run(env, "peer", "play", tmp_path / "alice" / "friday", "--seat", "alice", "--key", keys / "alice",
         "--via", "git", "--pick", "1")  # fmt: skip
    # Bob pulls and sees alice's decision; every file on the remote is signed and checked.
    bob = _run(env, "peer", "status", tmp_path / "bob" / "friday", "--seat", "bob", "--via", "git",
               "--log", "40")  # fmt: skip
    assert "alice" in bob.split("Mot Coin, round 1")[0]
    files = git(origin, "ls-tree", "-r", "--name-only", "main", "friday/messages").splitlines()
    assert len(files) >= 3 * 3 + 1 and all(f.endswith(".json") for f in files)
    # Nobody's secret is in the repository.
    assert "secret" not in git(origin, "ls-tree", "-r", "--name-only", "main")
    # Carol's clone is behind: her next command pulls before it reads.
    carol = _run(env, "peer", "status", tmp_path / "carol" / "friday", "--via", "git")
    assert "waits for" in carol


def test_a_new_empty_repository_takes_the_first_game(tmp_path: Path) -> None:
    """A repository just made for the game has no branch yet: every clone of it is empty,
    and the first pull finds nothing to take instead of failing. ``peer new`` pushes the
    branch; the other players' joins pull it."""
    env = {**cli_env(), "ARBITER_PEER_HOME": str(tmp_path / "home")}
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    keys = tmp_path / "keys"
    for seat in SEATS[:2]:
        git(tmp_path, "clone", "-q", str(origin), str(tmp_path / seat))
        assert arbiter("keygen", seat, "--dir", keys, env=env).returncode == 0
    seats = [arg for s in SEATS[:2] for arg in ("--seat", f"{s}={keys / s}.pub")]
    made = _run(env, "peer", "new", tmp_path / "alice" / "t", "--game", "mottainai", *seats,
                "--via", "git")  # fmt: skip
    assert "peer game t" in made
    joined = _run(env, "peer", "join", tmp_path / "bob" / "t", "--seat", "bob",
                  "--key", keys / "bob", "--via", "git")  # fmt: skip
    assert "sent 000000-bob.json" in joined
    log = git(origin, "log", "--format=%s", "main")
    assert "bob: 000000-bob.json" in log
