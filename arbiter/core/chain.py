"""The public hash chain: one line per accepted file, each citing the previous line.

Entry 0 (genesis) records the manifest's digest, so editing ``game.json`` after creation
breaks the chain. An entry's ``hash`` is the digest of the entry without ``hash``; the
newest hash is the head that move files sign against.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arbiter.core.canonical import canonical, digest, parse_strict, sha256_hex
from arbiter.core.errors import ArbiterError, Tampered
from arbiter.core.formats import CHAIN_FORMAT
from arbiter.core.safeio import lines
from arbiter.core.schemas import validate


def make_entry(
    seq: int,
    kind: str,
    seat: str | None,
    prev: str | None,
    file_digest: str,
    summary: list[str],
    time: str | None = None,
) -> dict[str, Any]:
    """Return a chain entry with its hash filled in (``time``: games with deadlines)."""
    entry: dict[str, Any] = {
        "format": CHAIN_FORMAT,
        "seq": seq,
        "kind": kind,
        "seat": seat,
        "prev": prev,
        "digest": file_digest,
        "summary": summary,
    }
    if time is not None:
        entry["time"] = time
    entry["hash"] = digest(entry)
    return entry


def line(entry: dict[str, Any]) -> bytes:
    """Return the entry as one ``chain.jsonl`` line: canonical JSON and a newline."""
    return canonical(entry) + b"\n"


_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
# Every kind of entry (docs/chain.md): the first four from the start, the rest from the
# life of a long game (docs/game-life.md: resign … appoint, clocks, takebacks, orders).
KINDS = frozenset((
    "genesis", "join", "move", "timeout",
    "resign", "propose-end", "answer", "handover", "appoint", "deal",
    "leave", "leave-auto", "takeback-request", "takeback", "orders", "order-step",
))  # fmt: skip
_SEAT = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_KEYS = ("digest", "format", "hash", "kind", "prev", "seat", "seq", "summary")
# Games with deadlines stamp every entry with the referee's clock; "time" sorts last, so
# the digest stays the first member of a canonical line (``line_digest``).
_TIMED_KEYS = (*_KEYS, "time")
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_TIME_AT_END = re.compile(rb',"time":"([0-9TZ:-]{20})"\}\n?$')


def _well_formed(entry: Any) -> bool:
    """Check an entry's shape quickly (the JSON Schema explains any failure)."""
    if not isinstance(entry, dict):
        return False
    keys = tuple(sorted(entry))
    if keys == _TIMED_KEYS:
        if not (isinstance(entry["time"], str) and _TIME.fullmatch(entry["time"])):
            return False
    elif keys != _KEYS:
        return False
    return (
        entry["format"] == CHAIN_FORMAT
        and type(entry["seq"]) is int
        and entry["seq"] >= 0
        and isinstance(entry["kind"], str)
        and entry["kind"] in KINDS
        and (
            entry["seat"] is None
            or (isinstance(entry["seat"], str) and _SEAT.fullmatch(entry["seat"]) is not None)
        )
        and (
            entry["prev"] is None
            or (isinstance(entry["prev"], str) and _DIGEST.fullmatch(entry["prev"]) is not None)
        )
        and isinstance(entry["digest"], str)
        and _DIGEST.fullmatch(entry["digest"]) is not None
        and isinstance(entry["hash"], str)
        and _DIGEST.fullmatch(entry["hash"]) is not None
        and isinstance(entry["summary"], list)
        and all(isinstance(text, str) for text in entry["summary"])
    )


_DECODER = json.JSONDecoder()


def _read_line(raw: bytes, seq: int) -> dict[str, Any]:
    """Parse one chain line, proving it is a well-formed entry in canonical form."""
    try:
        entry, _ = _DECODER.raw_decode(raw.decode("utf-8"))
        # Equality with the canonical form rules out duplicate keys, BOMs, odd numbers
        # and whitespace; the shape check rules out floats and NaN.
        if _well_formed(entry) and line(entry) == raw:
            return dict(entry)
    except (ValueError, RecursionError, UnicodeError):
        pass
    try:  # the slow path explains what is wrong
        entry = parse_strict(raw, f"chain entry {seq}")
        if not _well_formed(entry):
            validate("chain-entry", entry, f"chain entry {seq}")
    except ArbiterError as exc:
        raise Tampered(f"chain entry {seq} is damaged ({exc.message})") from None
    raise Tampered(f"chain entry {seq} is not in canonical form: the line was edited")


def iter_chain(path: Path, manifest_digest: str) -> Iterator[dict[str, Any]]:
    """Yield validated entries one at a time, checking every link (streams the file).

    Raises ``Tampered`` naming the first bad entry.
    """
    prev: str | None = None
    with open(path, "rb") as handle:
        for seq, raw in enumerate(lines(handle, "chain.jsonl")):
            entry = check_line(raw, seq, prev, manifest_digest)
            prev = entry["hash"]
            yield entry
    if prev is None:
        raise Tampered("chain.jsonl is empty: the genesis entry is missing")


def check_line(raw: bytes, seq: int, prev: str | None, manifest_digest: str) -> dict[str, Any]:
    """Return line ``seq`` of the chain as an entry, proving its form, hash and link.

    ``prev`` is the hash of the entry before it (``None`` for the genesis entry).
    Raises ``Tampered`` naming what is wrong.
    """
    entry = _read_line(raw, seq)
    if entry["seq"] != seq:
        raise Tampered(f"chain entry {seq} carries seq {entry['seq']}: lines were reordered")
    # The line is canonical, so the entry without its hash is the line without the hash
    # member (keys are sorted; a quote inside a string is always escaped).
    member = b',"hash":"' + entry["hash"].encode() + b'"'
    if entry["hash"] != sha256_hex(raw[:-1].replace(member, b"", 1)):
        raise Tampered(f"chain entry {seq} was altered: its hash does not match its content")
    if entry["prev"] != prev:
        raise Tampered(f"chain entry {seq} does not link to entry {seq - 1}")
    if seq == 0:
        if entry["kind"] != "genesis":
            raise Tampered("chain entry 0 is not the genesis entry")
        if entry["digest"] != manifest_digest:
            raise Tampered(
                "game.json was changed after the game was created (genesis digest differs)"
            )
    elif entry["kind"] == "genesis":
        raise Tampered(f"chain entry {seq} claims to be a second genesis entry")
    return entry


def time_of(raw: bytes) -> str | None:
    """Return the ``time`` of a canonical chain line (games with deadlines), else None."""
    found = _TIME_AT_END.search(raw)
    return found.group(1).decode() if found else None


def entry_line(
    seq: int,
    kind: str,
    seat: str | None,
    prev: str | None,
    file_digest: str,
    summary: list[str],
    time: str | None = None,
) -> tuple[bytes, str]:
    """Return ``line(make_entry(...))`` and the entry's hash, encoding the entry only once.

    A replay rebuilds every line it checks, so this is on its hot path. Keys are sorted,
    so the hash member sits between ``format`` and ``kind``; neither the digest nor the
    format value can contain the text ``,"kind":``.
    """
    fields: dict[str, Any] = {
        "format": CHAIN_FORMAT,
        "seq": seq,
        "kind": kind,
        "seat": seat,
        "prev": prev,
        "digest": file_digest,
        "summary": summary,
    }
    if time is not None:
        fields["time"] = time
    body = canonical(fields)
    entry_hash = sha256_hex(body)
    member = b',"hash":"' + entry_hash.encode() + b'","kind":'
    return body.replace(b',"kind":', member, 1) + b"\n", entry_hash


_DIGEST_AT = slice(len(b'{"digest":"'), len(b'{"digest":"') + len("sha256:") + 64)


def line_digest(raw: bytes) -> bytes:
    """Return the signed-file digest of a canonical chain line, without parsing it.

    The ``digest`` member comes first in a canonical line (keys are sorted). On a line
    that is not canonical this returns garbage, which ``check_line`` then explains.
    """
    return raw[_DIGEST_AT]


def last_time(path: Path) -> str | None:
    """Return the ``time`` of the chain's last line without reading the whole file."""
    with open(path, "rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        handle.seek(max(0, size - 65536))
        tail = handle.read()
    last = tail.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    return time_of(last + b"\n")
