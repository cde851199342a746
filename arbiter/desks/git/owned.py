"""The repository files that decide how git writes a game's bytes: the desk owns them.

Git does not always copy a blob to a work tree as it is. A path's attributes may rewrite
it on checkout (gitattributes(5), "Checking-out and checking-in"): ``text``, ``eol`` and
the old ``crlf`` turn LF into CRLF, ``working-tree-encoding`` re-encodes it, ``ident``
expands ``$Id$``, ``filter`` pipes it through a smudge command; and ``export-subst`` and
``export-ignore`` rewrite or drop it in ``git archive`` ("Creating an archive"), which is
how forges make their ZIP and tar downloads. A sealed ``.age`` file that went through any
of these no longer opens; a public file no longer verifies. A player who pushes a root
``.gitattributes`` with ``* text eol=crlf`` breaks every fresh clone.

Attributes come from the ``.gitattributes`` in the path's folder and in every folder above
it, the closest one winning attribute by attribute; only the clone's own
``$GIT_DIR/info/attributes``, which no clone or push carries, outranks them (gitattributes(5),
DESCRIPTION). During a checkout git reads these files from the index first. So the desk
owns, and writes into every commit it makes:

- ``GAME/.gitattributes``: every attribute that changes bytes switched off for every file
  of the game folder, inbox included (``GAME_RULES``). As the closest file it wins over
  anything above, and over ``core.autocrlf``, ``core.eol`` and ``core.attributesFile`` in
  anyone's configuration: those apply only where ``text`` is left unspecified.
- the ``.gitattributes`` of the root and of every folder on the way to the game folder: a
  notice and no rule (``ABOVE``). A rule there can still hurt: ``export-ignore`` on a folder
  above drops the whole game folder from an archive before any file inside it is read, and
  macros (``[attr]...``) may be defined only at the root.
- ``.gitmodules`` and ``.lfsconfig`` at the root: none. The first turns a gitlink into a
  checkout of another repository (gitmodules(5)); the second is git-lfs's configuration,
  read from the root of the work tree, the index or HEAD (git-lfs-config(5)). Neither can
  touch the game folder once its ``filter`` is off and it holds no gitlink, but neither
  has a use in a game's repository, and a bad one breaks a verifier's
  ``git clone --recurse-submodules``.

Any other version of these paths (changed, deleted, or a folder or link in their place) is
someone else's: the desk's next commit puts its own back and says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arbiter.desks.git.plumbing import ZERO, Entry, Git

ATTRIBUTES = ".gitattributes"
ROOT_FILES = (".gitmodules", ".lfsconfig")
NAMES = (ATTRIBUTES, *ROOT_FILES)
FILE_MODE = "100644"
# ``-text`` alone already stops every end-of-line conversion (``eol`` then has no effect);
# each attribute is still named, and none through a macro (the root could redefine one).
# ``!`` (unspecified) for the two that take a value: ``-working-tree-encoding`` is "false",
# which git may reject as an encoding.
GAME_RULES = (
    b"# Written by the referee's git desk (arbiter), which owns this file and reverts any\n"
    b"# change to it: git must copy every file of this game byte for byte, in every clone\n"
    b'# and archive (docs/referee-guide.md, "Files the desk owns").\n'
    b"* -text -crlf !eol !working-tree-encoding -ident -filter -export-subst -export-ignore "
    b"-diff -merge\n"
)
ABOVE = (
    b"# Written by the referee's git desk (arbiter), which owns this file and reverts any\n"
    b"# change to it: a rule here would reach the game folders below, whose files git must\n"
    b'# copy byte for byte (docs/referee-guide.md, "Files the desk owns").\n'
)


def wanted(game_path: str) -> dict[str, bytes | None]:
    """Each path the desk owns and its bytes there (None: no file at all)."""
    parts = game_path.split("/")
    found: dict[str, bytes | None] = {name: None for name in ROOT_FILES}
    for depth in range(len(parts)):
        found["/".join([*parts[:depth], ATTRIBUTES])] = ABOVE
    found[f"{game_path}/{ATTRIBUTES}"] = GAME_RULES
    return found


def _at(entry: Entry, path: str) -> bool:
    return entry.path == path or entry.path.startswith(path + "/")


@dataclass(frozen=True)
class Change:
    """One owned path that differs from the desk's version in a commit's tree."""

    path: str
    what: str  # "written" (nothing was there), "replaced" or "removed"

    @property
    def reverted(self) -> bool:
        """Whether it undoes someone else's file (not only adds the desk's own)."""
        return self.what != "written"

    def line(self) -> str:
        return {
            "written": f"{self.path}: the desk's own written",
            "replaced": f"{self.path}: someone else's version replaced by the desk's own",
            "removed": f"{self.path}: removed (the desk keeps none)",
        }[self.what]


class Owned:
    """The desk's versions of the paths it owns, stored as blobs in the clone."""

    def __init__(self, git: Git, game_path: str):
        self.game_path = game_path
        self.ids = {
            path: (git.hash_bytes(data) if data is not None else None)
            for path, data in wanted(game_path).items()
        }

    @property
    def outside(self) -> list[str]:
        """The owned paths outside the game folder (listed with it, ``Git.ls_tree``)."""
        prefix = self.game_path + "/"
        return [path for path in self.ids if not path.startswith(prefix)]

    def changes(self, listing: Sequence[Entry]) -> list[Change]:
        """What a commit must change in ``listing`` (a tree's owned paths and game folder)."""
        found = []
        for path, sha in self.ids.items():
            there = [e for e in listing if e.kind != "tree" and _at(e, path)]
            if sha is None:
                if there:
                    found.append(Change(path, "removed"))
            elif not there:
                found.append(Change(path, "written"))
            elif [(e.path, e.mode, e.sha) for e in there] != [(path, FILE_MODE, sha)]:
                found.append(Change(path, "replaced"))
        return found

    def edits(self, listing: Iterable[Entry]) -> list[tuple[str, str, str]]:
        """Index edits (mode, id, path) that put the desk's versions into a tree built on
        ``listing``: whatever sits at or under an owned path goes, then the desk's files."""
        edits = [
            ("0", ZERO, e.path)
            for e in listing
            if e.kind != "tree" and any(_at(e, path) for path in self.ids)
        ]
        edits += [(FILE_MODE, sha, path) for path, sha in self.ids.items() if sha is not None]
        return edits


def message(changes: Sequence[Change]) -> str:
    """The notice of a commit that puts owned paths back: a title, why, one line per path."""
    names = ", ".join(dict.fromkeys(c.path for c in changes))
    if any(c.reverted for c in changes):
        title = f"guard: someone else's {names} reverted to the referee desk's own"
    else:
        title = f"guard: the referee desk's own {names} written"
    why = (
        "Files that change how git writes the game's bytes belong to the referee's desk "
        '(docs/referee-guide.md, "Files the desk owns").'
    )
    return title + "\n\n" + why + "\n" + "\n".join(c.line() for c in changes)
