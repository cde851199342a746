"""Publishing a sealed game's per-seat files, and the referee's signed index of them.

In a sealed game (``game.json`` ``"sealed": true``) every seat's state file and log are
written as age files sealed to that seat's key, padded first (``sealing.pad``), and no
plain per-seat file exists. age encryption is randomized, so the same view sealed twice
gives different bytes: the referee keeps a private record (``referee/sealed.json``) of
the digest of what each sealed file holds and of its bytes, and seals a file again only
when what it must hold changed or its bytes are not the ones recorded. ``heal`` thus leaves
a sound folder byte for byte as it was.

Last comes ``public/sealed.json``: the digest of every sealed file at the chain head,
signed by the referee (namespace ``arbiter-sealed``). ``arbiter verify`` checks it and the
age headers without any key (docs/sealing.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from arbiter.core import sealing
from arbiter.core.canonical import parse_strict, pretty, sha256_hex
from arbiter.core.errors import ArbiterError
from arbiter.core.formats import SEALED_INDEX_FORMAT, SEALED_RECORD_FORMAT
from arbiter.core.gamedir import GameDir, fsync_dir
from arbiter.core.safeio import open_nofollow_read


def is_sealed_game(manifest: dict[str, Any]) -> bool:
    return bool(manifest.get("sealed", False))


def _relative(gd: GameDir, path: Path) -> str:
    return path.relative_to(gd.root).as_posix()


def _read(path: Path) -> bytes | None:
    try:
        return open_nofollow_read(path, 1 << 30)
    except FileNotFoundError:
        return None


def _load_record(gd: GameDir) -> dict[str, dict[str, str]]:
    """Return the private record; a missing or damaged one is empty (all is sealed again)."""
    data = _read(gd.sealed_record)
    if data is None:
        return {}
    try:
        record = parse_strict(data, "referee/sealed.json")
    except ArbiterError:
        return {}
    if not isinstance(record, dict) or record.get("format") != SEALED_RECORD_FORMAT:
        return {}
    files = record.get("files")
    return dict(files) if isinstance(files, dict) else {}


def seat_files(gd: GameDir, seats: list[str]) -> dict[Path, tuple[str, Path]]:
    """Map each seat's plain output path to (seat, sealed path)."""
    out: dict[Path, tuple[str, Path]] = {}
    for seat in seats:
        out[gd.seat_log(seat)] = (seat, gd.sealed_log(seat))
        out[gd.seat_state(seat)] = (seat, gd.sealed_state(seat))
    return out


def write_sealed(
    gd: GameDir,
    manifest: dict[str, Any],
    files: dict[Path, bytes],
    keys: dict[str, str] | None = None,
) -> tuple[dict[Path, bytes], list[Path]]:
    """Seal and write the seat files among ``files``; return the rest and what was written.

    ``keys``: the key each seat holds now (a handover changes it; default: game.json's).

    Each log comes before its state file, as in the plain layout. Plain seat files left
    by anything (they must never exist in a sealed game) are removed.
    """
    keys = keys or {s["seat"]: s["key"] for s in manifest["seats"]}
    mapping = seat_files(gd, list(keys))
    record = _load_record(gd)
    changed = False
    written: list[Path] = []
    rest: dict[Path, bytes] = {}
    for path, data in files.items():
        if path not in mapping:
            rest[path] = data
            continue
        seat, target = mapping[path]
        name = _relative(gd, target)
        plain_digest = sha256_hex(data)
        current = _read(target)
        known = record.get(name, {})
        if (
            current is not None
            and known.get("plain") == plain_digest
            and known.get("sealed") == sha256_hex(current)
        ):
            continue
        blob = sealing.seal(sealing.pad(data), [keys[seat]])
        gd.write(target, blob, sync_dir=False)
        record[name] = {"plain": plain_digest, "sealed": sha256_hex(blob)}
        changed = True
        written.append(target)
    for path in mapping:
        if os.path.lexists(path):
            os.unlink(path)
            written.append(path)
    if changed:
        body = {"format": SEALED_RECORD_FORMAT, "files": dict(sorted(record.items()))}
        gd.write(gd.sealed_record, pretty(body))
    for folder in sorted({p.parent for p in written}):
        fsync_dir(folder)
    return rest, written


def index(gd: GameDir, manifest: dict[str, Any], seq: int, head: str) -> bytes:
    """Return the bytes of ``public/sealed.json`` for the sealed files now on disk."""
    from arbiter.core import receipts
    from arbiter.core.signing import NAMESPACE_SEALED, sign

    listed: dict[str, str] = {}
    for seat in (s["seat"] for s in manifest["seats"]):
        for path in (gd.sealed_log(seat), gd.sealed_state(seat)):
            data = _read(path)
            if data is not None:
                listed[_relative(gd, path)] = sha256_hex(data)
    body: dict[str, Any] = {
        "format": SEALED_INDEX_FORMAT,
        "game": manifest["game"],
        "seq": seq,
        "head": head,
        "files": dict(sorted(listed.items())),
    }
    body["signature"] = sign(body, receipts.signing_key(gd), NAMESPACE_SEALED)
    return pretty(body)
