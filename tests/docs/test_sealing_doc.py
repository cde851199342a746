"""docs/sealing.md's padding rule, checked: its formula (written out again here), its
table of examples and its edge cases, against ``arbiter.core.sealing``."""

from __future__ import annotations

import re
from pathlib import Path

from arbiter.core.sealing import pad, padded_size, unpad

DOC = Path(__file__).resolve().parents[2] / "docs" / "sealing.md"


def table() -> list[tuple[int, int, int]]:
    """Return the rows (size, padded, added) of the page's ```text padding block."""
    body = re.search(r"^```text padding\n(.*?)^```$", DOC.read_text(), re.MULTILINE | re.DOTALL)
    assert body is not None, "docs/sealing.md needs its ```text padding block"
    lines = body.group(1).splitlines()
    assert lines[0].split() == ["size", "padded", "added"]
    return [tuple(int(x) for x in line.split()) for line in lines[1:]]  # type: ignore[misc]


def documented(n: int) -> int:
    """The page's formula: step = max(16384, 2^(bitlength(n) − 5)); round n up to it."""
    step = max(16384, 2 ** (n.bit_length() - 5))
    return -(-n // step) * step


def sizes() -> list[int]:
    """Every power of two to 8 MiB and its neighbours, multiples of 16 KiB, and others."""
    out = {1, 2, 100, 5000, 600_000, 3_000_000}
    for k in range(24):
        out |= {2**k - 1, 2**k, 2**k + 1}
    out |= {16384 * m + d for m in range(1, 70) for d in (-1, 0, 1)}
    out |= {32768 * m + d for m in range(16, 40) for d in (-1, 0, 1)}
    return sorted(n for n in out if n >= 1)


def test_the_table_is_arbiters() -> None:
    rows = table()
    assert len(rows) >= 8
    for size, padded, added in rows:
        assert padded_size(size) == padded == size + added, size
        assert documented(size) == padded, size
        data = b"x" * (size - 1) + b"\n"
        assert len(pad(data)) == padded and unpad(pad(data)) == data


def test_the_formula_is_arbiters() -> None:
    for n in sizes():
        assert padded_size(n) == documented(n), n


def test_the_edge_cases_the_page_states() -> None:
    # A file already on a multiple of its step is sealed as it is.
    for n in (16384, 32768, 524288, 557056, 1048576):
        data = b"y" * (n - 1) + b"\n"
        assert pad(data) == data and unpad(data) == data
    # Below 512 KiB the step is 16 KiB; from 512 KiB on, 1/16 of the largest power of two
    # not above the size, so at most 6.25% more (and 16 KiB steps up to 512 KiB itself).
    for n in sizes():
        step = 16384 if n < 2**19 else 2 ** (n.bit_length() - 1) // 16
        assert padded_size(n) % step == 0 and padded_size(n) - n < step
        if n >= 2**19:
            assert padded_size(n) <= n * 1.0625
