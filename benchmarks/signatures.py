"""Signature checks (issue 25, item 2): the Python around the Ed25519 check against the check.

    python benchmarks/signatures.py [ARCHIVE] [--files 400] [--rounds 5]

Reads the signed files (moves and joins) of the finished games in ``ARCHIVE`` (default:
the archive benchmark's cache, ``benchmarks/archive.py`` builds it), then times, per file:

- ``verify``: ``arbiter.core.signing.verify`` of the file with its seat's key, as replay
  calls it (the armour, the blob, the key, the signed bytes, the Ed25519 check);
- the check alone: ``cryptography``'s ``Ed25519PublicKey.verify`` of the same signature
  over the same message, everything prepared beforehand.

The two are timed back to back for each file, and each file's best of ``--rounds`` kept.

Printed: both in µs per file, the difference (the Python around
the check) and its ratio to the check. Target: the difference below the check (< 1.0×).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arbiter.core.signing import NAMESPACE_JOIN, NAMESPACE_MOVE, signed_bytes, verify

CACHE = Path("/tmp/arbiter-archive-bench")


def signed_files(archive: Path, count: int) -> list[tuple[dict, str, str]]:
    """Return up to ``count`` (signed file, seat key, namespace) from revealed games."""
    out: list[tuple[dict, str, str]] = []
    for signed in sorted(archive.rglob("reveal/signed.jsonl")):
        manifest = json.loads((signed.parent.parent / "game.json").read_text())
        keys = {seat["seat"]: seat["key"] for seat in manifest["seats"]}
        for line in signed.read_bytes().splitlines():
            obj = json.loads(line)
            if obj.get("seat") not in keys or "signature" not in obj:
                continue  # the referee's timeout records
            ns = NAMESPACE_JOIN if obj["format"].startswith("arbiter.join") else NAMESPACE_MOVE
            out.append((obj, keys[obj["seat"]], ns))
            if len(out) == count:
                return out
    return out


def prepared(files: list[tuple[dict, str, str]]) -> list[tuple[object, bytes, bytes]]:
    """Return (cryptography key, raw signature, signed message) of each file."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    out = []
    for obj, key, ns in files:
        blob = base64.b64decode("".join(obj["signature"].splitlines()[1:-1]))
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(key.split()[1])[-32:])
        raw = blob[-64:]
        digest = hashlib.sha512(signed_bytes(obj)).digest()
        parts = (ns.encode(), b"", b"sha512", digest)
        message = b"SSHSIG" + b"".join(len(p).to_bytes(4, "big") + p for p in parts)
        out.append((public, raw, message))
    return out


def paired(rounds: int, files: list, checks: list) -> tuple[float, float]:
    """Return the µs a file of ``verify`` and of the check alone: each file's two timings
    taken back to back and the best of ``rounds`` kept for each, so that a machine whose
    speed drifts (other work on it) moves both alike."""
    from time import perf_counter_ns

    whole = [float("inf")] * len(files)
    alone = [float("inf")] * len(files)
    for _ in range(rounds):
        for index, ((obj, key, ns), (public, raw, message)) in enumerate(
            zip(files, checks, strict=True)
        ):
            start = perf_counter_ns()
            verify(obj, key, ns)
            middle = perf_counter_ns()
            public.verify(raw, message)
            end = perf_counter_ns()
            whole[index] = min(whole[index], middle - start)
            alone[index] = min(alone[index], end - middle)
    return sum(whole) / len(files) / 1000, sum(alone) / len(files) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", nargs="?", type=Path, default=CACHE)
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    files = signed_files(args.archive, args.files)
    if not files:
        raise SystemExit(f"no revealed game under {args.archive}: run benchmarks/archive.py first")
    checks = prepared(files)

    for obj, key, ns in files:  # imports and first-use costs outside the timing
        verify(obj, key, ns)
    whole, check = paired(args.rounds, files, checks)
    around = whole - check
    print(f"{len(files)} signed files (moves and joins), best of {args.rounds}")
    print(f"verify, whole:            {whole:7.1f} µs a file")
    print(f"Ed25519 check alone:      {check:7.1f} µs a file")
    print(
        f"the Python around it:     {around:7.1f} µs a file = {around / check:.2f}× the check"
        "   (target < 1.0×)"
    )


if __name__ == "__main__":
    main()
