"""A replay narrates only the logs it compares (``Table.narrate_only``): the lines it
still builds must be exactly those a full narration builds, entry by entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbiter.core.gamedir import GameDir
from arbiter.core.ledger import Records, load_manifest
from arbiter.core.publish import apply_record
from arbiter.core.table import EntryLines, Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = ["mottainai", "mottainai-wutai", "motcoin", "momiji"]


def _replay(game: str, only: list[str] | None) -> tuple[list[str], list[EntryLines]]:
    gd = GameDir(EXAMPLES / game / "game")
    manifest, _, engine = load_manifest(gd)
    secret = bytes.fromhex(json.loads(gd.reveal_record.read_bytes())["secret"])
    table = Table(manifest, engine, secret)
    if only is not None:
        table.narrate_only(only)
    produced = [table.genesis()]
    entries = len(gd.chain.read_bytes().splitlines())
    with Records(gd.reveal_signed) as records:
        for seq in range(1, entries):
            produced.append(apply_record(table, seq, records.parse(seq, records.read_raw(seq))))
    return table.seats, produced


@pytest.mark.parametrize("game", GAMES)
def test_narrating_one_seat_builds_its_lines_exactly(game):
    seats, full = _replay(game, None)
    kept = seats[-1]
    _, some = _replay(game, [kept])
    assert len(some) == len(full)
    personal = 0
    for whole, part in zip(full, some, strict=True):
        assert part.public == whole.public
        assert part.seats.get(kept, []) == whole.seats.get(kept, [])
        personal += whole.seats.get(kept, []) != whole.public
        # A seat left out gets only the referee's own lines (creation, joins), which every
        # reader shares; no engine event is narrated for it.
        for seat in seats[:-1]:
            got = part.seats.get(seat, [])
            assert got == whole.seats[seat][: len(got)]
            assert set(got) <= set(whole.public)
    if game.startswith("mottainai") or game == "momiji":
        assert personal, "the example has lines only its seat reads: the test sees them"


def test_public_only_narrates_no_seat():
    _, some = _replay("momiji", [])
    _, full = _replay("momiji", None)
    assert [p.public for p in some] == [f.public for f in full]
    moves = [entry for entry in some if not any("joined" in line for line in entry.public)]
    assert moves[1:] and all(not lines for entry in moves[1:] for lines in entry.seats.values())
