"""Pushes that try to change how git writes a game's bytes, and what a fresh clone must see.

Each ``Attack`` is a commit a player pushes (files at the root, above the game folder or in
it: ``.gitattributes`` with converting rules, a folder or link where the desk's file
belongs, ``.gitmodules`` with a gitlink, ``.lfsconfig``), maybe bait in the inbox (a file
name that puts ``$Id$`` or ``$Format:%H$`` into a public receipt), and the settings of the
clone that reads the game afterwards (``core.autocrlf``, a smudge filter a player's git
defines, a global attributes file). ``attack(world, a)`` pushes it, runs one desk round,
and returns every way a fresh clone, and ``git archive`` of it, fails to give back the
published game: a byte that differs from the repository's blob, a seat's state file that
does not open, a failed ``verify``. ``tests/git/test_desk_repo_files.py`` runs a sample and
(slow) the whole corpus; ``benchmarks/git_attacks.py`` runs the whole corpus with timings.

Verified on the code before the desk owned these files: the root ``* text eol=crlf`` of
issue 24 broke every seat's state file and ``verify`` in every fresh clone.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

from arbiter.core.errors import ArbiterError
from arbiter.core.player import load_state
from arbiter.core.replay import verify
from git.gitkit import GIT_ENV, World, blobs_at, git

LINK = "link:"  # a value starting with this is pushed as a symbolic link to the rest
GITLINK = "gitlink"  # pushed as a submodule entry (mode 160000)
DELETE = "delete"  # the path is removed (the desk's own file, say)
SUBMODULES = b'[submodule "vendor"]\n\tpath = vendor\n\turl = /nonexistent/vendor.git\n'


@dataclass(frozen=True)
class Attack:
    name: str
    files: dict[str, bytes | str]
    clone: dict[str, str] = field(default_factory=dict)
    """``git clone -c`` settings of the reader's clone."""
    bait: tuple[str, ...] = ()
    """Inbox file names pushed with the attack (their receipts quote them)."""
    global_attributes: bytes | None = None
    """The reader's own ``core.attributesFile``."""
    recursive: bool = False
    """The reader clones with ``--recurse-submodules``."""


CRLF = b"* text eol=crlf\n"
CORPUS = [
    Attack("root-eol-crlf", {".gitattributes": CRLF}),  # issue 24, item 2
    Attack("root-crlf-legacy", {".gitattributes": b"* crlf\n"}, clone={"core.eol": "crlf"}),
    Attack("root-text-auto", {".gitattributes": b"* text=auto\n"}, clone={"core.autocrlf": "true"}),
    Attack("clone-autocrlf", {}, clone={"core.autocrlf": "true"}),
    Attack("clone-global-attributes", {}, global_attributes=CRLF),
    Attack("root-utf16", {".gitattributes": b"* working-tree-encoding=UTF-16LE-BOM\n"}),
    Attack("root-ident", {".gitattributes": b"* ident\n"}, bait=("$Id$.json",)),
    Attack(
        "root-filter",
        {".gitattributes": b"* filter=lfs\n"},
        # As if the reader had git-lfs installed: a filter their configuration defines.
        clone={"filter.lfs.smudge": "tr a-z A-Z", "filter.lfs.clean": "cat"},
    ),
    Attack("root-export-ignore", {".gitattributes": b"games export-ignore\n"}),
    Attack("root-export-subst", {".gitattributes": b"* export-subst\n"}, bait=("$Format:%H$.json",)),
    Attack("root-macro", {".gitattributes": b"[attr]binary text eol=crlf\n* binary\n"}),
    Attack("middle-eol-crlf", {"games/.gitattributes": CRLF}),
    Attack("game-eol-crlf", {"games/g1/.gitattributes": CRLF}),
    Attack("game-subfolder", {"games/g1/players/.gitattributes": CRLF}),
    Attack("attributes-folder", {".gitattributes/rules": CRLF}),
    Attack("attributes-link", {".gitattributes": LINK + "games/g1/chain.jsonl"}),
    Attack("desk-file-deleted", {".gitattributes": DELETE, "games/.gitattributes": DELETE}),
    Attack("gitmodules", {".gitmodules": SUBMODULES, "vendor": GITLINK}, recursive=True),
    Attack("lfsconfig", {".lfsconfig": b"[lfs]\n\turl = https://lfs.invalid/\n"}),
]
# The default run's sample (the issue's own attack has its test with the real command).
SAMPLE = ("root-ident", "root-export-ignore", "gitmodules")


def by_name(name: str) -> Attack:
    return next(a for a in CORPUS if a.name == name)


def push(world: World, a: Attack) -> None:
    """Commit the attack in alice's clone (through plumbing: no attribute applies to the
    attacker's own add) and push it, with its bait."""
    alice = world.player("alice")
    for path, value in a.files.items():
        parts = path.split("/")
        for depth in range(1, len(parts)):  # a file where a folder of ``path`` goes
            git(alice.clone, "update-index", "--force-remove", "--", "/".join(parts[:depth]))
        if value == DELETE:
            git(alice.clone, "rm", "-q", "--cached", "--", path)
            continue
        if value == GITLINK:
            sha = git(alice.clone, "rev-parse", "HEAD")
            git(alice.clone, "update-index", "--add", "--cacheinfo", f"160000,{sha},{path}")
            continue
        if isinstance(value, str):
            assert value.startswith(LINK)
            sha = git(alice.clone, "hash-object", "-w", "--stdin", stdin=value[len(LINK):].encode())
            mode = "120000"
        else:
            sha = git(alice.clone, "hash-object", "-w", "--no-filters", "--stdin", stdin=value)
            mode = "100644"
        git(alice.clone, "update-index", "--add", "--cacheinfo", f"{mode},{sha},{path}")
    for name in a.bait:
        sha = git(alice.clone, "hash-object", "-w", "--stdin", stdin=b"bait\n")
        git(alice.clone, "update-index", "--add", "--cacheinfo", f"100644,{sha},{world.game}/inbox/{name}")
    git(alice.clone, "commit", "-q", "--allow-empty", "-m", f"attack: {a.name}")
    alice.push()
    git(alice.clone, "reset", "-q", "--hard", "HEAD")


def clone(world: World, a: Attack, where: Path) -> list[str]:
    """A reader's fresh clone with the attack's settings; return its failures."""
    args = ["clone", "-q"]
    for key, value in a.clone.items():
        args += ["-c", f"{key}={value}"]
    if a.global_attributes is not None:
        attributes = where.parent / f"{where.name}.attributes"
        attributes.write_bytes(a.global_attributes)
        args += ["-c", f"core.attributesFile={attributes}"]
    if a.recursive:
        args.append("--recurse-submodules")
    done = subprocess.run(["git", *args, str(world.bare), str(where)], capture_output=True,
                          env={**os.environ, **GIT_ENV}, check=False)
    if done.returncode != 0:
        return [f"git clone failed: {done.stderr.decode(errors='replace').strip()[:200]}"]
    return []


def check_folder(world: World, folder: Path, how: str) -> list[str]:
    """The game folder ``folder`` must be the repository's bytes, open and verify."""
    problems = []
    published = {p: d for p, (_, d) in blobs_at(world.bare, "main", world.game).items()}
    for rel, data in sorted(published.items()):
        path = folder / rel
        if not path.is_file() or path.is_symlink():
            problems.append(f"{how}: {rel} is missing")
        elif path.read_bytes() != data:
            problems.append(f"{how}: {rel} differs from the repository's blob")
    for seat in world.seats:
        try:
            load_state(folder / "players" / seat / "state.json.age", world.keys[seat])
        except ArbiterError as exc:
            problems.append(f"{how}: {seat}'s state file: {exc.message}")
    try:
        verify(folder)
    except ArbiterError as exc:
        problems.append(f"{how}: verify: {exc.message}")
    return problems


def archive(world: World, where: Path) -> Path:
    """``git archive`` of the game folder at main (as a forge's download makes it)."""
    data = subprocess.run(["git", "archive", "--format=tar", "main", "--", world.game],
                          cwd=world.bare, capture_output=True, env={**os.environ, **GIT_ENV},
                          check=True).stdout
    if not data.strip(b"\0"):
        return where / world.game  # an empty archive (everything export-ignored)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar.getmembers():
            if member.isfile() and ".." not in member.name.split("/"):
                target = where / member.name
                target.parent.mkdir(parents=True, exist_ok=True)
                source = tar.extractfile(member)
                assert source is not None
                target.write_bytes(source.read())
    return where / world.game


def attack(world: World, a: Attack) -> list[str]:
    """Push ``a``, run one desk round, and return what a fresh clone gets wrong."""
    push(world, a)
    world.round()
    reader = world.tmp / f"reader-{a.name}"
    problems = clone(world, a, reader)
    if not problems:
        problems += check_folder(world, reader / world.game, "clone")
    problems += check_folder(world, archive(world, world.tmp / f"archive-{a.name}"), "archive")
    return problems
