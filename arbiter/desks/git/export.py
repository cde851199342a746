"""``arbiter git verify``: a game checked as a commit holds it, not as a checkout wrote it.

The desk's own ``.gitattributes`` makes every checkout of the game folder byte-exact,
whatever the repository's other files or anyone's configuration say (``owned.py``); one
thing still outranks it, the clone's own ``$GIT_DIR/info/attributes``. A verifier should
not have to trust their clone's settings, so this reads the game folder's blobs straight
from git's objects (``git cat-file``, which converts nothing), writes them into a
temporary folder, and runs ``arbiter verify`` on that. The inbox is left out: it holds
files not judged yet, which ``verify`` never reads.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from arbiter.core.errors import ArbiterError, MalformedInput, Tampered, UsageError
from arbiter.core.replay import Report, SeatKey, verify
from arbiter.core.safeio import shown
from arbiter.desks.git.inbox import inbox_path
from arbiter.desks.git.plumbing import Git

# A game's largest files are its chain and, after the reveal, reveal/signed.jsonl.
MAX_FILE = 256 * 1024 * 1024


def export(git: Git, commit: str, game_path: str, dest: Path) -> int:
    """Write the game folder of ``commit`` (inbox left out) under ``dest``; return the
    number of files. Links and submodules are not written: ``verify`` then finds the
    file missing, as it would refuse the link."""
    prefix, inbox = f"{game_path}/", inbox_path(game_path)
    wanted = [
        entry
        for entry in git.ls_tree(commit, game_path)
        if entry.regular
        and entry.path.startswith(prefix)
        and not (entry.path == inbox or entry.path.startswith(inbox + "/"))
    ]
    blobs = git.sizes_and_blobs([e.sha for e in wanted], MAX_FILE)
    for entry in wanted:
        rel = entry.path[len(prefix) :]
        parts = rel.split("/")
        if any(part in ("", ".", "..") for part in parts):
            raise Tampered(f"{game_path} holds a path git should not: {shown(rel)}")
        data = blobs[entry.sha]
        if data is None:
            raise MalformedInput(
                f"{shown(entry.path)} is larger than {MAX_FILE // (1024 * 1024)} MiB: "
                "this is not a game folder the desk published"
            )
        target = dest.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return len(wanted)


def verify_committed(
    repo: Path, game_path: str, rev: str, seat_key: SeatKey | None = None
) -> tuple[str, Report]:
    """Verify the game folder ``game_path`` of commit ``rev`` in the clone ``repo``;
    return the commit and the report. Errors name the folder as ``PATH@COMMIT``."""
    if not repo.is_dir():
        raise UsageError(f"{shown(repo)} is not a folder: pass a clone of the game's repository")
    git = Git(repo)
    commit = git.commit_of(rev)
    if commit is None:
        raise UsageError(f"{rev[:80]!r} names no commit in {shown(repo)}: pass --rev")
    with tempfile.TemporaryDirectory(prefix="arbiter-git-verify-") as tmp:
        root = Path(tmp) / "game"
        if export(git, commit, game_path, root) == 0:
            raise UsageError(f"{game_path} holds no files at {commit[:12]}: pass --game")
        try:
            return commit, verify(root, seat_key=seat_key)
        except ArbiterError as exc:
            # The temporary folder means nothing to the reader: name the commit instead.
            label = f"{game_path}@{commit[:12]}"
            message = exc.message.replace(str(root), label)
            exc.message = message if label in message else f"{label}: {message}"
            exc.args = (exc.message,)
            raise
