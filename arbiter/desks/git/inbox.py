"""Which files wait in the inbox, and in which order the desk takes them.

The inbox is ``PATH/inbox/`` at the remote's head. Files are taken in the order of the
commit that first added them (``git log --reverse --date-order --diff-filter=A`` over
the commits since the referee's own last commit): a file added in several commits counts
at its first; files added by one commit go by name; a file whose adding commit is not in
that range (history that was rewritten) comes after the others, by name. ``.gitkeep``
(which players use to keep an empty folder) is left alone.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from arbiter.desks.git.plumbing import Entry, Git

KEEP = ".gitkeep"
# A receipt is named after its inbox file; a name with anything else in it (a path that
# climbs out, control characters, an empty part) gets a receipt named by its hash.
_PART = re.compile(r"[A-Za-z0-9_@+=,-][A-Za-z0-9._@+=,-]{0,199}")


def inbox_path(game_path: str) -> str:
    return f"{game_path}/inbox"


def waiting(listing: Sequence[Entry], game_path: str) -> list[Entry]:
    """Every non-folder entry in the inbox of a tree listing (``Git.ls_tree`` of PATH)."""
    inbox = inbox_path(game_path)
    found = []
    for entry in listing:
        if entry.kind == "tree":
            continue
        inside = entry.path.startswith(inbox + "/")
        if (inside or entry.path == inbox) and entry.path.rsplit("/", 1)[-1] != KEEP:
            found.append(entry)
    return found


def name_of(entry: Entry, game_path: str) -> str:
    """The file's name inside the inbox (``inbox`` itself when it is not a folder)."""
    inbox = inbox_path(game_path)
    return entry.path[len(inbox) + 1 :] if entry.path != inbox else "inbox"


def receipt_name(name: str) -> str:
    """A safe relative path for the file's receipts (``receipts/<this>.txt``)."""
    parts = name.split("/")
    if all(_PART.fullmatch(part) for part in parts) and len(parts) <= 8:
        return name
    return "file-" + hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def in_order(
    git: Git, entries: Sequence[Entry], head: str, since: str | None, game_path: str
) -> list[Entry]:
    """Return ``entries`` in the order their files were first added since ``since``."""
    if not entries:
        return []
    revisions = [head] if since is None else [head, f"^{since}"]
    rank: dict[str, tuple[int, str]] = {}
    for position, (_, paths) in enumerate(git.first_added(revisions, inbox_path(game_path))):
        for path in paths:
            rank.setdefault(path, (position, path))
    last = len(rank) + 1
    return sorted(entries, key=lambda e: rank.get(e.path, (last, e.path)))
