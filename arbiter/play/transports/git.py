"""Play through a shared git repository: pull, read the seat's sealed files, push a
sealed move into the game's inbox.

Git runs as the user's own ``git`` with the user's configuration (their name, their
credentials, their ssh keys). A push that someone else's push beat is tried again after
``git pull --rebase``, at most ``TRIES`` times, and never forced; a delivery that cannot
be pushed takes its commit back, so the clone is as it was and the move stays in the
player's outbox: nothing is half-sent.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from arbiter.core.errors import ArbiterError, NotReady, UsageError
from arbiter.core.gamedir import atomic_write
from arbiter.core.safeio import shown, visible
from arbiter.play.transports.base import Fetched, Transport, plain_name

TRIES = 5
TIMEOUT = 300  # seconds for one git command: a network that hangs is an error, not a wait
# What git says when the remote or the credentials are wrong (its messages are not
# translated under LC_ALL=C, which every command here sets).
_AUTH = ("authentication failed", "permission denied", "could not read username",
         "could not read password", "terminal prompts disabled", "returned error: 403")
_NO_REMOTE = ("does not appear to be a git repository", "no such remote", "repository not found",
              "no configured push destination")
_LOCAL = ("conflict", "unstaged changes", "uncommitted changes", "would be overwritten",
          "not possible to fast-forward", "diverg", "needs merge", "untracked working tree")


class GitTransport(Transport):
    """One seat of a game in a git repository, through the player's clone."""

    name = "git"
    sealed = True

    def __init__(
        self, clone: Path, path: str, seat: str, key: Path | None,
        env: Mapping[str, str] | None = None,
    ):
        """``path``: the game folder inside the repository (``games/friday``); ``env``:
        variables added to the user's environment for git (e.g. ``GIT_TERMINAL_PROMPT=0``
        where no terminal can answer a prompt)."""
        self.clone = Path(clone)
        self.path = path.strip("/")
        self.seat = seat
        self.key = key
        self.env = dict(env or {})

    # -- fetch ---------------------------------------------------------------------
    def fetch(self) -> Fetched:
        """Pull (fast-forward; rebase the player's own unpushed commits), then read the
        seat's sealed state and log with the key, and the chain's last time."""
        from arbiter.core.chain import last_time
        from arbiter.core.player import read_state_bytes

        self._pull()
        base = self.clone / self.path
        folder = base / "players" / self.seat
        state_path = _first(folder / "state.json.age", folder / "state.json")
        if state_path is None:
            raise NotReady(
                f"{shown(base)} has no state file for seat {self.seat} yet: wait until the "
                "desk publishes it (join first if you have not), then try again"
            )
        state = read_state_bytes(state_path, self.key)
        log_path = _first(folder / "log.md.age", folder / "log.md")
        log = read_state_bytes(log_path, self.key).decode("utf-8", "replace") if log_path else None
        chain = base / "chain.jsonl"
        time = last_time(chain) if chain.is_file() else None
        return Fetched(state, log, time, f"{self.path}/players/{self.seat}/{state_path.name}")

    def pull(self) -> None:
        """Bring the clone up to date (fast-forward; the player's own unpushed commits
        rebased on top)."""
        self._pull()

    def _pull(self) -> None:
        self._check_clone()
        remote, merge = self._upstream()
        rebase = self._ahead() > 0  # the player's own commits not pushed: replay them on top
        done = self._git("pull", "-q", "--rebase" if rebase else "--ff-only", network=True)
        if done.returncode != 0:
            self._abort_rebase()
            if self._unborn(remote, merge):
                return  # a repository nobody has pushed to yet: nothing to take
            raise self._failure("git pull", done, remote)

    def _unborn(self, remote: str, merge: str) -> bool:
        """Whether the remote has no such branch yet (a new, empty repository: the first
        push makes it). ``ls-remote --exit-code`` answers 2 when no ref matches."""
        listed = self._git("ls-remote", "--exit-code", remote, merge, network=True)
        return listed.returncode == 2

    # -- deliver -------------------------------------------------------------------
    def deliver(self, name: str, data: bytes) -> str:
        """Commit ``PATH/inbox/<name>`` (a file sealed to the referee) and push it."""
        from arbiter.core import sealing

        plain_name(name)
        if not name.endswith(sealing.SEALED_SUFFIX) or not sealing.is_sealed(data):
            raise UsageError(
                f"{name} is not sealed: a git game takes only files sealed to the referee "
                f"(NAME{sealing.SEALED_SUFFIX})"
            )
        self._check_clone()
        rel = f"{self.path}/inbox/{name}"
        target = self.clone / rel
        if target.is_file() and target.read_bytes() != data:
            raise UsageError(
                f"{rel} already exists in {shown(self.clone)} with other content: "
                "wait for the desk to take it, or remove it with git"
            )
        return self.publish(rel, data, f"{self.seat}: move")

    def publish(self, rel: str, data: bytes, message: str) -> str:
        """Commit the file ``rel`` of the repository with ``data`` and push it: tried again
        after someone else's push, never forced; a push that cannot be made takes the
        commit and the file back, leaving the clone as it was."""
        self._check_clone()
        remote, merge = self._upstream()
        target = self.clone / rel
        if not self._committed(rel):  # else a delivery cut short committed it: push that
            atomic_write(target, data)
            done = self._git("add", "--", rel)
            if done.returncode == 0:
                done = self._git("commit", "-q", "-m", message, "--", rel)
            if done.returncode != 0:
                self._undo(rel, message)
                raise self._failure("git commit", done, remote)
        branch = merge.removeprefix("refs/heads/")
        for attempt in range(1, TRIES + 1):
            pushed = self._git("push", "--porcelain", remote, f"HEAD:{merge}", network=True)
            if pushed.returncode == 0:
                return f"pushed {rel} to {remote}/{branch}"
            if not _beaten(pushed) or attempt == TRIES:
                break
            # Someone pushed first: take their commits under ours and try again.
            pulled = self._git("pull", "-q", "--rebase", network=True)
            if pulled.returncode != 0:
                self._abort_rebase()
                self._undo(rel, message)
                raise self._failure("git pull --rebase", pulled, remote)
        self._undo(rel, message)
        if _beaten(pushed):
            raise NotReady(
                f"{remote} took other pushes before {TRIES} tries of yours: nothing was sent; "
                "try again in a moment"
            )
        raise self._failure("git push", pushed, remote)

    def _undo(self, rel: str, message: str) -> None:
        """Take back the delivery's commit (only when it is the newest, holds just this
        file and is not on the remote) and the file, leaving the clone as it was before:
        the move stays in the player's outbox."""
        head = self._git("log", "-1", "--format=%s")
        files = self._git("diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD")
        if (
            head.returncode == 0
            and head.stdout.decode("utf-8", "replace").strip() == message
            and files.stdout.decode("utf-8", "surrogateescape").strip().split("\n") == [rel]
            and not self._on_remote("HEAD")
        ):
            self._git("reset", "-q", "--soft", "HEAD~1")
        self._git("reset", "-q", "--", rel)  # unstaged
        with contextlib.suppress(FileNotFoundError):
            (self.clone / rel).unlink()

    # -- git -----------------------------------------------------------------------
    def _git(
        self, *args: str, network: bool = False
    ) -> subprocess.CompletedProcess[bytes]:
        env = {**os.environ, **self.env}
        env["LC_ALL"] = "C"  # git's messages untranslated: they are matched below
        try:
            return subprocess.run(
                ["git", *args], cwd=self.clone, capture_output=True, env=env,
                timeout=TIMEOUT, check=False, stdin=subprocess.DEVNULL,
            )
        except FileNotFoundError:
            raise UsageError("git is not installed: install it to play through git") from None
        except subprocess.TimeoutExpired:
            what = "the remote did not answer" if network else "git hung"
            raise NotReady(
                f"git {args[0]} in {shown(self.clone)} did not finish in {TIMEOUT} s ({what}): "
                "check the network, then try again"
            ) from None

    def _check_clone(self) -> None:
        if not self.clone.is_dir():
            raise UsageError(f"{shown(self.clone)} does not exist: clone the game's repository there")
        done = self._git("rev-parse", "--is-inside-work-tree")
        if done.returncode != 0 or done.stdout.strip() != b"true":
            raise UsageError(f"{shown(self.clone)} is not a git clone: give the folder `git clone` made")

    def _upstream(self) -> tuple[str, str]:
        """The current branch's remote and remote branch (``origin``, ``refs/heads/main``)."""
        branch = self._git("symbolic-ref", "-q", "--short", "HEAD")
        if branch.returncode != 0:
            raise UsageError(
                f"{shown(self.clone)} is not on a branch: `git switch main` (the game's branch) in it"
            )
        name = branch.stdout.decode("utf-8", "replace").strip()
        remote = self._git("config", "--get", f"branch.{name}.remote").stdout.decode().strip()
        merge = self._git("config", "--get", f"branch.{name}.merge").stdout.decode().strip()
        if not remote or not merge:
            raise UsageError(
                f"branch {visible(name)[:60]} of {shown(self.clone)} has no upstream: run "
                f"`git branch --set-upstream-to origin/{visible(name)[:60]}` in it"
            )
        return remote, merge

    def _ahead(self) -> int:
        done = self._git("rev-list", "--count", "@{upstream}..HEAD")
        return int(done.stdout) if done.returncode == 0 and done.stdout.strip().isdigit() else 0

    def _committed(self, rel: str) -> bool:
        """Whether HEAD already holds ``rel`` (a delivery pushed or cut short before)."""
        return self._git("cat-file", "-e", f"HEAD:{rel}").returncode == 0

    def _on_remote(self, rev: str) -> bool:
        """Whether ``rev`` is on the upstream branch as last fetched (then it is sent)."""
        return self._git("merge-base", "--is-ancestor", rev, "@{upstream}").returncode == 0

    def _abort_rebase(self) -> None:
        git_dir = self._git("rev-parse", "--git-dir").stdout.decode("utf-8", "surrogateescape").strip()
        folder = self.clone / git_dir
        if (folder / "rebase-merge").exists() or (folder / "rebase-apply").exists():
            self._git("rebase", "--abort")

    def _failure(
        self, what: str, done: subprocess.CompletedProcess[bytes], remote: str
    ) -> ArbiterError:
        """One line for a failed git command, classed by what git said."""
        said = _said(done)
        low = said.lower()
        clone = shown(self.clone)
        if any(text in low for text in _AUTH):
            return UsageError(
                f"{what} in {clone} failed ({said}): check your access to {remote} "
                "(ssh key or credentials), then try again"
            )
        if any(text in low for text in _LOCAL):
            return UsageError(
                f"{what} in {clone} failed ({said}): put your clone in order "
                "(`git status` says how), then try again"
            )
        if any(text in low for text in _NO_REMOTE):
            return UsageError(f"{what} in {clone} failed ({said}): check the remote {remote} (`git remote -v`)")
        if "remote rejected" in low or "hook declined" in low:
            return UsageError(f"{what} in {clone} was refused by {remote} ({said}): ask the repository's owner")
        return NotReady(f"{what} in {clone} failed ({said}): check the network and {remote}, then try again")


def _beaten(done: subprocess.CompletedProcess[bytes]) -> bool:
    """Whether a push was refused only because the remote moved on (a race, not a rule)."""
    out = done.stdout.decode("utf-8", "replace")
    return any(
        line.startswith("!") and "[rejected]" in line and "[remote rejected]" not in line
        for line in out.splitlines()
    )


def _said(done: subprocess.CompletedProcess[bytes]) -> str:
    """git's most telling words: a refused ref's reason (``push --porcelain``) with what
    the remote said, else the first fatal or error line, else the first line."""
    err = [line.strip() for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    out = [line.strip() for line in done.stdout.decode("utf-8", "replace").splitlines() if line.strip()]
    refused = [line.split("\t")[-1] for line in out if line.startswith("!")]
    if refused:
        remote = [line for line in err if line.startswith("remote:")]
        return visible("; ".join(refused[:1] + remote[:1]))[:200]
    for line in err:
        if line.lower().startswith(("fatal:", "error:")):
            return visible(line)[:200]
    lines = err + out
    return visible(lines[0])[:200] if lines else f"exit status {done.returncode}"


def _first(*paths: Path) -> Path | None:
    return next((p for p in paths if p.is_file()), None)
