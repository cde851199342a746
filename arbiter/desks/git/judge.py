"""Judging one inbox file: the desk's own refusals, then ``submit``, then its receipt.

The desk refuses, before ``submit`` sees them, what must not come in through a shared
repository: a link or other non-file (a symlink could point anywhere on the referee's
machine), a blob far larger than any move file, and in a sealed game a plain move file
(it shows the player's private decision to everyone; a plain join holds nothing private
and is judged as usual). Their reasons are public. A rejection by ``submit`` in a sealed
game may reveal what the submitter decided, so its reason is sealed to the seat the file
names (``receipts.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbiter.core.canonical import parse_strict
from arbiter.core.errors import ArbiterError, Duplicate, MalformedInput, SchemaViolation
from arbiter.core.gamedir import GameDir
from arbiter.core.referee import submit_deferred, unseal_submission
from arbiter.core.safeio import shown
from arbiter.core.sealing import is_sealed, pad, seal
from arbiter.desks.durable import sync_filesystem
from arbiter.desks.git import inbox, receipts, trees
from arbiter.desks.git.plumbing import Entry

# A sealed move file is a few KiB; anything far larger is refused without reading it.
MAX_BLOB = 2 * 1024 * 1024
PLAIN_MOVE = (
    "plain move files in a sealed game expose private decisions to the other players: "
    "seal it with `arbiter move --seal`"
)


@dataclass
class Handled:
    """One inbox file's fate; ``line`` is its public receipt."""

    file: str
    line: str
    accepted: bool = False
    entry: int | None = None
    seat: str | None = None
    kind: str | None = None
    sealed_to: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Judge:
    """Judges the inbox files of one game for the desk."""

    gd: GameDir
    manifest: dict[str, Any]
    hasher: trees.Hasher
    game_path: str

    @property
    def sealed(self) -> bool:
        return self.manifest.get("sealed") is True

    def sync(self) -> None:
        """Make what was written durable (``desks/durable.py``: the desk judges under
        ``deferred_sync`` and syncs once before it commits)."""
        sync_filesystem(self.gd.root)

    def file(self, entry: Entry, data: bytes | None, published: dict[str, str]) -> Handled:
        """Judge one inbox entry (``data``: its blob, None when too large); write its receipt
        (durable at the caller's next ``sync``).

        ``published`` is the repository's game folder: a file that comes back as a
        duplicate of an entry not published yet was accepted by a round whose push never
        happened, and is reported as accepted now.
        """
        name = inbox.name_of(entry, self.game_path)
        what = f"inbox/{shown(name)}"  # as messages show it: control characters escaped
        receipt = inbox.receipt_name(name)
        try:
            self._admit(entry, data, what)
        except ArbiterError as exc:  # the desk's own refusal: the reason is public
            return self._rejected(what, receipt, receipts.rejection(exc), None)
        assert data is not None
        try:
            accepted = submit_deferred(self.gd.root, data, what, None, self.sync)
            return self._accepted(what, receipt, accepted.seq, accepted.kind, accepted.seat)
        except Duplicate as exc:
            if exc.entry is not None and not self._was_published(exc.entry, published):
                seat, kind = self._entry(exc.entry)
                return self._accepted(what, receipt, exc.entry, kind, seat)
            error: ArbiterError = exc
        except ArbiterError as exc:
            error = exc
        return self._rejected(what, receipt, receipts.rejection(error), self._seat_of(data, what))

    def _admit(self, entry: Entry, data: bytes | None, what: str) -> None:
        if not entry.regular:
            kind = "a symbolic link" if entry.mode == "120000" else "not a regular file"
            raise MalformedInput(f"{what} is {kind}: push the signed file itself into the inbox")
        if data is None:
            raise MalformedInput(
                f"{what} is larger than {MAX_BLOB // (1024 * 1024)} MiB: push only the move file"
            )
        if self.sealed and not is_sealed(data):
            _refuse_plain(data, what)

    def _accepted(self, what: str, receipt: str, seq: int, kind: str, seat: str) -> Handled:
        line = f"accepted as entry #{seq} ({kind} by {seat})"
        receipts.write(self.gd, receipt, line)
        return Handled(what, line, True, seq, seat, kind)

    def _rejected(self, what: str, receipt: str, line: str, seat: str | None) -> Handled:
        if not self.sealed or seat is None:
            receipts.write(self.gd, receipt, line)
            return Handled(what, line, seat=seat)
        key = {s["seat"]: s["key"] for s in self.manifest["seats"]}[seat]
        head, _, _ = line.partition(": ")
        public = f"{head}: the reason is sealed to {seat}: receipts/{receipt}.txt.age"
        receipts.write(self.gd, receipt, public, seal(pad(line.encode() + b"\n"), [key]))
        return Handled(what, public, seat=seat, sealed_to=seat)

    def _was_published(self, seq: int, published: dict[str, str]) -> bool:
        """Whether entry ``seq`` is in the repository already (its receipt, as ours)."""
        path = self.gd.receipt(seq)
        ours = self.hasher.ids([path])[0] if path.is_file() else None
        return ours is not None and published.get(f"receipts/entry-{seq}.json") == ours

    def _entry(self, seq: int) -> tuple[str, str]:
        from arbiter.core.canonical import digest
        from arbiter.core.chain import iter_chain

        for entry in iter_chain(self.gd.chain, digest(self.manifest)):
            if entry["seq"] == seq:
                return str(entry["seat"]), str(entry["kind"])
        return "?", "file"

    def _seat_of(self, data: bytes, what: str) -> str | None:
        """The seat a rejected file names (its reason is sealed to it), or None if unknown."""
        seats = {s["seat"] for s in self.manifest["seats"]}
        try:
            obj = parse_strict(unseal_submission(self.gd.root, data, what), what)
        except ArbiterError:
            return None
        seat = obj.get("seat") if isinstance(obj, dict) else None
        return seat if isinstance(seat, str) and seat in seats else None


def _refuse_plain(data: bytes, what: str) -> None:
    """In a sealed game only join files may come in plain: they hold nothing private."""
    try:
        obj = parse_strict(data, what)
    except ArbiterError:
        raise MalformedInput(
            f"{what} is neither a sealed (age) file nor a join file: seal move files "
            "with `arbiter move --seal`"
        ) from None
    fmt = obj.get("format") if isinstance(obj, dict) else None
    if not (isinstance(fmt, str) and fmt.startswith("arbiter.join/")):
        raise SchemaViolation(f"{what}: {PLAIN_MOVE}")
