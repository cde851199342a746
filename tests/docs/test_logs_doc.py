"""docs/chain.md, "A seat's log", checked on every example game.

The page says a seat's log takes, event by event, the seat's own form of each event in
place of the public line, after the referee's common lines; its header differs from the
public one and its result and reveal sections do not. This replays each example game,
records what the engine tells each reader for each event, builds every log the way the
page says, and compares it with the published files; it also finds the page's example
lines where the page says they are.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from arbiter.core import registry
from arbiter.core.publish import apply_record
from arbiter.core.table import Table

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "chain.md"
GAMES = sorted(p for p in (ROOT / "examples").glob("*/game") if (p / "reveal").is_dir())


def entries(path: Path) -> dict[int, list[str]]:
    """Return a log's list items by entry number."""
    out: dict[int, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        found = re.fullmatch(r"- `#(\d+)` (.*)", line)
        if found:
            out.setdefault(int(found.group(1)), []).append(found.group(2))
    return out


def surroundings(path: Path) -> tuple[list[str], list[str]]:
    """Return a log's lines before its first entry and after its last one."""
    lines = path.read_text(encoding="utf-8").splitlines()
    items = [i for i, line in enumerate(lines) if line.startswith("- `#")]
    return lines[: items[0]], lines[items[-1] + 1 :]


@pytest.mark.parametrize("game", GAMES, ids=[g.parent.name for g in GAMES])
def test_each_seat_log_is_the_public_log_with_its_own_forms(
    game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = json.loads((game / "game.json").read_text())
    secret = bytes.fromhex(json.loads((game / "reveal" / "reveal.json").read_text())["secret"])
    records = [json.loads(x) for x in (game / "reveal" / "signed.jsonl").read_text().splitlines()]
    seats = [s["seat"] for s in manifest["seats"]]
    engine = registry.get(manifest["engine"]["name"])
    told: list[list[str | None]] = []
    tell = engine.describe_all

    def recording(event: Any, viewers: list[str | None]) -> list[str | None]:
        row = tell(event, viewers)
        told.append(row)
        return row

    monkeypatch.setattr(engine, "describe_all", recording)
    table = Table(manifest, engine, secret)
    table.genesis()
    logs = {reader: entries(game / "public" / "log.md") for reader in [None]}
    logs |= {seat: entries(game / "players" / seat / "log.md") for seat in seats}
    replaced = added = 0
    for seq, record in enumerate(records, start=1):
        told.clear()
        produced = apply_record(table, seq, record)
        public_told = [row[0] for row in told if row[0] is not None]
        common = produced.public[: len(produced.public) - len(public_told)]
        assert produced.public == common + public_told
        assert logs[None].get(seq, []) == produced.public
        for k, seat in enumerate(seats, start=1):
            # The page's rule, in order: common lines, then each event as the seat reads it.
            expected = common + [row[k] for row in told if row[k] is not None]
            assert logs[seat].get(seq, []) == expected, (seq, seat)
            replaced += sum(1 for r in told if None not in (r[0], r[k]) and r[0] != r[k])
            added += sum(1 for r in told if r[0] is None and r[k] is not None)
    if game.parent.name == "mottainai":
        assert replaced > 0 and added > 0  # the page's example shows both cases
    # Header: one word differs; result and reveal sections: the public ones.
    head, tail = surroundings(game / "public" / "log.md")
    assert "(public log)" in head[0]
    for seat in seats:
        seat_head, seat_tail = surroundings(game / "players" / seat / "log.md")
        assert seat_head == [head[0].replace("(public log)", f"(what {seat} saw)"), *head[1:]]
        assert seat_tail == tail


def test_the_pages_example_is_in_the_example_game() -> None:
    body = re.search(r"^```text seat-log\n(.*?)^```$", DOC.read_text(), re.MULTILINE | re.DOTALL)
    assert body is not None, "docs/chain.md needs its ```text seat-log block"
    game = ROOT / "examples" / "mottainai" / "game"
    shown = [line.split(None, 1) for line in body.group(1).splitlines()]
    assert {path for path, _ in shown} == {
        "public/log.md",
        "players/alice/log.md",
        "players/bob/log.md",
    }
    for path, item in shown:
        found = re.fullmatch(r"- `#(\d+)` (.*)", item)
        assert found is not None
        assert found.group(2) in entries(game / path)[int(found.group(1))], (path, item)
    # The seat's private form stands where the public line stands.
    seq, private = next(
        (int(f.group(1)), f.group(2))
        for path, item in shown
        if path == "players/bob/log.md" and (f := re.fullmatch(r"- `#(\d+)` (.*)", item))
    )
    public = entries(game / "public" / "log.md")[seq]
    bobs = entries(game / "players" / "bob" / "log.md")[seq]
    at = public.index("Night: bob takes a card from the waiting area into hand.")
    assert bobs[at] == private != public[at]
    assert bobs[:at] == public[:at] and bobs[at + 1 :] == public[at + 1 :]
