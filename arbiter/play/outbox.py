"""What the player's program keeps per game: signed files not yet known delivered, and
what the game waited for at each entry it has seen.

In the game's state folder (``profile.state_dir``):

- ``outbox/``: each move or join file, written (atomically) before its delivery starts;
  it leaves only when the transport said where it went, so a crash or a failed delivery
  leaves it there to be sent again;
- ``sent/``: the files delivered, moved out of ``outbox/`` by a rename (kept: nothing a
  player signed is thrown away);
- ``seen.json``: for each entry seen, the seat the game then waited for and the head, so
  "since you last decided" can be told from the seat's own files, without the chain.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError, UsageError
from arbiter.core.gamedir import PRIVATE_DIR, PRIVATE_FILE, atomic_write, ensure_dir, fsync_dir
from arbiter.core.safeio import read_input, shown, visible
from arbiter.play.transports.base import plain_name

SEEN_FORMAT = "arbiter.play-seen/1"
_SEEN_LIMIT = 16 * 1024 * 1024  # a long game's entries, with room to spare


def _folder(game: str, folder: Path | None) -> Path:
    if folder is not None:
        ensure_dir(folder, PRIVATE_DIR)
        return folder
    from arbiter.play.profile import state_dir

    return state_dir(game)


def warn(message: str) -> None:
    """One warning line on stderr, as the CLI's ``arbiter: warning:`` lines."""
    sys.stderr.write(f"arbiter: warning: {visible(message)[:500]}\n")


class Outbox:
    """The signed files of one game that are not known delivered.

    It keeps the plain signed file (a move or a join, JSON): that is what can be read back
    to offer a resend while the head it was signed against is current. A transport that
    carries sealed files (git) gets the file sealed at delivery.
    """

    def __init__(self, game: str, folder: Path | None = None):
        """``folder``: the game's state folder (default ``profile.state_dir(game)``)."""
        self.root = _folder(game, folder)
        self.outbox = self.root / "outbox"
        self.sent_dir = self.root / "sent"

    def put(self, name: str, data: bytes) -> Path:
        """Keep ``data`` as ``outbox/<name>`` (atomically) and return its path.

        The same bytes under the same name again is the same file (nothing happens); other
        bytes under a name already waiting are refused: a signed file is never replaced.
        """
        plain_name(name)
        ensure_dir(self.outbox, PRIVATE_DIR)
        path = self.outbox / name
        if path.is_file():
            if read_input(path) == data:
                return path
            raise UsageError(
                f"{shown(path)} already waits to be sent with other content: "
                "send or remove it first"
            )
        atomic_write(path, data, mode=PRIVATE_FILE)
        return path

    def pending(self) -> list[tuple[Path, dict[str, Any]]]:
        """The files waiting in ``outbox/``, oldest first, each with its parsed content.

        A file that is not a readable JSON object is left where it is, with a warning: it
        is never lost, and never sent as it is.
        """
        from arbiter.core.canonical import parse_strict

        if not self.outbox.is_dir():
            return []
        found = []
        for entry in os.scandir(self.outbox):
            # atomic_write's temporary files start with a dot; plain_name refuses such names
            if entry.name.startswith(".") or not entry.is_file(follow_symlinks=False):
                continue
            path = Path(entry.path)
            try:
                obj = parse_strict(read_input(path), path.name)
            except ArbiterError as exc:
                warn(f"{shown(path)} cannot be read ({exc.message}): left in the outbox")
                continue
            if not isinstance(obj, dict):
                warn(f"{shown(path)} is not a move or join file: left in the outbox")
                continue
            found.append((entry.stat(follow_symlinks=False).st_mtime_ns, path.name, path, obj))
        return [(path, obj) for _, _, path, obj in sorted(found, key=lambda f: (f[0], f[1]))]

    def sent(self, path: Path) -> Path:
        """Move a delivered file from ``outbox/`` to ``sent/`` (one rename); return where
        it is now. A file of that name already in ``sent/`` with other bytes is kept: this
        one gets a numbered name."""
        path = Path(path)
        if path.parent.resolve() != self.outbox.resolve():
            raise UsageError(f"{shown(path)} is not in the outbox {shown(self.outbox)}")
        ensure_dir(self.sent_dir, PRIVATE_DIR)
        target = self.sent_dir / path.name
        number = 0
        while target.exists():
            if target.read_bytes() == path.read_bytes():
                path.unlink()  # the same file was sent before: one copy is enough
                fsync_dir(self.outbox)
                return target
            number += 1
            target = self.sent_dir / f"{path.name}.{number}"
        os.replace(path, target)
        fsync_dir(self.sent_dir)
        fsync_dir(self.outbox)
        return target


class Seen:
    """What the game waited for at each entry the player's program has seen.

    ``seen.json``: ``{"format": ..., "entries": {"<seq>": {"waiting": seat | null,
    "head": "sha256:..."}}}``. A damaged file is set aside (``seen.json.damaged-<n>``)
    with a warning and the record starts again: it is a convenience, the chain is the
    record.
    """

    def __init__(self, game: str, folder: Path | None = None):
        self.root = _folder(game, folder)
        self.path = self.root / "seen.json"
        self._entries: dict[int, dict[str, str | None]] = self._read()

    def _read(self) -> dict[int, dict[str, str | None]]:
        try:
            data = read_input(self.path, shown(self.path), _SEEN_LIMIT)
        except ArbiterError:
            if not os.path.lexists(self.path):
                return {}
            return self._set_aside("it cannot be read")
        try:
            raw = json.loads(data)
            if not isinstance(raw, dict) or raw.get("format") != SEEN_FORMAT:
                raise ValueError("not a seen.json")
            entries = {}
            for seq, item in raw["entries"].items():
                waiting, head = item["waiting"], item["head"]
                if not (
                    isinstance(waiting, str | None) and isinstance(head, str) and seq.isdigit()
                ):
                    raise ValueError("a bad entry")
                entries[int(seq)] = {"waiting": waiting, "head": head}
            return entries
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return self._set_aside("it is damaged")

    def _set_aside(self, why: str) -> dict[int, dict[str, str | None]]:
        number = 1
        while os.path.lexists(self.root / f"seen.json.damaged-{number}"):
            number += 1
        target = self.root / f"seen.json.damaged-{number}"
        with contextlib.suppress(FileNotFoundError):
            os.replace(self.path, target)
            fsync_dir(self.root)
        warn(f"{shown(self.path)}: {why}; set aside as {target.name}, starting a new record")
        return {}

    def record(self, state: dict[str, Any]) -> None:
        """Remember, for the state file's entry, which seat the game waited for (its
        prompt's, or none) and its head. Written only when something is new."""
        seq = state["seq"]
        prompt = state.get("prompt")
        item = {"waiting": prompt["seat"] if prompt else None, "head": state["head"]}
        if self._entries.get(seq) == item:
            return
        # Another `arbiter play` of this game may have recorded meanwhile: merge.
        self._entries = {**self._read(), seq: item}
        body = {
            "format": SEEN_FORMAT,
            "entries": {str(s): self._entries[s] for s in sorted(self._entries)},
        }
        atomic_write(self.path, json.dumps(body, indent=1).encode() + b"\n", mode=PRIVATE_FILE)

    def decided_by(self, seq: int) -> str | None:
        """The seat that made entry ``seq``, as far as known: the seat the game waited for
        at entry ``seq - 1`` (``None`` when that entry was not seen or waited for nobody)."""
        item = self._entries.get(seq - 1)
        return item["waiting"] if item else None

    def head(self, seq: int) -> str | None:
        """The head seen at entry ``seq`` (``None``: not seen)."""
        item = self._entries.get(seq)
        return item["head"] if item else None

    def last_seen(self) -> int | None:
        """The newest entry seen, or ``None``."""
        return max(self._entries) if self._entries else None
