"""What the mail desk has done, kept so that a restart repeats nothing and misses nothing.

- ``Record``: per chain entry, ``referee/mail/<entry>.json`` in the game folder: which mail
  the entry came from (``origin``), whom its receipt answers (``reply``), the Message-ID
  of every mail sent for it, and whether its round is complete (``done``). Written right
  after the chain commit, before any mail, so an interrupted round is found and finished
  even when its mail can no longer be read again (``Rounds.finish_rounds``).
- ``Journal``: the desk's own folder ``.mail-desk/`` under the games root: answers that
  belong to no entry (refusals, quarantine notices, reminders), and the hourly count of
  files per sender.

Addresses in these files are private: ``referee/`` is never published, ``reveal`` copies
only the secret and the signed files.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from arbiter.core.canonical import parse_strict, pretty
from arbiter.core.errors import ArbiterError
from arbiter.core.gamedir import GameDir, atomic_write, ensure_dir, syncing, write_point

SENT_FORMAT = "arbiter.mail-sent/1"


class Record:
    """What was sent for one chain entry (or for the reveal): ``referee/mail/<entry>.json``."""

    def __init__(self, gd: GameDir, seq: int | str):
        self.gd = gd
        self.path = gd.referee / "mail" / f"{seq}.json"
        self.seq = seq
        remove_strays(self.path)
        self.origin: list[Any] | None = None
        self.reply: dict[str, Any] | None = None
        self.sent: list[str] = []
        self.done = False
        self.exists = False
        try:
            data = parse_strict(self.path.read_bytes(), str(self.path))
        except (FileNotFoundError, ArbiterError):
            return
        if not isinstance(data, dict):
            return
        self.exists = True
        self.sent = [str(mid) for mid in data.get("sent", []) if isinstance(mid, str)]
        self.done = data.get("done") is True
        origin = data.get("origin")
        self.origin = origin if isinstance(origin, list) else None
        reply = data.get("reply")
        self.reply = reply if isinstance(reply, dict) else None

    @classmethod
    def pending(cls, gd: GameDir, done: set[int]) -> list[Record]:
        """The entries of a game whose round was begun and not completed, oldest first.

        ``done`` holds the entries already known complete (a long-running desk looks at
        every game at every pass: it reads each record once); the complete ones found
        are added to it.
        """
        folder = gd.referee / "mail"
        try:
            names = [entry.name for entry in os.scandir(folder)]
        except (FileNotFoundError, NotADirectoryError):
            return []
        seqs = sorted(int(name[:-5]) for name in names if name.endswith(".json") and name[:-5].isdigit())
        pending = []
        for seq in seqs:
            if seq in done:
                continue
            try:  # a quick look first: nearly every record is complete
                complete = json.loads((folder / f"{seq}.json").read_bytes()).get("done") is True
            except (OSError, ValueError, AttributeError):
                complete = False
            if complete:
                done.add(seq)
            else:
                pending.append(cls(gd, seq))
        return [record for record in pending if not record.done]

    def has(self, mid: str) -> bool:
        return mid in self.sent

    def open(self, origin: list[Any] | None, reply: dict[str, Any] | None) -> None:
        """Say where the entry came from and whom to answer, before any mail is sent."""
        self.origin, self.reply = origin, reply
        self._save()

    def add(self, mid: str) -> None:
        self.sent.append(mid)
        self._save()

    def close_round(self) -> None:
        if not self.done:
            self.done = True
            self._save()

    def _save(self) -> None:
        record: dict[str, Any] = {"format": SENT_FORMAT, "entry": self.seq}
        if self.origin is not None:
            record["origin"] = self.origin
        if self.reply is not None:
            record["reply"] = self.reply
        record |= {"sent": self.sent, "done": self.done}
        self.gd.write(self.path, pretty(record))
        self.exists = True


class Journal:
    """The desk's own records under ``<games>/.mail-desk/``."""

    def __init__(self, root: Path):
        self.folder = root / ".mail-desk"

    def answered(self) -> set[str]:
        try:
            return set((self.folder / "answered.txt").read_text(encoding="ascii").split())
        except FileNotFoundError:
            return set()

    def add(self, mid: str) -> None:
        path = self.folder / "answered.txt"
        write_point()  # the answer is sent, not recorded yet
        ensure_dir(self.folder, 0o700)
        with open(path, "a", encoding="ascii") as handle:
            handle.write(mid + "\n")
            handle.flush()
            if syncing():  # else the desk syncs the file system at once (``durable``)
                os.fsync(handle.fileno())
        write_point()  # recorded, the mail not moved yet

    def allowed(self, sender: str, key: str, files: int, limit: int, now: str, hour: str) -> bool:
        """Count ``files`` for ``sender`` once per mail ``key``; return whether they stay
        within ``limit`` since ``hour`` (an hour before ``now``, both ISO times). The same
        mail read again after a crash is not counted twice."""
        path = self.folder / "senders.json"
        counts = self._load(path)
        tag = "|" + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:16]
        recent = [t for t in counts.get(sender, []) if isinstance(t, str) and t > hour]
        if any(t.endswith(tag) for t in recent):
            return True  # this very mail, counted before a crash
        allowed = len(recent) + files <= limit
        if allowed:
            recent += [now + tag] * files
        counts = {s: [t for t in ts if isinstance(t, str) and t > hour] for s, ts in counts.items() if isinstance(ts, list)}
        counts[sender] = recent
        self._save(path, counts)
        return allowed

    def warned(self, sender: str, now: str, hour: str) -> bool:
        """Return whether ``sender`` was already told of the limit since ``hour`` (then
        tell once)."""
        path = self.folder / "warned.json"
        warned = self._load(path)
        if isinstance(warned.get(sender), str) and warned[sender] > hour:
            return True
        warned[sender] = now
        self._save(path, warned)
        return False

    @staticmethod
    def _load(path: Path) -> dict[str, Any]:
        try:
            data = json.loads(path.read_bytes())
        except (FileNotFoundError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, path: Path, data: dict[str, Any]) -> None:
        ensure_dir(self.folder, 0o700)
        remove_strays(path)
        atomic_write(path, json.dumps(data, sort_keys=True).encode(), mode=0o600)


def remove_strays(path: Path) -> None:
    """Delete the temporary files a write of ``path`` killed half-way left behind."""
    if path.parent.is_dir():
        for stray in path.parent.glob(f".{path.name}.*.tmp"):
            stray.unlink(missing_ok=True)
