"""Sealed tally games for tests: every seat's files are age files sealed to its key.

``SealedTable`` is the tally ``Table`` whose seats read their sealed state files with
their own keys and seal their move files to the referee, as players in a shared
repository do (docs/sealing.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arbiter.core.canonical import pretty
from arbiter.core.player import load_state, seal_move
from arbiter.core.referee import Accepted, new_game
from helpers.tables import CREATED, REFEREE_SEED, SEATS, SECRET, Table, from_template, make_keys


class SealedTable(Table):
    """A sealed tally game: seat state files are opened with the seat's key."""

    def state(self, seat: str | None = None) -> dict[str, Any]:
        if seat is None:
            return load_state(self.gd.public_state)
        return load_state(self.gd.sealed_state(seat), self.keys[seat])

    def submit_obj(self, obj: dict[str, Any], what: str | None = None) -> Accepted:
        if obj.get("format") == "arbiter.move/1":
            return self.submit_bytes(seal_move(obj, self.gd.manifest), what)
        return self.submit_bytes(pretty(obj), what)


def sealed_started(tmp: Path, seats: int = 2, keys: dict[str, Path] | None = None) -> SealedTable:
    """A sealed tally game every seat has joined (built once per test process, copied)."""
    names = list(SEATS[:seats])

    def build(base: Path) -> None:
        made = keys if keys is not None else make_keys(base / "keys", names)
        new_game(
            base / "game",
            "tally",
            [(seat, str(made[seat]) + ".pub") for seat in names],
            {},
            game_id="sealed-test",
            created=CREATED,
            secret=SECRET,
            referee_seed=REFEREE_SEED,
            sealed=True,
        )
        table = SealedTable(base / "game", made, names, base / "out")
        for seat in names:
            table.submit_obj(table.join_file(seat))

    if keys is None:
        from_template(("sealed", seats), tmp, build)
        keys = {seat: tmp / "keys" / seat for seat in names}
    else:
        build(tmp)
    table = SealedTable(tmp / "game", keys, names, tmp / "out")
    assert table.state()["status"] == "playing"
    return table
