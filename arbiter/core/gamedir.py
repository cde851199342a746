"""The game folder on disk: its layout, atomic writes, permissions and the referee's lock.

Layout (DESIGN.md): ``game.json``, ``chain.jsonl``, ``public/``, ``players/<seat>/``,
private ``referee/`` (``secret``, ``signed.jsonl`` with the accepted signed files one per
line, ``key`` or ``key-path``, ``receipts/``, ``lock``) and ``reveal/`` after reveal
(``reveal.json`` and a copy of ``signed.jsonl``).

Every write is a temp file + fsync + rename, so a reader never sees half a file. Published
files are world-readable (0644, folders 0755); ``referee/`` is 0700 and its files 0600.
Writers hold an exclusive lock; readers (``verify``, ``status``) a shared one.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import functools
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from arbiter.core.errors import ArbiterError, NotReady, Tampered, UsageError

PUBLIC_FILE, PUBLIC_DIR = 0o644, 0o755
T = TypeVar("T")
# A published copy has no lock: a read that overlapped a write is retried this often,
# waiting a little longer each time (a submit takes a fraction of a second).
RETRIES = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6)
PRIVATE_FILE, PRIVATE_DIR = 0o600, 0o700

# A temporary file of atomic_write: ".<name>.<random>.tmp".
_TEMP = re.compile(r"\..+\.[A-Za-z0-9_]{8}\.tmp")

# Test hook (a "failpoint", as etcd and TiKV call it): with ARBITER_FAILPOINT=N the
# process kills itself with SIGKILL at its N-th write point, so the crash-recovery tests
# can stop a real `arbiter submit` exactly there. Unset, it costs one comparison.
# ARBITER_FAILPOINT=count kills nothing and prints how many write points the run passed
# (on stderr, at exit), so a test can aim at the last ones of a run whose length varies.
_FAILPOINT = os.environ.get("ARBITER_FAILPOINT")
_reached = [0]
if _FAILPOINT == "count":
    atexit.register(
        lambda: os.write(2, f"arbiter: failpoint: {_reached[0]} write points\n".encode())
    )


def write_point() -> None:
    """Count a point where a crash could leave the folder between two writes."""
    if _FAILPOINT is None:
        return
    _reached[0] += 1
    if str(_reached[0]) == _FAILPOINT:
        os.kill(os.getpid(), signal.SIGKILL)


_deferred = threading.local()


@contextlib.contextmanager
def deferred_sync() -> Iterator[None]:
    """Within the block, ``atomic_write`` and ``fsync_dir`` leave their fsyncs out.

    Each file is still replaced whole by a rename (a killed process leaves every file
    whole), but nothing is durable until the caller syncs the file system itself (one
    ``syncfs`` for many files: the mail desk's group commit, ``desks/durable.py``),
    which it must do before anything depends on what was written.
    """
    before = getattr(_deferred, "on", False)
    _deferred.on = True
    try:
        yield
    finally:
        _deferred.on = before


def syncing() -> bool:
    """Whether writes are fsynced (outside ``deferred_sync``)."""
    return not getattr(_deferred, "on", False)


def pause(seconds: float) -> None:
    """Wait a moment for a writer to finish (a sleep: no result depends on the clock)."""
    threading.Event().wait(seconds)


def _default_mode(base: int = 0o666) -> int:
    """Return the permissions ``base`` gets under the umask (a new file's by default)."""
    umask = os.umask(0)
    os.umask(umask)
    return base & ~umask


def ensure_dir(directory: Path, mode: int | None = None) -> None:
    """Create ``directory`` (and its parents) if missing; set ``mode`` on it if given."""
    if not directory.is_dir():
        directory.mkdir(parents=True, exist_ok=True)
    if mode is not None and stat.S_IMODE(os.stat(directory).st_mode) != mode:
        os.chmod(directory, mode)


def atomic_write(
    path: Path, data: bytes, sync_dir: bool = True, mode: int | None = None
) -> None:
    """Replace ``path`` with ``data`` atomically (temp file, fsync, rename, fsync dir).

    ``mode`` sets the file's permissions (default: a new file's, under the umask).
    ``sync_dir=False`` leaves the folder's fsync to the caller, who syncs once per folder.
    """
    ensure_dir(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _default_mode() if mode is None else mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if syncing():
                os.fsync(handle.fileno())
        write_point()  # the temporary file is written, the target not replaced yet
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    write_point()  # replaced, the folder not synced yet
    if sync_dir:
        fsync_dir(path.parent)


def remove_temporaries_of(path: Path) -> list[Path]:
    """Delete the temporary files crashed ``atomic_write`` calls left of ``path``; return
    them. Only under a lock that keeps every other writer of ``path`` out."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[A-Za-z0-9_]{{8}}\.tmp")
    removed = []
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        for entry in os.scandir(path.parent):
            if entry.is_file(follow_symlinks=False) and pattern.fullmatch(entry.name):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def fsync_dir(directory: Path) -> None:
    if not syncing():
        return
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# A folder ``building`` makes beside its final path: ".<name>.new-<8 characters>".
def _scratch_name(name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(name)}\.new-[a-z0-9_]{{8}}")


@contextlib.contextmanager
def building(target: Path, mode: int | None = None) -> Iterator[Path]:
    """Yield an empty folder beside ``target``; rename it to ``target`` when the block ends.

    So a folder appears whole or not at all (``arbiter new``, ``tournament new``): a
    crash leaves nothing at ``target``, and the same command run again starts afresh. It
    first removes the folders that crashed runs left beside ``target`` (they may hold a
    game's secret): a builder holds an exclusive lock on its folder, so one whose lock can
    be taken is abandoned. ``target`` must be missing or an empty folder (it is replaced);
    ``mode``: the folder's permissions (default: a new folder's, under the umask).
    """
    target = Path(os.path.abspath(target))  # "." and "x/.." name their real folder
    if target.is_dir() and _is_cwd(target):
        # Renamed over, the current folder would become a deleted one under the shell.
        raise UsageError(
            f"{target} is the current folder: run this from its parent folder "
            "(the folder is built beside it and renamed into place)"
        )
    parent = target.parent
    if not os.path.lexists(parent):  # a file there is refused below, as "Not a directory"
        parent.mkdir(parents=True, exist_ok=True)
    _remove_abandoned(parent, target.name)
    scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=parent))
    fd = os.open(scratch, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield scratch
            os.chmod(scratch, _default_mode(0o777) if mode is None else mode)
            fsync_dir(scratch)
            write_point()  # built whole, not in place yet
            try:
                os.rename(scratch, target)
            except OSError as exc:
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR):
                    raise
                raise UsageError(
                    f"{target} already exists and is not empty: choose a new folder"
                ) from None
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
    finally:
        os.close(fd)
    fsync_dir(parent)


def _is_cwd(path: Path) -> bool:
    try:
        return os.path.samefile(path, os.getcwd())
    except OSError:  # no current folder any more
        return False


def _remove_abandoned(parent: Path, name: str) -> None:
    """Delete the folders crashed ``building`` runs left for ``name`` in ``parent``."""
    pattern = _scratch_name(name)
    for entry in os.scandir(parent):
        if not pattern.fullmatch(entry.name) or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            shutil.rmtree(entry.path, ignore_errors=True)
        except BlockingIOError:
            pass  # another run is building it right now
        finally:
            os.close(fd)


Listing = dict[str, str]
"""A folder's entries: name -> ``"dir"``, ``"file"`` (regular) or ``"other"``."""


def _listing(folder: str) -> Listing | None:
    """One ``scandir`` of ``folder``; ``None`` where an entry must be asked by path."""
    listing: Listing = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_symlink():
                    return None
                listing[entry.name] = (
                    "dir"
                    if entry.is_dir(follow_symlinks=False)
                    else "file"
                    if entry.is_file(follow_symlinks=False)
                    else "other"
                )
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except OSError:
        return None  # unreadable: exists() would say why, or not, as it always did
    return listing


@functools.lru_cache(maxsize=64)
def _layout(seats: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The files of the layout as (folder, name) relative to the root, in the order
    ``check_layout`` checks them (so the first wrong one is named, as always)."""
    g = GameDir("")
    files = [g.manifest, g.chain, g.public_state, g.public_log]
    files += [g.secret, g.lockfile, g.referee_signed, g.referee_key, g.deal_secret]
    files += [g.referee_key_path, g.reveal_record, g.reveal_signed]
    files += [g.sealed_index, g.sealed_record]
    for seat in seats:
        files += [g.seat_state(seat), g.seat_log(seat)]
        files += [g.sealed_state(seat), g.sealed_log(seat)]
    return tuple(_split(os.fspath(path)) for path in files)


def _split(relative: str) -> tuple[str, str]:
    folder, _, name = relative.rpartition("/")
    return folder, name


_LAYOUT_FOLDERS = (("", "public"), ("", "players"), ("", "referee"), ("", "reveal"))


class GameDir:
    """Paths of one game folder, and the checks and locks that guard it."""

    def __init__(self, root: Path | str):
        self.root = Path(root)
        # What check_links saw, for the check_layout right after it (see there).
        self._seen: dict[str, Listing | None] | None = None

    # public
    @property
    def manifest(self) -> Path:
        return self.root / "game.json"

    @property
    def chain(self) -> Path:
        return self.root / "chain.jsonl"

    @property
    def public_state(self) -> Path:
        return self.root / "public" / "state.json"

    @property
    def public_log(self) -> Path:
        return self.root / "public" / "log.md"

    def seat_state(self, seat: str) -> Path:
        return self.root / "players" / seat / "state.json"

    def seat_log(self, seat: str) -> Path:
        return self.root / "players" / seat / "log.md"

    # a sealed game (docs/sealing.md): age files in place of the seat's plain files
    def sealed_state(self, seat: str) -> Path:
        return self.root / "players" / seat / "state.json.age"

    def sealed_log(self, seat: str) -> Path:
        return self.root / "players" / seat / "log.md.age"

    @property
    def sealed_index(self) -> Path:
        """The referee's signed list of the sealed files at the chain head (public)."""
        return self.root / "public" / "sealed.json"

    @property
    def sealed_record(self) -> Path:
        """Private: for each sealed file, the digests of what it holds and of its bytes."""
        return self.referee / "sealed.json"

    # private until reveal
    @property
    def referee(self) -> Path:
        return self.root / "referee"

    @property
    def secret(self) -> Path:
        return self.referee / "secret"

    @property
    def deal_secret(self) -> Path:
        """A duplicate game's group secret (arbiter.core.deal), hex; private until reveal."""
        return self.referee / "deal-secret"

    @property
    def lockfile(self) -> Path:
        return self.referee / "lock"

    @property
    def referee_signed(self) -> Path:
        """Every accepted signed file, canonical, one per line: line n−1 is entry n."""
        return self.referee / "signed.jsonl"

    @property
    def referee_key(self) -> Path:
        """The referee's private key when arbiter made it (``arbiter new``)."""
        return self.referee / "key"

    @property
    def referee_key_path(self) -> Path:
        """One line: where the referee's own key lives (``arbiter new --referee-key``)."""
        return self.referee / "key-path"

    @property
    def receipts(self) -> Path:
        return self.referee / "receipts"

    def receipt(self, seq: int) -> Path:
        """The referee's signed receipt for chain entry ``seq``."""
        return self.receipts / f"{seq}.json"

    # after reveal
    @property
    def reveal(self) -> Path:
        return self.root / "reveal"

    @property
    def reveal_record(self) -> Path:
        return self.reveal / "reveal.json"

    @property
    def reveal_signed(self) -> Path:
        """After reveal: the same lines as ``referee/signed.jsonl``, for anyone to replay."""
        return self.reveal / "signed.jsonl"

    def mode(self, path: Path) -> int:
        """Return the permissions a file of this folder gets: private under referee/."""
        return PRIVATE_FILE if self.referee in path.parents else PUBLIC_FILE

    def write(self, path: Path, data: bytes, sync_dir: bool = True) -> None:
        """Write one file of the folder atomically, with its folder's permissions."""
        self.make_dirs(path.parent)
        atomic_write(path, data, sync_dir, self.mode(path))

    def make_dirs(self, directory: Path) -> None:
        """Create ``directory`` inside the folder: 0700 under referee/, else 0755."""
        chain = [directory, *directory.parents]
        below = chain[: chain.index(self.root)] if self.root in chain else [directory]
        for folder in reversed(below):
            private = folder == self.referee or self.referee in folder.parents
            ensure_dir(folder, PRIVATE_DIR if private else PUBLIC_DIR)

    def require(self) -> None:
        """Raise ``NotReady`` unless this looks like a game folder."""
        if not self.manifest.is_file():
            raise NotReady(f"{self.root} is not a game folder (no game.json): check the path")

    def check_links(self) -> None:
        """Raise ``Tampered`` if the folder holds a link, a FIFO or a device anywhere:
        reading one could show another file's content, writing could land outside.

        The walk lists each folder once and keeps what it saw, so that ``check_layout``
        (next, in verify and in the referee's heal) looks the layout up instead of asking
        the file system again. Entries are told apart by the listing's own file types: a
        folder holding only folders and regular files (every sound one) costs no ``stat``.
        Anything else, or a walk that fails, is left to ``safeio.refuse_links``, which
        names the first offender (in sorted order) exactly as it always did.
        """
        self._seen = None
        seen = self._walk()
        if seen is None:
            from arbiter.core.safeio import refuse_links

            refuse_links(self.root, "the game folder")
            return  # what looked odd went away meanwhile: check_layout lists for itself
        self._seen = seen

    def _walk(self) -> dict[str, Listing | None] | None:
        """Return the listing of every folder of the tree, by its path relative to the
        root (``""``: the root), or ``None`` at the first entry that is neither a folder
        nor a regular file."""
        seen: dict[str, Listing | None] = {}
        pending = [(os.fspath(self.root), "")]
        while pending:
            folder, relative = pending.pop()
            listing: Listing = {}
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        if entry.is_dir(follow_symlinks=False):
                            listing[entry.name] = "dir"
                            below = f"{relative}/{entry.name}" if relative else entry.name
                            pending.append((entry.path, below))
                        elif entry.is_file(follow_symlinks=False):
                            listing[entry.name] = "file"
                        else:
                            return None
            except OSError:
                return None
            seen[relative] = listing
        return seen

    def check_layout(self, seats: list[str]) -> None:
        """Raise ``Tampered`` if a folder stands where a file belongs, or the reverse:
        a write there would fail half-way (``check_links`` first).

        One listing per folder: the one ``check_links`` just made (used once, then
        dropped), else one ``scandir`` of each folder here, never a ``stat`` per path.
        """
        seen, self._seen = self._seen, None
        listings = {} if seen is None else dict(seen)
        for folder, name in _layout(tuple(seats)):
            if self._kind(folder, name, listings, seen is not None) not in (None, "file"):
                path = self.root / folder / name
                raise Tampered(
                    f"{path} is a folder, not a file: move it away so arbiter can rewrite it"
                )
        for folder, name in _LAYOUT_FOLDERS:
            if self._kind(folder, name, listings, seen is not None) not in (None, "dir"):
                raise Tampered(f"{self.root / name} is a file, not a folder: move it away")

    def _kind(
        self, folder: str, name: str, listings: dict[str, Listing | None], whole: bool
    ) -> str | None:
        """Return what ``folder/name`` (relative to the root) is, as a ``Listing`` says
        (``None``: nothing there), following a symlink as ``Path.exists`` does, from its
        folder's listing in ``listings`` (made here, by one ``scandir``, when missing).

        ``whole``: ``listings`` is a whole walk (``check_links``) that found only folders
        and regular files, so a folder it did not list holds nothing. Otherwise a folder
        that cannot be listed, or holds a symlink, is asked path by path, so that every
        answer is the one ``exists``/``is_file``/``is_dir`` gave.
        """
        if folder in listings:
            listing = listings[folder]
        elif whole:
            return None  # below a file or a missing folder: nothing there
        else:
            listing = listings[folder] = _listing(os.fspath(self.root / folder))
        if listing is not None:
            return listing.get(name)
        path = self.root / folder / name
        if not path.exists():
            return None
        return "file" if path.is_file() else "dir" if path.is_dir() else "other"

    def remove_temporaries(self) -> list[Path]:
        """Delete temporary files a crashed write left behind; return them (under the lock)."""
        folders = [self.root, self.root / "public", self.referee, self.receipts, self.reveal]
        players = self.root / "players"
        if players.is_dir():
            folders += [p for p in sorted(players.iterdir()) if p.is_dir()]
        removed = []
        for folder in folders:
            if not folder.is_dir():
                continue
            for entry in os.scandir(folder):
                if entry.is_file(follow_symlinks=False) and _TEMP.fullmatch(entry.name):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(entry.path)
                    removed.append(Path(entry.path))
        return removed

    def _open_lock(self) -> int:
        return os.open(self.lockfile, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the referee's exclusive lock for the duration of a write."""
        try:
            fd = self._open_lock()
        except FileNotFoundError:
            raise NotReady(
                f"{self.root} has no referee/ folder: only the referee can do this"
            ) from None
        except OSError as exc:
            raise Tampered(
                f"{self.lockfile} cannot be opened ({exc.strerror}): it must be a plain file"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    @contextlib.contextmanager
    def reading(self) -> Iterator[bool]:
        """Hold a shared lock while reading, if this is the referee's copy; yield whether
        a lock is held (a published copy has no lock: readers retry on a change instead).
        """
        try:
            fd = self._open_lock()
        except OSError:
            yield False
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            yield True
        finally:
            os.close(fd)

    def consistent(self, read: Callable[[], T]) -> T:
        """Return ``read()`` of a consistent snapshot of the folder.

        Under the referee's shared lock where there is one; on a published copy, ``read``
        runs again (``RETRIES``) while a published file changed during it, and a failure
        counts only when nothing changed meanwhile.
        """
        for delay in (*RETRIES, None):
            with self.reading() as locked:
                before = None if locked else self.fingerprint()
                try:
                    result = read()
                except ArbiterError:
                    if locked or delay is None or self.fingerprint() == before:
                        raise
                else:
                    if locked or delay is None or self.fingerprint() == before:
                        return result
            pause(delay)  # a writer is at work: give it time to finish
        raise AssertionError("unreachable")  # pragma: no cover

    def fingerprint(self) -> tuple[tuple[str, int, int, int], ...]:
        """Return size, mtime and inode of the published files: equal before and after a
        read means no writer replaced any of them meanwhile.

        Called twice per verify of a published copy: plain strings and ``os.stat``, no
        ``Path`` objects (an archive verify pays this for every game).
        """
        root = os.fspath(self.root)
        paths = [os.path.join(root, name) for name in _PUBLISHED]
        players = os.path.join(root, "players")
        try:
            seats = sorted(os.listdir(players))
        except (FileNotFoundError, NotADirectoryError):
            seats = []
        for seat in seats:  # a file there too, as before: its "files" are missing
            folder = os.path.join(players, seat)
            paths += [os.path.join(folder, name) for name in _PUBLISHED_SEAT]
        out = []
        for path in paths:
            try:
                st = os.stat(path, follow_symlinks=False)
            except OSError:
                out.append((path, -1, -1, -1))
                continue
            out.append((path, st.st_size, st.st_mtime_ns, st.st_ino))
        return tuple(out)


# What GameDir.fingerprint watches: the published files (relative to the root), and
# those of each seat's folder.
_PUBLISHED = (
    "game.json",
    "chain.jsonl",
    "public/state.json",
    "public/log.md",
    "reveal/reveal.json",
    "reveal/signed.jsonl",
    "public/sealed.json",
)
_PUBLISHED_SEAT = ("state.json", "log.md", "state.json.age", "log.md.age")
