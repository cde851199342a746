"""Helpers of the replay page tests: the card ids a viewer never saw, and a PNG reader.

The hidden ids are computed from the timeline itself, not from the page's code: every
card id found in some other viewer's frames that appears nowhere in the allowed viewer's
frames (state files and log lines).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from arbiter.core import timeline
from arbiter.viewer.glossary import strings_in

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GAMES = ("mottainai", "motcoin", "momiji")

COUNT_CLASS = {"mottainai": "hand-count", "momiji": "hand-count", "motcoin": "dice-count"}
"""The badge each seat's panel shows, per engine."""


def shown_count(engine: str, view: dict[str, Any], seat: str) -> int:
    """Return what that badge must show, read from the view (the engines' own fields)."""
    player = view["players"][seat]
    return {
        "mottainai": player.get("hand_count"),
        "momiji": player.get("hand_size"),
        "motcoin": player.get("available"),
    }[engine]


def is_card_id(engine: str, text: str) -> bool:
    """Return whether ``text`` names a card of ``engine`` (from the engines' own data)."""
    if engine == "mottainai":
        from arbiter.games.mottainai.cards import INSTANCES

        return text in INSTANCES
    if engine == "momiji":
        from arbiter.games.momiji.data import parse_code

        return parse_code(text) is not None
    return False  # Mot Coin hides only the draw pile's order


def seen_strings(frames: Iterable[timeline.Frame]) -> set[str]:
    out: set[str] = set()
    for frame in frames:
        out.update(strings_in(frame.state))
        for line in frame.lines:
            out.add(line)
    return out


def hidden_ids(root: Path, allowed: list[str | None], others: list[str | None]) -> set[str]:
    """Return the card ids some viewer in ``others`` saw and no viewer in ``allowed`` did."""
    engine = next(timeline.frames(root, others[0])).state["engine"]["name"]
    seen = set().union(*(seen_strings(timeline.frames(root, v)) for v in allowed))
    theirs = set().union(*(seen_strings(timeline.frames(root, v)) for v in others))
    return {t for t in theirs - seen if is_card_id(engine, t)}


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Return width, height and the rows of pixels (RGB or RGBA bytes) of an 8-bit PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0, "only 8-bit, non-interlaced PNGs"
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    prior = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        _unfilter(kind, line, prior, channels)
        rows.append(bytes(line))
        prior = line
    return width, height, rows


def _unfilter(kind: int, line: bytearray, prior: bytearray, bpp: int) -> None:
    if kind == 0:
        return
    if kind == 2:
        line[:] = bytes((a + b) & 0xFF for a, b in zip(line, prior, strict=True))
        return
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        up = prior[i]
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        else:  # 4: Paeth
            corner = prior[i - bpp] if i >= bpp else 0
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            pred = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
            line[i] = (line[i] + pred) & 0xFF


def colours(data: bytes, step: int = 7) -> int:
    """Return the number of distinct colours among every ``step``-th pixel of a PNG."""
    width, _, rows = read_png(data)
    channels = len(rows[0]) // width
    found = set()
    for row in rows[::step]:
        for x in range(0, width, step):
            found.add(row[x * channels : x * channels + 3])
    return len(found)
