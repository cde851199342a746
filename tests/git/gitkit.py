"""Real git for the git desk's tests: a bare repository, clones, a sealed game, players.

- ``World``: a bare repository on disk (branch ``main``), the referee's clone, the
  referee's sealed game folder outside both (``secret``), published by a first desk round;
  ``world.player(seat)`` clones the repository for a player.
- ``Player``: pushes files into the inbox from its own clone (pulling and trying again
  when someone pushed meanwhile, as a person would), reads its sealed state file from its
  clone with its own key, builds sealed moves.
- Every git command runs without the user's or system's git configuration.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers.tables import CREATED, REFEREE_SEED, SECRET, from_template, make_keys

from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_join, make_move, seal_move
from arbiter.core.referee import new_game, submit
from arbiter.desks.git.desk import GitDesk, Round, Settings
from arbiter.desks.git.owned import ABOVE, GAME_RULES

TESTS = Path(__file__).resolve().parents[1]
GAME = "games/g1"
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "a player",
    "GIT_AUTHOR_EMAIL": "player@example.test",
    "GIT_COMMITTER_NAME": "a player",
    "GIT_COMMITTER_EMAIL": "player@example.test",
    "LC_ALL": "C",
    "GIT_TERMINAL_PROMPT": "0",
}
# The desk under test runs in this process too: conftest.py (and the benchmark) keep it
# off the user's git configuration with these.
ISOLATED = {k: v for k, v in GIT_ENV.items() if k.startswith("GIT_CONFIG")}


def git(cwd: Path, *args: str, stdin: bytes | None = None, check: bool = True) -> str:
    """Run git in ``cwd``; return its output (text, stripped)."""
    done = subprocess.run(
        ["git", *args], cwd=cwd, input=stdin, capture_output=True,
        env={**os.environ, **GIT_ENV}, check=False,
    )
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr.decode()}")
    return done.stdout.decode("utf-8", "replace").strip()


def cli_env() -> dict[str, str]:
    env = {**os.environ, **GIT_ENV}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    env["ARBITER_ENGINES"] = "tally=testgame:TallyEngine"
    env.pop("ARBITER_SECRET_DIR", None)
    return env


def arbiter(*args: Any, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real ``arbiter`` command in its own process."""
    return subprocess.run(
        [sys.executable, "-m", "arbiter", *map(str, args)], capture_output=True, text=True,
        env=env or cli_env(), cwd=cwd, timeout=300, check=False,
    )


def blobs_at(repo: Path, rev: str, path: str) -> dict[str, tuple[str, bytes]]:
    """Every file under ``path`` at ``rev``: relative path -> (mode, bytes)."""
    listing = git(repo, "ls-tree", "-r", "-z", rev, "--", path)
    found = {}
    for record in listing.split("\0"):
        if not record:
            continue
        meta, name = record.split("\t", 1)
        mode, _, sha = meta.split()
        data = subprocess.run(["git", "cat-file", "blob", sha], cwd=repo, capture_output=True,
                              env={**os.environ, **GIT_ENV}, check=True).stdout
        found[name[len(path) + 1:]] = (mode, data)
    return found


@dataclass
class Player:
    """One player's clone and key."""

    seat: str
    clone: Path
    key: Path
    game: str = GAME

    @property
    def folder(self) -> Path:
        return self.clone / self.game

    def pull(self) -> None:
        git(self.clone, "pull", "-q", "--rebase", "origin", "main")

    def state(self) -> dict[str, Any]:
        """The seat's state file as its clone has it (sealed: opened with its key)."""
        return load_state(self.folder / "players" / self.seat / "state.json.age", self.key)

    def move(self, actions: list[dict[str, Any]] | None = None) -> bytes:
        """A sealed move from the clone's state file: ``actions``, or the first legal one."""
        state = self.state()
        chosen = actions if actions is not None else [state["legal"][0]]
        return seal_move(make_move(state, self.key, chosen), self.folder / "game.json")

    def push_file(self, name: str, data: bytes, message: str | None = None, tries: int = 50) -> str:
        """Commit ``inbox/<name>`` and push it (pull and push again when refused)."""
        target = self.folder / "inbox" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        git(self.clone, "add", "--", str(target.relative_to(self.clone)))
        git(self.clone, "commit", "-q", "-m", message or f"{self.seat}: {name}")
        return self.push(tries)

    def push(self, tries: int = 50) -> str:
        for _ in range(tries):
            done = subprocess.run(["git", "push", "-q", "origin", "HEAD:main"], cwd=self.clone,
                                  capture_output=True, env={**os.environ, **GIT_ENV}, check=False)
            if done.returncode == 0:
                return git(self.clone, "rev-parse", "HEAD")
            self.pull()
        raise AssertionError(f"{self.seat} could not push")


@dataclass
class World:
    """A bare repository, the referee's clone and the referee's sealed game folder."""

    tmp: Path
    bare: Path
    referee: Path
    secret: Path
    keys: dict[str, Path]
    seats: list[str]
    game: str = GAME
    players: dict[str, Player] = field(default_factory=dict)
    kept: list[GitDesk] = field(default_factory=list)

    @property
    def gd(self) -> GameDir:
        return GameDir(self.secret)

    def settings(self, **changes: Any) -> Settings:
        values: dict[str, Any] = {"repo": self.referee, "game_path": self.game,
                                  "secret_dir": self.secret, "push": True}
        values.update(changes)
        return Settings(**values)

    def desk(self, **changes: Any) -> GitDesk:
        return GitDesk(self.settings(**changes))

    def round(self, **changes: Any) -> Round:
        """One desk round in this process (``--once --push``); the same desk each time,
        as a running ``arbiter git run`` is, unless ``changes`` ask for another."""
        if changes:
            return self.desk(**changes).round()
        if not self.kept:
            self.kept.append(self.desk())
        return self.kept[0].round()

    def run(self, *extra: str) -> subprocess.CompletedProcess[str]:
        """``arbiter git run REPO --game PATH --secret-dir DIR --once --push`` for real."""
        return arbiter("git", "run", self.referee, "--game", self.game, "--secret-dir",
                       self.secret, "--once", "--push", *extra)

    def player(self, seat: str, key: Path | None = None, pull: bool = True) -> Player:
        """``seat``'s clone (made on first use), pulled unless ``pull`` is off."""
        if seat not in self.players:
            clone = self.tmp / "clones" / seat
            git(self.tmp, "clone", "-q", str(self.bare), str(clone))
            self.players[seat] = Player(seat, clone, key or self.keys[seat], self.game)
        elif pull:
            self.players[seat].pull()
        return self.players[seat]

    def head(self) -> str:
        return git(self.bare, "rev-parse", "main")

    def remote_files(self, rev: str = "main") -> dict[str, tuple[str, bytes]]:
        return blobs_at(self.bare, rev, self.game)

    def expected(self) -> dict[str, bytes]:
        """What the desk must publish (computed here, not with the desk's code): the
        referee's folder without referee/, its signed receipts as receipts/entry-<N>.json,
        the desk's text receipts (referee/git/receipts/) under receipts/, and the desk's
        own .gitattributes (its rules are the desk's; test_desk_repo_files.py checks what
        they do)."""
        found = {".gitattributes": GAME_RULES}
        for path in sorted(self.secret.rglob("*")):
            rel = path.relative_to(self.secret).as_posix()
            if path.is_file() and not rel.startswith("referee/"):
                assert not path.name.endswith(".tmp"), f"a temporary file is left: {rel}"
                found[rel] = path.read_bytes()
        for path in (self.secret / "referee" / "receipts").glob("*.json"):
            found[f"receipts/entry-{path.stem}.json"] = path.read_bytes()
        texts = self.secret / "referee" / "git" / "receipts"
        for path in texts.rglob("*") if texts.is_dir() else ():
            if path.is_file():
                found[f"receipts/{path.relative_to(texts).as_posix()}"] = path.read_bytes()
        return found

    def assert_published(self) -> None:
        """The repository's game folder outside the inbox is byte for byte the expected one."""
        remote = {p: d for p, (m, d) in self.remote_files().items() if not p.startswith("inbox/")}
        modes = {m for p, (m, _) in self.remote_files().items() if not p.startswith("inbox/")}
        expected = self.expected()
        assert sorted(remote) == sorted(expected)
        assert remote == expected
        assert modes <= {"100644"}
        self.assert_owned()

    def assert_owned(self, rev: str = "main") -> None:
        """Above the game folder: the desk's notice in each .gitattributes on the way, and
        no .gitmodules or .lfsconfig."""
        parts = self.game.split("/")
        for depth in range(len(parts)):
            path = "/".join([*parts[:depth], ".gitattributes"])
            assert git(self.bare, "ls-tree", rev, "--", path).split()[:2] == ["100644", "blob"]
            assert git(self.bare, "cat-file", "blob", f"{rev}:{path}") == ABOVE.decode().strip()
        assert git(self.bare, "ls-tree", rev, "--", ".gitmodules", ".lfsconfig") == ""

    def inbox(self) -> list[str]:
        return sorted(p for p in self.remote_files() if p.startswith("inbox/"))

    def receipt(self, name: str) -> str:
        return self.remote_files()[f"receipts/{name}.txt"][1].decode().strip()

    def log(self, rev: str = "main", count: int = 50) -> list[dict[str, str]]:
        """The newest commits: subject, body, author and committer."""
        out = git(self.bare, "log", f"-{count}", "--format=%x01%H%x02%an <%ae>%x02%cn <%ce>%x02%P%x02%s%x02%b", rev)
        found = []
        for record in out.split("\x01")[1:]:
            sha, author, committer, parents, subject, body = record.split("\x02")
            found.append({"sha": sha, "author": author, "committer": committer,
                          "parents": parents, "subject": subject, "body": body.strip()})
        return found


def sealed_game(folder: Path, keys: dict[str, Path], engine: str, game_id: str) -> None:
    """A sealed game every seat has joined."""
    new_game(folder, engine, [(s, f"{keys[s]}.pub") for s in keys], {}, game_id=game_id,
             created=CREATED, secret=SECRET, referee_seed=REFEREE_SEED, sealed=True)
    for seat, key in keys.items():
        submit(folder, pretty(make_join(folder / "game.json", seat, key)), f"join-{seat}")


def make_world(tmp: Path, engine: str = "tally", seats: tuple[str, ...] = ("alice", "bob"),
               game_id: str = "sealed-git", joined: bool = True) -> World:
    """Build the world and publish the game with a first desk round (pushed)."""

    def build(base: Path) -> None:
        keys = make_keys(base / "keys", list(seats))
        if joined:
            sealed_game(base / "secret" / "g1", keys, engine, game_id)
        else:
            new_game(base / "secret" / "g1", engine, [(s, f"{keys[s]}.pub") for s in keys], {},
                     game_id=game_id, created=CREATED, secret=SECRET,
                     referee_seed=REFEREE_SEED, sealed=True)

    from_template(("git-world", engine, seats, game_id, joined), tmp, build)
    bare = tmp / "remote.git"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(bare))
    git(bare, "config", "core.logAllRefUpdates", "always")
    referee = tmp / "referee-clone"
    git(tmp, "clone", "-q", str(bare), str(referee))
    keys = {seat: tmp / "keys" / seat for seat in seats}
    world = World(tmp, bare, referee, tmp / "secret" / "g1", keys, list(seats))
    world.round()
    return world


def copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, symlinks=True)
