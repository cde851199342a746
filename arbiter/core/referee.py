"""The referee's commands: create a game, judge submitted files, reveal the secret.

Every command takes the folder lock, rebuilds the present from the chain, and writes
only after every check passed — a rejected file leaves every byte of the folder as it was.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbiter.core import chain as chainlib
from arbiter.core import registry
from arbiter.core.canonical import canonical, digest, parse_strict, pretty
from arbiter.core.engine import Engine
from arbiter.core.errors import (
    BadSignature,
    Duplicate,
    GameOver,
    NotReady,
    StaleHead,
    Tampered,
    UnknownSeat,
    UsageError,
    WrongGame,
)
from arbiter.core.formats import MANIFEST_FORMAT, REVEAL_FORMAT, SEAT_ID
from arbiter.core.gamedir import GameDir, atomic_write
from arbiter.core.ledger import classify, load_manifest, seat_keys
from arbiter.core.publish import Rebuilt, outputs, rebuild, write_all
from arbiter.core.rng import commitment
from arbiter.core.schemas import validate
from arbiter.core.table import Table

GAME_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


@dataclass
class Accepted:
    """What ``submit`` accepted: the new chain entry and its public lines."""

    seq: int
    kind: str
    seat: str
    head: str
    summary: list[str]
    status: str
    waiting_for: list[str]


def _read_secret(gd: GameDir) -> bytes:
    try:
        text = gd.secret.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise NotReady(
            f"{gd.root} has no referee/secret: only the referee's copy can do this"
        ) from None
    if not re.fullmatch(r"[0-9a-f]{64}", text):
        raise Tampered("referee/secret is damaged: it must hold 64 hex digits")
    return bytes.fromhex(text)


def _reveal_record(gd: GameDir) -> dict[str, Any] | None:
    if not gd.reveal_record.is_file():
        return None
    record = parse_strict(gd.reveal_record.read_bytes(), "reveal/reveal.json")
    validate("reveal", record, "reveal/reveal.json")
    return dict(record)


def _rebuild(
    gd: GameDir, loaded: tuple[dict[str, Any], str, Engine] | None = None
) -> tuple[dict[str, Any], str, Rebuilt]:
    """Replay the accepted files with the referee's secret (``loaded``: a manifest already read)."""
    manifest, manifest_digest, engine = loaded or load_manifest(gd)
    secret = _read_secret(gd)
    if commitment(secret) != manifest["commitment"]:
        raise Tampered("referee/secret does not match the commitment in game.json")
    return (
        manifest,
        manifest_digest,
        rebuild(gd, manifest, manifest_digest, engine, secret, gd.referee_signed),
    )


# -- new ------------------------------------------------------------------------------


def new_game(
    root: Path,
    engine_name: str,
    seats: list[tuple[str, str]],
    raw_options: Mapping[str, str],
    *,
    join: bool = True,
    game_id: str | None = None,
    created: str,
    secret: bytes | None = None,
) -> dict[str, Any]:
    """Create a game folder publishing only a commitment to a fresh secret.

    ``seats`` are (seat name, public key line) in turn order; ``created`` is the UTC
    timestamp the CLI supplies (the core never reads the clock).
    """
    from arbiter.core.signing import read_public_key

    gd = GameDir(root)
    if gd.root.exists() and any(gd.root.iterdir()):
        raise UsageError(f"{gd.root} already exists and is not empty: choose a new folder")
    engine = registry.get(engine_name)
    info = engine.info
    game_id = game_id or _slug(gd.root.resolve().name)
    if not GAME_ID_RE.fullmatch(game_id):
        raise UsageError(
            f"game id {game_id!r} must be lower-case letters, digits and '-': pass --id"
        )
    if not info.min_seats <= len(seats) <= info.max_seats:
        raise UsageError(
            f"{info.name} seats {info.min_seats}–{info.max_seats} players, not {len(seats)}"
        )
    names = [name for name, _ in seats]
    for name in names:
        if not re.fullmatch(SEAT_ID, name):
            raise UsageError(f"seat name {name!r} must start with a-z and use a-z, 0-9, '_' or '-'")
    if len(set(names)) != len(names):
        raise UsageError("seat names must be different")
    keys = [read_public_key(key) for _, key in seats]
    if len(set(keys)) != len(keys):
        raise UsageError("two seats share a key: each player needs their own key")
    options = engine.parse_options(dict(raw_options))
    engine.check_seats(options, len(seats))
    secret = secret if secret is not None else os.urandom(32)
    manifest = {
        "format": MANIFEST_FORMAT,
        "game": game_id,
        "engine": {"name": info.name, "version": info.version},
        "options": options,
        "seats": [{"seat": n, "name": n, "key": k} for n, k in zip(names, keys, strict=False)],
        "commitment": commitment(secret),
        "join": join,
        "created": created,
    }
    validate("manifest", manifest, "game.json")
    manifest_digest = digest(manifest)
    table = Table(manifest, engine, secret)
    lines = table.genesis()
    genesis = chainlib.make_entry(0, "genesis", None, None, manifest_digest, lines.public)
    gd.root.mkdir(parents=True, exist_ok=True)
    atomic_write(gd.secret, secret.hex().encode() + b"\n")
    os.chmod(gd.secret, 0o600)
    atomic_write(gd.lockfile, b"")
    atomic_write(gd.manifest, pretty(manifest))
    atomic_write(gd.chain, chainlib.line(genesis))
    write_all(outputs(gd, manifest, table, [lines], 0, genesis["hash"], None))
    return manifest


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")
    return slug[:63] or "game"


# -- submit ---------------------------------------------------------------------------


def submit(root: Path, data: bytes, what: str) -> Accepted:
    """Judge one join or move file; on success append it and republish every view.

    Checks, in order: strict JSON, schema, game id, seat, signature, duplicate, then the
    kind's own checks (join: terms and not joined yet; move: not over, current head,
    turn, each decision legal, no barrier crossed).
    """
    from arbiter.core.signing import NAMESPACE_JOIN, NAMESPACE_MOVE, verify

    gd = GameDir(root)
    gd.require()
    with gd.locked():
        loaded = load_manifest(gd)
        manifest, manifest_digest, _ = loaded
        obj = parse_strict(data, what)
        kind = classify(obj, what)
        if obj["game"] != manifest["game"]:
            raise WrongGame(
                f"{what} is for game {obj['game']!r}, not {manifest['game']!r}: send it to its own game"
            )
        keys = seat_keys(manifest)
        seat = obj["seat"]
        if seat not in keys:
            raise UnknownSeat(
                f"{what} names seat {seat!r}, which is not in this game (seats: {', '.join(keys)})"
            )
        namespace = NAMESPACE_JOIN if kind == "join" else NAMESPACE_MOVE
        try:
            verify(obj, keys[seat], namespace)
        except BadSignature as exc:
            raise BadSignature(f"{what}: {exc.message}") from None
        file_digest = digest(obj)
        _, _, rebuilt = _rebuild(gd, loaded)
        for entry in rebuilt.chain:
            if entry["digest"] == file_digest:
                raise Duplicate(
                    f"{what} was already accepted as entry #{entry['seq']}: nothing to do"
                )
        if _reveal_record(gd) is not None:
            raise GameOver("the game was revealed: it accepts no more files")
        table, seq, prev = rebuilt.table, rebuilt.seq + 1, rebuilt.head
        if kind == "join":
            if obj["manifest"] != manifest_digest:
                raise WrongGame(
                    f"{what} was made for another version of game.json: run `arbiter join` again"
                )
            produced = table.join(seat, bytes.fromhex(obj["entropy"]))
        else:
            if table.over:
                raise GameOver("the game is over: no more moves are accepted")
            if obj["after"] != prev:
                raise StaleHead(
                    f"{what} was built against an old chain head; the head is now entry #{rebuilt.seq}: "
                    "take your new state file and build the move again"
                )
            produced = table.move(seq, seat, list(obj["actions"]))
        entry = chainlib.make_entry(seq, kind, seat, prev, file_digest, produced.public)
        chain_bytes = gd.chain.read_bytes() + chainlib.line(entry)
        signed_bytes = _accepted_lines(gd, seq) + canonical(obj) + b"\n"
        files = outputs(gd, manifest, table, [*rebuilt.lines, produced], seq, entry["hash"], None)
        # Commit order: the signed file, then the chain (the commit point), then views.
        # A crash between the two leaves an extra signed line that the next submit drops.
        atomic_write(gd.referee_signed, signed_bytes)
        atomic_write(gd.chain, chain_bytes)
        write_all(files)
        return Accepted(
            seq,
            kind,
            seat,
            entry["hash"],
            produced.public,
            "over" if table.over else ("playing" if table.started else "joining"),
            table.waiting_for(),
        )


def _accepted_lines(gd: GameDir, seq: int) -> bytes:
    """Return the first ``seq − 1`` lines of referee/signed.jsonl (entries 1 … seq−1)."""
    if seq <= 1 or not gd.referee_signed.is_file():
        return b""
    with open(gd.referee_signed, "rb") as handle:
        return b"".join(handle.readline() for _ in range(seq - 1))


# -- reveal ---------------------------------------------------------------------------


def reveal(root: Path, force: bool = False) -> dict[str, Any]:
    """Publish the secret and every signed file under ``reveal/`` so anyone can replay.

    Refused before the game is over unless ``force``; a forced reveal is recorded in the
    reveal record and in every log.
    """
    gd = GameDir(root)
    gd.require()
    with gd.locked():
        manifest, _, rebuilt = _rebuild(gd)
        if _reveal_record(gd) is not None:
            raise NotReady("the game is already revealed: run `arbiter verify` to check it")
        table = rebuilt.table
        if not table.over and not force:
            waiting = ", ".join(table.waiting_for()) or "nobody"
            raise NotReady(
                f"the game is not over (waiting for {waiting}): pass --force to reveal anyway; "
                "this is recorded in every log"
            )
        record = {
            "format": REVEAL_FORMAT,
            "game": manifest["game"],
            "secret": table.secret.hex(),
            "head": rebuilt.head,
            "forced": not table.over,
        }
        validate("reveal", record, "reveal/reveal.json")
        atomic_write(gd.reveal_signed, _accepted_lines(gd, rebuilt.seq + 1))
        files = outputs(gd, manifest, table, rebuilt.lines, rebuilt.seq, rebuilt.head, record)
        atomic_write(gd.reveal_record, pretty(record))
        write_all(files)
        return record
