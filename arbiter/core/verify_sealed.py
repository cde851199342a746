"""What ``arbiter verify`` checks of a sealed game's per-seat files (docs/sealing.md).

Without any key, anyone checks that ``public/sealed.json`` is signed by the referee key
of game.json and names the chain head, that every seat's two sealed files exist with
exactly the listed digests, that each age header names one recipient only — that seat's
key — and that no plain per-seat file was published. A seat holder (``--seat S --key K``)
also decrypts S's files: before the reveal they must be well formed and at the chain
head; after it, byte for byte what the replay writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.core import sealing, views
from arbiter.core.canonical import parse_strict, sha256_hex
from arbiter.core.errors import ArbiterError, VerificationFailed
from arbiter.core.gamedir import GameDir
from arbiter.core.safeio import cut_short, open_nofollow_read
from arbiter.core.schemas import validate


def _fail(message: str) -> VerificationFailed:
    return VerificationFailed(message)


def _read(path: Path, what: str) -> bytes:
    try:
        return open_nofollow_read(path, 1 << 30)
    except FileNotFoundError:
        raise _fail(f"{what} is missing") from None
    except ArbiterError as exc:
        raise _fail(exc.message) from None


def check_index(gd: GameDir, manifest: dict[str, Any], head: str, seq: int) -> list[str]:
    """Check the signed index and every sealed file's header; return the report lines."""
    from arbiter.core.signing import NAMESPACE_SEALED, verify

    what = "public/sealed.json"
    try:
        index = parse_strict(_read(gd.sealed_index, what), what)
        validate("sealed-index", index, what)
        verify(index, manifest["referee"], NAMESPACE_SEALED)
    except VerificationFailed:
        raise
    except ArbiterError as exc:
        raise _fail(f"{what}: {exc.message}") from None
    if index["game"] != manifest["game"]:
        raise _fail(f"{what} is for game {index['game']!r}, not {manifest['game']!r}")
    if index["head"] != head or index["seq"] != seq:
        behind = cut_short(gd.root) if index["seq"] < seq else ""
        raise _fail(
            f"{what} lists the sealed files of entry #{index['seq']}, not of the head #{seq}"
            + behind
        )
    keys = {s["seat"]: s["key"] for s in manifest["seats"]}
    expected = {}
    for seat, key in keys.items():
        for path in (gd.sealed_log(seat), gd.sealed_state(seat)):
            expected[path.relative_to(gd.root).as_posix()] = (path, key, seat)
    if set(index["files"]) != set(expected):
        raise _fail(f"{what} does not list exactly two sealed files per seat")
    for name, (path, key, seat) in sorted(expected.items()):
        data = _read(path, name)
        if sha256_hex(data) != index["files"][name]:
            raise _fail(f"{name} is not the file the referee sealed at entry #{seq} ({what})")
        try:
            only = sealing.sealed_only_to(data, key, name)
        except ArbiterError as exc:
            raise _fail(exc.message) from None
        if not only:
            raise _fail(f"{name} is not sealed to {seat}'s key alone: another key could read it")
    for seat in keys:
        for path in (gd.seat_state(seat), gd.seat_log(seat)):
            if path.exists():
                raise _fail(
                    f"{path.relative_to(gd.root).as_posix()} is a plain per-seat file in a "
                    "sealed game: it publishes that seat's hand; delete it"
                )
    return [
        f"sealed files: {len(expected)} at the chain head, each sealed to its seat's key "
        f"alone (the referee's signed {what})"
    ]


def open_seat(
    gd: GameDir, manifest: dict[str, Any], seat: str, identity: Path
) -> tuple[bytes, bytes]:
    """Return (state, log) of ``seat``: its sealed files decrypted with ``identity``."""
    if seat not in {s["seat"] for s in manifest["seats"]}:
        raise _fail(f"--seat {seat!r} is not a seat of this game")
    out = []
    for path in (gd.sealed_state(seat), gd.sealed_log(seat)):
        name = path.relative_to(gd.root).as_posix()
        data = _read(path, name)
        out.append(sealing.unpad(sealing.unseal(data, identity, name)))
    return out[0], out[1]


def check_seat_at_head(
    manifest: dict[str, Any],
    title: str,
    columns: tuple[str, ...],
    seat: str,
    files: tuple[bytes, bytes],
    head: str,
    seq: int,
    public: dict[str, Any],
) -> list[str]:
    """Before the reveal: the seat's decrypted files agree with the public chain."""
    state_bytes, log_bytes = files
    name = f"players/{seat}/state.json.age"
    try:
        state = parse_strict(state_bytes, name)
        validate("state", state, name)
    except ArbiterError as exc:
        raise _fail(exc.message) from None
    if state["seat"] != seat or state["game"] != manifest["game"]:
        raise _fail(f"{name} holds another seat's or game's view")
    if state["head"] != head or state["seq"] != seq:
        raise _fail(f"{name} is at entry #{state['seq']}, not at the chain head #{seq}")
    if state["status"] != public["status"] or state["outcome"] != public["outcome"]:
        raise _fail(f"{name} disagrees with public/state.json on the game's status or result")
    log = log_bytes.decode("utf-8", "replace").split("\n")
    name = f"players/{seat}/log.md.age"
    header = views.log_header(manifest, title, seat)
    if log[: len(header)] != header:
        raise _fail(f"{name} does not start with {seat}'s log header")
    footer = views.log_footer(public["outcome"], None, columns)
    body = log[len(header) : len(log) - len(footer) - 1]
    if footer and log[len(log) - len(footer) - 1 : -1] != footer:
        raise _fail(f"{name} does not end with the game's result")
    last = -1
    for line in body:
        if not line.startswith("- `#"):
            raise _fail(f"{name} has a line that is no entry: {line[:60]!r}")
        number = line[4 : line.index("`", 4)] if "`" in line[4:] else ""
        if not number.isdigit() or not last <= int(number) <= seq:
            raise _fail(f"{name} has entries out of the chain's order (entry {number[:10]!r})")
        last = int(number)
    return [f"{seat}'s sealed files: open with the key given, well formed and at the chain head"]
