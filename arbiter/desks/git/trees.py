"""What the desk publishes, and the commits' trees, composed with a temporary index.

The published game folder is computed from the referee's private folder only, never read
from the repository: every file of DIR except ``referee/`` (and temporaries of atomic
writes), the referee's signed receipts as ``receipts/entry-<N>.json``, and the desk's text
receipts (``referee/git/receipts/``) as ``receipts/``. ``Snapshot`` holds it as relative
path -> blob id.

A commit's tree is the base commit's tree (the remote's head, whatever the players put
outside the game folder) with the game folder replaced by a snapshot, plus the base's
inbox files the desk has not handled yet, and with the files the desk owns at the root
and above the game folder put back (``owned.py``; the game folder's own ``.gitattributes``
is one of them, so it is neither in a snapshot nor compared with one). It is built in a
temporary index, so the same commits can be rebuilt on any newer base after a refused push.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arbiter.core.errors import Tampered, UsageError
from arbiter.core.gamedir import GameDir
from arbiter.desks.git.inbox import inbox_path
from arbiter.desks.git.owned import ATTRIBUTES
from arbiter.desks.git.plumbing import ZERO, Entry, Git

FILE_MODE = "100644"
_TEMP = re.compile(r"\..+\.tmp")
# The temporary names of ``atomic_write`` (core/gamedir.py): ".<name>.<8 characters>.tmp".
_ATOMIC_TEMP = re.compile(r"\..+\.[A-Za-z0-9_]{8}\.tmp")
_RECEIPT = re.compile(r"([1-9][0-9]{0,8})\.json")
# Plaintext per-seat files and the referee's folder: never in a commit.
_PRIVATE = re.compile(r"(referee(/.*)?|players/[^/]+/(state\.json|log\.md))")


def desk_folder(gd: GameDir) -> Path:
    """The desk's private records inside the referee's folder."""
    return gd.referee / "git"


def text_receipts(gd: GameDir) -> Path:
    return desk_folder(gd) / "receipts"


@dataclass
class Hasher:
    """Store files as blobs, remembering each file's id while it is unchanged on disk."""

    git: Git
    known: dict[str, tuple[tuple[int, int, int, int], str]] = field(default_factory=dict)

    def ids(self, paths: Sequence[Path]) -> list[str]:
        stamps = []
        for path in paths:
            st = os.stat(path, follow_symlinks=False)
            stamps.append((st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns))
        fresh = [
            p for p, s in zip(paths, stamps, strict=True) if self.known.get(str(p), (None,))[0] != s
        ]
        for path, sha in zip(fresh, self.git.hash_files(fresh), strict=True):
            st = os.stat(path, follow_symlinks=False)
            self.known[str(path)] = ((st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns), sha)
        return [self.known[str(p)][1] for p in paths]


def _walk(folder: Path, rel: str, out: dict[str, Path], skip: Iterable[str] = ()) -> None:
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name in skip or _TEMP.fullmatch(entry.name):
            continue
        st = entry.stat(follow_symlinks=False)
        name = f"{rel}{entry.name}"
        if stat.S_ISDIR(st.st_mode):
            _walk(Path(entry.path), name + "/", out)
        elif stat.S_ISREG(st.st_mode):
            out[name] = Path(entry.path)
        else:
            raise Tampered(f"{entry.path} in the referee's folder is not a plain file: remove it")


def remove_temporaries(gd: GameDir) -> list[Path]:
    """Delete the temporary files a killed round left in the desk's own folder (under the
    desk's lock: no other writer works there); return them. ``GameDir.remove_temporaries``
    cleans the rest of the referee's folder."""
    removed = []
    folder = desk_folder(gd)
    for parent, _, names in os.walk(folder) if folder.is_dir() else ():
        for name in names:
            path = Path(parent, name)
            if _ATOMIC_TEMP.fullmatch(name) and path.is_file() and not path.is_symlink():
                path.unlink()
                removed.append(path)
    return removed


def published_files(gd: GameDir) -> dict[str, Path]:
    """Map each published path (relative to the game folder) to its file in DIR."""
    files: dict[str, Path] = {}
    _walk(gd.root, "", files, skip=("referee", "inbox", ATTRIBUTES))
    if gd.receipts.is_dir():
        for entry in os.scandir(gd.receipts):
            match = _RECEIPT.fullmatch(entry.name)
            if match and entry.is_file(follow_symlinks=False):
                files[f"receipts/entry-{match.group(1)}.json"] = Path(entry.path)
    if text_receipts(gd).is_dir():
        _walk(text_receipts(gd), "receipts/", files)
    return dict(sorted(files.items()))


def snapshot(gd: GameDir, hasher: Hasher) -> dict[str, str]:
    """The published game folder as relative path -> blob id (read under the shared lock)."""
    with gd.reading():
        files = published_files(gd)
        ids = hasher.ids(list(files.values()))
    found = dict(zip(files, ids, strict=True))
    refuse_private(found)
    return found


def refuse_private(paths: Iterable[str]) -> None:
    """The safety net: nothing under referee/ and no plaintext per-seat file, ever."""
    for path in paths:
        if _PRIVATE.fullmatch(path):
            raise UsageError(
                f"refusing to commit {path}: the referee's folder and plaintext per-seat files "
                "must never enter a shared repository (is the game sealed?)"
            )


def fingerprint(files: Mapping[str, str]) -> str:
    """A digest of a snapshot (or of the repository's game folder outside the inbox)."""
    text = "".join(f"{path}\0{sha}\n" for path, sha in sorted(files.items()))
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def outside_inbox(listing: Sequence[Entry], game_path: str) -> dict[str, str]:
    """The repository's game folder outside the inbox, as relative path -> id.

    A link or submodule is recorded with its mode, so it never equals a published file.
    """
    prefix, inbox = f"{game_path}/", inbox_path(game_path)
    found = {}
    for entry in listing:
        if entry.kind == "tree" or not entry.path.startswith(prefix):
            continue
        if entry.path == inbox or entry.path.startswith(inbox + "/"):
            continue
        rel = entry.path[len(prefix) :]
        if rel == ATTRIBUTES:
            continue  # the desk's own, guarded by owned.py
        found[rel] = entry.sha if entry.mode == FILE_MODE else f"{entry.mode}:{entry.sha}"
    return found


def changed(before: Mapping[str, str], after: Mapping[str, str]) -> list[str]:
    """Paths that differ between two snapshots (added, removed or changed)."""
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def compose(
    git: Git,
    index: Path,
    base: str | None,
    listing: Sequence[Entry],
    game_path: str,
    files: Mapping[str, str],
    keep: Sequence[Entry],
    owned: Sequence[tuple[str, str, str]] = (),
) -> str:
    """Return the tree: ``base`` with the game folder replaced by ``files`` plus ``keep``
    (the base's inbox entries not handled yet), then the ``owned`` edits applied (the
    desk's own files, ``Owned.edits``). Other files outside the game folder are kept."""
    prefix = f"{game_path}/"
    refuse_private(files)
    edits = []
    kept = {entry.path for entry in keep}
    for entry in listing:
        if entry.kind == "tree" or entry.path in kept:
            continue
        if entry.path == game_path or entry.path.startswith(prefix):
            edits.append(("0", ZERO, entry.path))
    # A file where one of the game folder's parent folders belongs is replaced too.
    parts = game_path.split("/")
    edits += [("0", ZERO, "/".join(parts[:n])) for n in range(1, len(parts))]
    edits += [(FILE_MODE, sha, prefix + rel) for rel, sha in files.items()]
    edits += owned
    return git.write_tree(index, base, edits)
