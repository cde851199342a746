"""The desks' group commit: one ``syncfs`` makes many files durable at once.

Every write of a game folder is a temporary file, an fsync, a rename and an fsync of the
folder: about 4 ms a file on a shared disk, and a submit writes a dozen files (the signed
file, the chain, each seat's state and log, the public ones, the receipt), then the desk
its own records. The desks write them under ``gamedir.deferred_sync`` (each file still
replaced whole by a rename, so a killed desk leaves every file whole) and make them
durable together, where durability is owed:

- the signed file before the chain is written (the commit order of ``submit``:
  ``referee.submit_deferred``);
- the mail desk (``MailDesk``): the chain, the views and the entry's record before the
  entry's first answer mail (which also makes the records of the mails sent before it
  durable), and once more at the end of each batch of mail;
- the git desk (``GitDesk``): everything judged before the round's commits are built and
  pushed.

A desk killed at any point loses nothing (the page cache survives the process). A machine
that loses power may lose what was written since the last sync: for the mail desk, at
most the records of the answers of the mail at hand, which are then sent again with the
same Message-ID; for the git desk, nothing it published.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

_SYNCFS: list[Callable[[int], int] | None] = []


def _syncfs() -> Callable[[int], int] | None:
    if not _SYNCFS:
        try:
            import ctypes

            _SYNCFS.append(ctypes.CDLL(None, use_errno=True).syncfs)
        except (OSError, AttributeError):  # not Linux: ``os.sync`` syncs every file system
            _SYNCFS.append(None)
    return _SYNCFS[0]


def sync_filesystem(path: Path) -> None:
    """Make every write to the file system that holds ``path`` durable (syncfs(2))."""
    syncfs = _syncfs()
    if syncfs is None:
        os.sync()
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        if syncfs(fd) != 0:
            import ctypes

            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code), str(path))
    finally:
        os.close(fd)
