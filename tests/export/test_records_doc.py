"""docs/records.md's example excerpts are what `arbiter export` writes for the example
game: each ``json record-excerpt`` block is a run of consecutive lines of its record."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXCERPT = re.compile(r"```json record-excerpt\n(.*?)```", re.DOTALL)


def test_the_excerpts_are_the_example_games_record() -> None:
    from arbiter.export.record import export

    written = export(ROOT / "examples" / "mottainai" / "game", None, None, None).decode()
    excerpts = EXCERPT.findall((ROOT / "docs" / "records.md").read_text(encoding="utf-8"))
    assert len(excerpts) == 3
    for excerpt in excerpts:
        at = written.find(excerpt)
        assert at >= 0 and (at == 0 or written[at - 1] == "\n"), excerpt.splitlines()[0]
