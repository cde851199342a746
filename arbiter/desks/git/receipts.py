"""Text receipts for inbox files, and the desk's own record, both under ``referee/git/``.

Each handled inbox file gets ``receipts/<name>.txt``: one line, "accepted as entry #N
(move by alice)" or the rejection. In a sealed game a rejection's reason may reveal what
the submitter decided (an illegal card names a card in their hand), so the public line
gives only the error class and exit code, and ``<name>.txt.age`` holds the reason sealed
to the seat the file names. The desk keeps them in the referee's private folder and
publishes them from there, like every other file.

The record (``referee/git/state.json``) says which commit the desk pushed last and a
fingerprint of what it published: a later round tells a rewritten branch (that commit
is no longer an ancestor of the remote head) and an edited game folder (the repository's
folder no longer has that fingerprint) from the referee's own changes. It is written
ahead of each push too, naming the commit about to be pushed as ``pending``: a desk
killed after the push and before the record learns on its next round, from the remote,
that the push went through (the pending commit is in the remote's history), instead of
taking its own commits for someone else's.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbiter.core.canonical import parse_strict, pretty
from arbiter.core.errors import ArbiterError
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import visible
from arbiter.desks.git.trees import desk_folder, text_receipts

RECORD_FORMAT = "arbiter.git-desk/1"


def one_line(text: str) -> str:
    return visible(" ".join(text.split()))


def rejection(exc: ArbiterError) -> str:
    """The full one-line rejection."""
    return f"rejected (exit {exc.exit_code}, {exc.code}): {one_line(exc.message)}"


def write(gd: GameDir, name: str, line: str, sealed: bytes | None = None) -> None:
    """Write ``<name>.txt`` (and ``<name>.txt.age`` when given; an old one is removed)."""
    folder = text_receipts(gd)
    public = folder / f"{name}.txt"
    private = folder / f"{name}.txt.age"
    gd.write(public, line.encode("utf-8") + b"\n")
    if sealed is not None:
        gd.write(private, sealed)
    else:
        with contextlib.suppress(FileNotFoundError):
            private.unlink()


@dataclass
class Record:
    """What the desk pushed last."""

    commit: str | None = None
    published: str | None = None
    where: str | None = None
    """The remote's URL, the branch and the game folder's path: a record made for another
    repository (the game moved) is not this one's."""
    pending: str | None = None
    """The commit a push was about to publish (written before the push)."""
    pending_published: str | None = None
    """The fingerprint of what that commit publishes."""

    @staticmethod
    def path(gd: GameDir) -> Path:
        return desk_folder(gd) / "state.json"

    @classmethod
    def load(cls, gd: GameDir, where: str) -> Record:
        try:
            data: Any = parse_strict(Record.path(gd).read_bytes(), "referee/git/state.json")
        except FileNotFoundError:
            return cls()
        except ArbiterError:
            return cls()  # a damaged record only costs the checks it would have enabled
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            return cls()
        if data.get("where") != where:
            return cls()

        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) else None

        return cls(
            text("commit"),
            text("published"),
            where,
            text("pending"),
            text("pending_published"),
        )

    def ahead(self, commit: str, published: str) -> Record:
        """This record, with ``commit`` (publishing ``published``) about to be pushed."""
        return Record(self.commit, self.published, self.where, commit, published)

    def save(self, gd: GameDir) -> None:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "commit": self.commit,
            "published": self.published,
            "where": self.where,
        }
        if self.pending is not None:  # optional: a record without it reads as before
            data["pending"] = self.pending
            data["pending_published"] = self.pending_published
        # No folder fsync: a record lost in a crash only costs the next round's checks.
        gd.write(Record.path(gd), pretty(data), sync_dir=False)
