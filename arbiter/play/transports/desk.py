"""The game folder is on this machine: read the seat's files there, deliver a signed file.

Two ways to deliver. When the folder is the referee's own copy and this user can read
its secret (a kitchen-table game on one machine), the file is judged at once by the
referee's own code, exactly as ``arbiter submit`` judges it. Otherwise the file is
dropped into the folder the referee collects from (``drop``), never over another file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from arbiter.core.errors import NotReady, UsageError
from arbiter.core.gamedir import GameDir, fsync_dir
from arbiter.core.safeio import read_input, shown
from arbiter.play.transports.base import Fetched, Transport, plain_name


class DeskTransport(Transport):
    """A seat of a game folder on this machine."""

    name = "desk"

    def __init__(self, folder: Path, seat: str, key: Path | None, drop: Path | None = None):
        self.gd = GameDir(folder)
        self.seat = seat
        self.key = key
        self.drop = drop

    def fetch(self) -> Fetched:
        """The seat's state file and log (sealed ones opened with the key) and the last
        entry's time, read as one snapshot (under the referee's shared lock where there is
        one, else read again while the referee was writing)."""
        gd = self.gd
        gd.require()
        return gd.consistent(self._read)

    def _read(self) -> Fetched:
        from arbiter.core.chain import last_time
        from arbiter.core.player import read_state_bytes

        gd, seat = self.gd, self.seat
        state_path = next(
            (p for p in (gd.seat_state(seat), gd.sealed_state(seat)) if p.is_file()), None
        )
        if state_path is None:
            raise NotReady(
                f"{shown(gd.root)} has no state file for seat {seat} yet: the game waits "
                "for its joins (join first, then try again)"
            )
        state = read_state_bytes(state_path, self.key)
        log = None
        log_path = next((p for p in (gd.seat_log(seat), gd.sealed_log(seat)) if p.is_file()), None)
        if log_path is not None:
            log = read_state_bytes(log_path, self.key).decode("utf-8", "replace")
        time = last_time(gd.chain) if gd.chain.is_file() else None
        return Fetched(state, log, time, shown(state_path))

    def deliver(self, name: str, data: bytes) -> str:
        """Drop the file (with ``drop``), else submit it to the referee's own folder."""
        from arbiter.play.profile import referee_here

        plain_name(name)
        if self.drop is not None:
            return self._drop(name, data)
        if referee_here(self.gd.root):
            return self._submit(name, data)
        raise UsageError(
            f"{shown(self.gd.root)} is not the referee's folder: give --drop, the folder "
            "the referee collects move files from"
        )

    def _submit(self, name: str, data: bytes) -> str:
        # The referee's judgement, as `arbiter submit` makes it; a refusal is its error,
        # unchanged (same message, same exit code), and leaves the folder as it was.
        from arbiter.core.referee import submit

        accepted = submit(self.gd.root, data, name)
        return (
            f"{name} accepted as entry #{accepted.seq} ({accepted.kind} by {accepted.seat}) "
            f"in {shown(self.gd.root)}"
        )

    def _drop(self, name: str, data: bytes) -> str:
        """Write ``drop/name`` whole or not at all, and never over another file: the
        bytes go to a temporary file first, then get the name by a hard link, which fails
        if the name exists (where a rename would replace it)."""
        assert self.drop is not None
        drop = self.drop
        if not drop.is_dir():
            raise UsageError(f"drop folder {shown(drop)} does not exist: create it, or fix --drop")
        target = drop / name
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=drop)
        except OSError as exc:
            raise UsageError(f"cannot write into {shown(drop)} ({exc.strerror}): check --drop") from None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            try:
                os.link(tmp, target)
            except FileExistsError:
                if read_input(target, shown(target)) != data:
                    raise UsageError(
                        f"{shown(target)} already exists with other content: the referee "
                        "has not collected it yet; wait, or ask the referee"
                    ) from None
                return f"{name} was already in the drop folder {shown(drop)}"
            except OSError as exc:
                raise UsageError(f"cannot write into {shown(drop)} ({exc.strerror}): check --drop") from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        fsync_dir(drop)
        return f"{name} dropped into {shown(drop)} for the referee"
