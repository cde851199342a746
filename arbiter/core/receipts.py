"""Referee receipts: a signed statement that a file became a given chain entry.

After accepting a file the referee signs (SSHSIG, namespace ``arbiter-receipt``, with the
key published in game.json) ``{"format": "arbiter.receipt/1", "game", "seq", "kind",
"seat", "hash", "digest"}`` and writes it to ``referee/receipts/<seq>.json``; the player
keeps it. Because each chain hash covers every entry before it, a receipt for entry N
later proves the whole chain up to N: a referee who drops or replaces an accepted file
is caught by ``arbiter verify GAME --receipt FILE`` (docs/receipts.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from arbiter.core.canonical import parse_strict, pretty
from arbiter.core.chain import iter_chain
from arbiter.core.errors import ArbiterError, NotReady, Tampered, VerificationFailed
from arbiter.core.formats import RECEIPT_FORMAT
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import shown
from arbiter.core.schemas import validate


def signing_key(gd: GameDir) -> Path:
    """Return the referee's private key for this game (made by arbiter, or its path)."""
    if gd.referee_key.is_file():
        return gd.referee_key
    try:
        text = gd.referee_key_path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise NotReady(
            f"{gd.root} has no referee key (referee/key or referee/key-path): "
            "only the referee's copy of a version-2 game can sign receipts"
        ) from None
    key = Path(text)
    if not key.is_file():
        raise NotReady(
            f"the referee key {shown(key)} (named in referee/key-path) is missing: restore it, "
            "it signs every receipt"
        )
    return key


def make(manifest: dict[str, Any], entry: dict[str, Any], key: Path) -> dict[str, Any]:
    """Return the signed receipt of chain ``entry``."""
    from arbiter.core.signing import NAMESPACE_RECEIPT, sign

    receipt: dict[str, Any] = {
        "format": RECEIPT_FORMAT,
        "game": manifest["game"],
        "seq": entry["seq"],
        "kind": entry["kind"],
        "seat": entry["seat"],
        "hash": entry["hash"],
        "digest": entry["digest"],
    }
    receipt["signature"] = sign(receipt, key, NAMESPACE_RECEIPT)
    return receipt


def prepare(gd: GameDir, manifest: dict[str, Any], entry: dict[str, Any]) -> dict[Path, bytes]:
    """Return the receipt file of a new entry, signed before the entry is committed (so a
    missing or unusable referee key refuses the file instead of failing after it was
    accepted); empty for version-1 games."""
    if "referee" not in manifest:
        return {}
    return {gd.receipt(entry["seq"]): pretty(make(manifest, entry, signing_key(gd)))}


def write(gd: GameDir, manifest: dict[str, Any], entries: Iterable[dict[str, Any]]) -> list[Path]:
    """Write the receipt of each entry that has none yet; return the files written.

    Version-1 games have no referee key and get none. Receipts are deterministic
    (Ed25519), so one rewritten after a crash is the same file.
    """
    if "referee" not in manifest:
        return []
    written = []
    key: Path | None = None
    for entry in entries:
        path = gd.receipt(entry["seq"])
        # Receipts answer a submitted file; a timeout is the referee's own entry.
        if entry["seq"] == 0 or entry["kind"] in ("timeout", "appoint", "leave-auto", "takeback", "order-step") or path.is_file():
            continue
        key = key or signing_key(gd)
        gd.write(path, pretty(make(manifest, entry, key)))
        written.append(path)
    return written


def load(path: Path) -> dict[str, Any]:
    """Read and validate a receipt file."""
    from arbiter.core.safeio import read_input

    what = f"receipt {path.name}"
    receipt = parse_strict(read_input(path, what), what)
    validate("receipt", receipt, what)
    return dict(receipt)


def check(
    gd: GameDir, manifest: dict[str, Any], manifest_digest: str, paths: list[Path]
) -> list[str]:
    """Prove each receipt's entry is in the published chain; return one line per receipt.

    Raises ``VerificationFailed`` naming a receipt that the chain contradicts: the referee
    accepted that file and then dropped or replaced it.
    """
    from arbiter.core.signing import NAMESPACE_RECEIPT, verify

    if not paths:
        return []
    referee = manifest.get("referee")
    if referee is None:
        raise VerificationFailed(
            "this game's game.json names no referee key (format arbiter.game/1): "
            "it has no receipts to check"
        )
    wanted: dict[int, tuple[Path, dict[str, Any]]] = {}
    for path in paths:
        try:
            receipt = load(path)
            if receipt["game"] != manifest["game"]:
                raise VerificationFailed(
                    f"receipt {path.name} is for game {receipt['game']!r}, not {manifest['game']!r}"
                )
            verify(receipt, referee, NAMESPACE_RECEIPT)
        except VerificationFailed:
            raise
        except ArbiterError as exc:
            named = f"receipt {path.name}"
            said = exc.message if exc.message.startswith(named) else f"{named}: {exc.message}"
            raise VerificationFailed(said) from None
        wanted[receipt["seq"]] = (path, receipt)
    found: dict[int, dict[str, Any]] = {}
    try:
        for entry in iter_chain(gd.chain, manifest_digest):
            if entry["seq"] in wanted:
                found[entry["seq"]] = entry
    except (Tampered, FileNotFoundError) as exc:
        message = exc.message if isinstance(exc, Tampered) else "chain.jsonl is missing"
        raise VerificationFailed(message) from None
    lines = []
    for seq, (path, receipt) in sorted(wanted.items()):
        if seq not in found:
            raise VerificationFailed(
                f"receipt {path.name}: the referee accepted entry #{seq} "
                f"({receipt['kind']} by {receipt['seat']}) but the chain has no entry #{seq}: "
                "it was dropped"
            )
        entry = found[seq]
        if entry["hash"] != receipt["hash"] or entry["digest"] != receipt["digest"]:
            raise VerificationFailed(
                f"receipt {path.name}: the referee accepted another file as entry #{seq} "
                f"({receipt['kind']} by {receipt['seat']}) than the chain now holds: "
                "the chain was rewritten"
            )
        lines.append(f"receipt {path.name}: entry #{seq} ({receipt['kind']} by {receipt['seat']}) is in the chain")
    return lines
