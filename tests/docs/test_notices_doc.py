"""docs/notices.md documents every field of the arbiter.notice/1 payload, and only those."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _table_fields(text: str, heading: str) -> list[str]:
    """The first column of the table right after the line ``heading``."""
    lines = text.split(heading, 1)[1].lstrip("\n").splitlines()
    rows = [line for line in lines[2:] if line.startswith("|")]
    rows = rows[: next((i for i, line in enumerate(lines[2:]) if not line.startswith("|")), len(rows))]
    return [re.sub(r"`", "", row.split("|")[1]).strip() for row in rows]


def test_every_payload_field_is_documented() -> None:
    schema = json.loads((ROOT / "schemas" / "notice.schema.json").read_text(encoding="utf-8"))
    text = (ROOT / "docs" / "notices.md").read_text(encoding="utf-8")
    assert sorted(_table_fields(text, "The notice:")) == sorted(schema["properties"])
    game = schema["$defs"]["NoticeGame"]["properties"]
    assert sorted(_table_fields(text, "Each game:")) == sorted(game)
