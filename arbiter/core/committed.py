"""A file of a git work tree as its repository holds it, before any checkout conversion.

git may change a file's bytes between the repository and the work tree. The referee's git
desk switches every such attribute off for a game folder (docs/referee-guide.md, "Files
the desk owns"), but one source outranks it: the clone's own ``$GIT_DIR/info/attributes``
(gitattributes(5)), which travels with no clone. A player whose clone converts line ends
there (``* text eol=crlf``), re-encodes or filters, gets sealed ``.age`` files that no
longer open. The blob in git's index, or in HEAD, is what was fetched, untouched:
``git cat-file`` prints it with no conversion (only ``--filters`` or ``--textconv``
would apply them).

Only a reader that can tell a right file from a wrong one may fall back on it: an age
file's payload is authenticated, so a blob that decrypts with the seat's key is exactly
what was sealed to it. A path in no work tree, untracked, or without git reads as before.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

# Variables that would make git read another repository or index than the one around
# the file (an ``arbiter show`` run from a git hook inherits them).
_INHERITED = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
)
_TIMEOUT = 30


def _git(folder: Path, args: list[str], stdin: bytes = b"") -> bytes | None:
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED}
    env.update(LC_ALL="C", GIT_TERMINAL_PROMPT="0")
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            input=stdin,
            capture_output=True,
            env=env,
            timeout=_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None  # no git here: the file is read as it is
    return done.stdout if done.returncode == 0 else None


def versions(path: Path, limit: int) -> Iterator[bytes]:
    """Yield ``path`` as git's index holds it, then as HEAD does (each at most once, none
    over ``limit`` bytes); nothing when it is in no work tree or not tracked."""
    folder = path.parent
    prefix = _git(folder, ["rev-parse", "--show-prefix"])
    if prefix is None or "\n" in path.name:
        return
    name = prefix.decode("utf-8", "surrogateescape").rstrip("\n") + path.name
    names = [f":{name}", f"HEAD:{name}"]
    query = "".join(f"{n}\n" for n in names).encode("utf-8", "surrogateescape")
    sizes = _git(
        folder, ["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], query
    )
    if sizes is None:
        return
    seen = set()
    for line in sizes.decode("ascii", "replace").splitlines():
        parts = line.split()
        if len(parts) != 3 or parts[1] != "blob" or parts[0] in seen or int(parts[2]) > limit:
            continue
        seen.add(parts[0])
        blob = _git(folder, ["cat-file", "blob", parts[0]])
        if blob is not None:
            yield blob


def first(path: Path, limit: int, accept: Callable[[bytes], bool]) -> bytes | None:
    """Return the first of ``versions`` that ``accept`` takes, or None."""
    return next((blob for blob in versions(path, limit) if accept(blob)), None)
