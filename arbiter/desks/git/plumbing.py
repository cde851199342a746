"""Running git: one small method per plumbing command the desk needs.

Every call runs ``git -C REPO`` with a fixed environment: English messages (``LC_ALL=C``),
no prompts, pathspecs taken literally (a file named ``*`` is not a glob), and nothing
inherited that could point git elsewhere (``GIT_DIR``, ``GIT_INDEX_FILE``... from a
hook). A failing command raises ``GitFailed`` (exit 17, "not now") with git's own first
line, except where the caller asks for the exit status (``ok``).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arbiter.core.errors import NotReady

ZERO = "0" * 40
# What ``commits_of`` asks git in one batch: full refs and object ids (one line each).
_REF = re.compile(r"(refs/[A-Za-z0-9._/-]+|[0-9a-f]{40}|[0-9a-f]{64})")
# Variables that would make git act on another repository, index or work tree.
_INHERITED = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_NAMESPACE",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_CEILING_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_PREFIX",
    "GIT_QUARANTINE_PATH",
)


class GitFailed(NotReady):
    """A git command failed (the desk's own failure: the round is abandoned, nothing pushed)."""


@dataclass(frozen=True)
class Entry:
    """One entry of a tree listing (``git ls-tree``)."""

    mode: str
    kind: str
    sha: str
    path: str

    @property
    def regular(self) -> bool:
        """A plain file (a blob with mode 100644 or 100755), not a link or a submodule."""
        return self.kind == "blob" and self.mode in ("100644", "100755")


class Git:
    """Run git in one repository."""

    def __init__(self, repo: Path):
        self.repo = repo
        env = {k: v for k, v in os.environ.items() if k not in _INHERITED}
        env.update(
            LC_ALL="C",
            LANGUAGE="C",
            GIT_TERMINAL_PROMPT="0",
            GIT_LITERAL_PATHSPECS="1",
            GIT_OPTIONAL_LOCKS="0",
        )
        self.env = env

    def run(
        self,
        args: Sequence[str],
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
        check: bool = True,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``git ARGS``; raise ``GitFailed`` on a non-zero exit unless ``check`` is off."""
        full_env = self.env if env is None else {**self.env, **env}
        try:
            done = subprocess.run(
                ["git", "-C", str(self.repo), *args],
                input=stdin if stdin is not None else b"",
                capture_output=True,
                env=full_env,
                check=False,
            )
        except FileNotFoundError:
            raise GitFailed("git is not installed: install git and run again") from None
        if check and done.returncode != 0:
            raise GitFailed(f"git {args[0]} failed: {first_line(done.stderr)}")
        return done

    def text(self, *args: str, stdin: bytes | None = None) -> str:
        """Run git and return its output as text, without the final newline."""
        return self.run(args, stdin).stdout.decode("utf-8", "surrogateescape").rstrip("\n")

    def ok(self, *args: str) -> bool:
        """Run git and return whether it succeeded (a yes/no question)."""
        return self.run(args, check=False).returncode == 0

    # -- questions -----------------------------------------------------------------------
    def commit_of(self, ref: str) -> str | None:
        """Return the commit ``ref`` names, or None when there is none."""
        done = self.run(["rev-parse", "-q", "--verify", f"{ref}^{{commit}}"], check=False)
        return done.stdout.decode().strip() if done.returncode == 0 else None

    def commits_of(self, refs: Sequence[str]) -> list[str | None]:
        """``commit_of`` for several refs in one ``git cat-file --batch-check``."""
        if not refs:
            return []
        if any(not _REF.fullmatch(ref) for ref in refs):  # never seen: one at a time then
            return [self.commit_of(ref) for ref in refs]
        asked = "".join(f"{ref}^{{commit}}\n" for ref in refs).encode()
        out = self.run(["cat-file", "--batch-check=%(objectname) %(objecttype)"], asked)
        found: list[str | None] = []
        for line in out.stdout.decode("utf-8", "replace").split("\n")[: len(refs)]:
            sha, _, kind = line.partition(" ")
            found.append(sha if kind == "commit" else None)
        if len(found) != len(refs):
            raise GitFailed("git cat-file answered the wrong number of lines")
        return found

    def is_ancestor(self, older: str, newer: str) -> bool:
        return self.ok("merge-base", "--is-ancestor", older, newer)

    def tree_of(self, commit: str) -> str:
        return self.text("rev-parse", f"{commit}^{{tree}}")

    def ls_tree(self, treeish: str, *paths: str) -> list[Entry]:
        """Every entry at or under ``paths`` (recursively, with the folders on the way)."""
        out = self.run(["ls-tree", "-r", "-t", "-z", "--full-tree", treeish, "--", *paths]).stdout
        entries = []
        for record in out.split(b"\0"):
            if not record:
                continue
            meta, _, name = record.partition(b"\t")
            mode, kind, sha = meta.decode().split()
            entries.append(Entry(mode, kind, sha, name.decode("utf-8", "surrogateescape")))
        return entries

    def sizes_and_blobs(self, shas: Iterable[str], limit: int) -> dict[str, bytes | None]:
        """Read blobs in one ``cat-file --batch``; a blob over ``limit`` bytes maps to None."""
        wanted = list(dict.fromkeys(shas))
        if not wanted:
            return {}
        out = self.run(["cat-file", "--batch"], stdin="".join(f"{s}\n" for s in wanted).encode())
        data, found, at = out.stdout, {}, 0
        for sha in wanted:
            end = data.index(b"\n", at)
            header = data[at:end].split()
            if len(header) != 3:
                raise GitFailed(f"git cat-file cannot read object {sha}")
            size = int(header[2])
            blob = data[end + 1 : end + 1 + size]
            found[sha] = blob if size <= limit else None
            at = end + 1 + size + 1
        return found

    def first_added(self, revisions: Sequence[str], path: str) -> list[tuple[str, list[str]]]:
        """Commits in ``revisions`` (oldest first) and the paths under ``path`` each adds."""
        out = self.run(
            [
                "log",
                "--reverse",
                "--date-order",
                "--no-renames",
                "--diff-filter=A",
                "--name-only",
                "-z",
                "--format=%x01%H",
                *revisions,
                "--",
                path,
            ]
        ).stdout
        commits: list[tuple[str, list[str]]] = []
        for chunk in out.split(b"\x01")[1:]:
            sha, *names = chunk.split(b"\0")
            paths = [n.lstrip(b"\n").decode("utf-8", "surrogateescape") for n in names]
            commits.append((sha.decode().strip(), [p for p in paths if p]))
        return commits

    # -- writing objects -----------------------------------------------------------------
    def hash_files(self, paths: Sequence[Path]) -> list[str]:
        """Store files as blobs (no filters: the bytes as they are); return their ids."""
        if not paths:
            return []
        for path in paths:
            if "\n" in str(path):
                raise GitFailed(f"cannot store {path!r}: a newline in a file name")
        out = self.text(
            "hash-object",
            "-w",
            "--no-filters",
            "--stdin-paths",
            stdin="".join(f"{p}\n" for p in paths).encode("utf-8", "surrogateescape"),
        )
        shas = out.split("\n")
        if len(shas) != len(paths):
            raise GitFailed("git hash-object returned the wrong number of ids")
        return shas

    def hash_bytes(self, data: bytes) -> str:
        return self.text("hash-object", "-w", "--no-filters", "--stdin", stdin=data)

    def write_tree(self, index: Path, base: str | None, edits: list[tuple[str, str, str]]) -> str:
        """Return the tree of ``base`` with ``edits`` applied, built in a temporary index.

        ``edits`` are (mode, sha, path): mode ``0`` removes the path. The repository's own
        index and work tree are not touched.
        """
        env = {"GIT_INDEX_FILE": str(index)}
        self.run(["read-tree", base] if base else ["read-tree", "--empty"], env=env)
        if edits:
            lines = "".join(f"{mode} {sha}\t{path}\0" for mode, sha, path in edits)
            data = lines.encode("utf-8", "surrogateescape")  # names as git stored them
            self.run(["update-index", "-z", "--index-info"], data, env=env)
        return self.run(["write-tree"], env=env).stdout.decode().strip()

    def commit_tree(
        self, tree: str, parents: Sequence[str], message: str, who: tuple[str, str]
    ) -> str:
        """Make a commit authored and committed by ``who`` (name, email)."""
        name, email = who
        env = {
            "GIT_AUTHOR_NAME": name,
            "GIT_AUTHOR_EMAIL": email,
            "GIT_COMMITTER_NAME": name,
            "GIT_COMMITTER_EMAIL": email,
        }
        args = ["commit-tree", tree]
        for parent in parents:
            args += ["-p", parent]
        return self.run([*args, "-F", "-"], message.encode(), env=env).stdout.decode().strip()

    # -- talking to the remote -----------------------------------------------------------
    def fetch(self, remote: str, branch: str) -> str | None:
        """Fetch ``branch``; return the remote's head commit, or None if it has no such branch.

        The remote-tracking ref follows the remote even after a force-push (``+``): that is
        how the desk notices one. Nothing is ever forced on the remote.
        """
        tracking = self.fetch_ref(remote, branch)
        return self.commit_of(tracking) if tracking else None

    def fetch_ref(self, remote: str, branch: str) -> str | None:
        """``fetch``, returning the remote-tracking ref (None: no such branch) for the
        caller to resolve with others (``commits_of``)."""
        tracking = f"refs/remotes/{remote}/{branch}"
        done = self.run(
            ["fetch", "-q", "--no-tags", remote, f"+refs/heads/{branch}:{tracking}"], check=False
        )
        if done.returncode != 0:
            if b"couldn't find remote ref" in done.stderr:
                self.run(["update-ref", "-d", tracking], check=False)
                return None
            raise GitFailed(f"git fetch from {remote} failed: {first_line(done.stderr)}")
        return tracking

    def push(self, remote: str, commit: str, branch: str) -> bool:
        """Push ``commit`` to ``branch`` as a fast-forward; return False when the remote
        refused it because someone pushed meanwhile. Never forced."""
        done = self.run(
            ["push", "--porcelain", "--no-verify", remote, f"{commit}:refs/heads/{branch}"],
            check=False,
        )
        if done.returncode == 0:
            return True
        refused = [line for line in done.stdout.splitlines() if line.startswith(b"!")]
        if refused:
            return False
        raise GitFailed(f"git push to {remote} failed: {first_line(done.stderr)}")


def first_line(stderr: bytes) -> str:
    """Git's most telling line: the first ``fatal:``/``error:`` line, else the first line."""
    lines = [
        line.strip() for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()
    ]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[0] if lines else "no message"
