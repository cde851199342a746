"""Read a game folder's records: manifest, chain and signed files, each checked on the way in.

Shared by the referee (which also holds the secret) and ``arbiter verify``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

from arbiter.core import registry
from arbiter.core.canonical import digest, parse_canonical, parse_strict, sha256_hex
from arbiter.core.engine import Engine
from arbiter.core.errors import ArbiterError, NotReady, SchemaViolation, Tampered
from arbiter.core.formats import MANIFEST_FORMAT, MANIFEST_FORMAT_1
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import MAX_BYTES, cut_short, read_input, shown
from arbiter.core.schemas import validate

# format -> (kind, schema name)
FILE_KINDS = {
    "arbiter.join/2": ("join", "join"),
    "arbiter.join/1": ("join", "join-v1"),
    "arbiter.move/1": ("move", "move"),
    "arbiter.resign/1": ("resign", "resign"),
    "arbiter.propose-end/1": ("propose-end", "propose-end"),
    "arbiter.answer/1": ("answer", "answer"),
    "arbiter.handover/1": ("handover", "handover"),
    "arbiter.leave/1": ("leave", "leave"),
    "arbiter.takeback/1": ("takeback-request", "takeback"),
    "arbiter.orders/2": ("orders", "orders"),
    "arbiter.orders/1": ("orders", "orders-v1"),
}
MANIFEST_SCHEMAS = {MANIFEST_FORMAT: "manifest", MANIFEST_FORMAT_1: "manifest-v1"}


def read_json(path: Path, what: str) -> Any:
    """Read and strictly parse a JSON file (``safeio.read_input``: a regular file, not a
    symlink, FIFO or device, at most 1 MiB; ``NotReady`` when it is missing)."""
    name = shown(path) if what in (str(path), path.name) else f"{what} {shown(path)}"
    return parse_strict(read_input(path, name), what)


def load_manifest(gd: GameDir) -> tuple[dict[str, Any], str, Engine]:
    """Return the validated manifest, its digest and its engine."""
    gd.require()
    manifest = read_json(gd.manifest, "game.json")
    try:
        validate(manifest_schema(manifest), manifest, "game.json")
    except SchemaViolation as exc:
        raise Tampered(f"{exc.message} (was game.json edited?)") from None
    engine = registry.get(manifest["engine"]["name"])
    if engine.info.version != manifest["engine"]["version"]:
        from arbiter.releases import advice

        wanted = manifest["engine"]["version"]
        made = manifest.get("arbiter")
        raise NotReady(
            f"this game needs {engine.info.name} {wanted} but this arbiter has "
            f"{engine.info.version}: {advice(engine.info.name, wanted, made)}"
        )
    engine.check_options(manifest["options"])
    return manifest, digest(manifest), engine


def manifest_schema(manifest: Any) -> str:
    """Return the schema a manifest is checked against (its format's, else the current)."""
    fmt = manifest.get("format") if isinstance(manifest, dict) else None
    # Only a string can name a format: a list or an object is not hashable as a key.
    return MANIFEST_SCHEMAS.get(fmt, "manifest") if isinstance(fmt, str) else "manifest"


def seat_keys(manifest: dict[str, Any]) -> dict[str, str]:
    """Return the public key of every seat."""
    return {s["seat"]: s["key"] for s in manifest["seats"]}


def classify(obj: Any, what: str) -> str:
    """Return ``"join"`` or ``"move"`` for a submitted object, else raise ``SchemaViolation``."""
    if not isinstance(obj, dict):
        raise SchemaViolation(f"{what}: expected a JSON object (a join or move file)")
    fmt = obj.get("format")
    if not isinstance(fmt, str):
        # Any JSON value may stand here; only a string can be looked up (or shown).
        raise SchemaViolation(
            f"{what}: the field \"format\" is missing or not a string: a join or move file "
            "says arbiter.join/2 or arbiter.move/1"
        )
    found = FILE_KINDS.get(fmt)
    if found is None:
        raise SchemaViolation(
            f"{what}: format {fmt[:40]!r} is not a join or move file "
            "(expected arbiter.join/2 or arbiter.move/1)"
        )
    kind, schema = found
    validate(schema, obj, what)
    return kind


class Records:
    """Stream the signed files of ``signed.jsonl``: line n−1 holds chain entry n's file."""

    def __init__(self, path: Path):
        self.path = path
        self.handle: BinaryIO | None
        try:
            self.handle = open(path, "rb")  # noqa: SIM115 (closed by __exit__; streamed)
        except FileNotFoundError:
            self.handle = None

    def __enter__(self) -> Records:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()

    def read(self, seq: int, expected: str) -> dict[str, Any]:
        """Return entry ``seq``'s signed file, checked against the chain's digest."""
        data = self.read_raw(seq)
        # Stored files are canonical, so hashing the line is hashing the canonical bytes.
        if sha256_hex(data) != expected:
            raise Tampered(f"signed file of chain entry {seq} does not match its chain digest")
        return self.parse(seq, data)

    def read_raw(self, seq: int) -> bytes:
        """Return the bytes of entry ``seq``'s signed file (its line without the newline)."""
        # Bounded: a stored file is at most 1 MiB, and a damaged line must not fill memory.
        raw = self.handle.readline(MAX_BYTES + 1) if self.handle is not None else b""
        if not raw.endswith(b"\n"):
            hint = ""
            if self.path.parent.name == "reveal":  # a reveal cut short; the referee heals it
                hint = cut_short(self.path.parent.parent)
            raise Tampered(
                f"signed file of chain entry {seq} is missing from reveal/{self.path.name}{hint}"
                if hint
                else f"signed file of chain entry {seq} is missing from {self.path.name}"
            )
        return raw[:-1]

    def parse(self, seq: int, data: bytes) -> dict[str, Any]:
        """Parse entry ``seq``'s signed file, which must be canonical JSON of an object."""
        try:
            obj = parse_canonical(data, f"signed file {seq}")
        except ArbiterError as exc:
            raise Tampered(f"signed file of chain entry {seq} is damaged: {exc.message}") from None
        if not isinstance(obj, dict):
            raise Tampered(f"signed file of chain entry {seq} is not a JSON object")
        return obj
