"""Real games of the shipped engines for ``arbiter play``'s tests: keys, a game folder,
joins, all through the referee's own code (fixed keys and secret: the same deal each run).
"""

from __future__ import annotations

from pathlib import Path

from helpers.tables import CREATED, REFEREE_SEED, SECRET, Table, from_template, make_keys

from arbiter.core.referee import new_game

SEATS = ("alice", "bob", "carol", "dave", "erin")


def real_game(
    tmp: Path,
    engine: str,
    seats: int = 2,
    options: dict[str, str] | None = None,
    *,
    joined: bool = True,
    game_id: str = "play-test",
) -> Table:
    """A game of ``engine`` under ``tmp/game`` (keys in ``tmp/keys``), every seat joined
    unless ``joined`` is false. Built once per arguments and copied."""
    names = list(SEATS[:seats])

    def build(base: Path) -> None:
        keys = make_keys(base / "keys", names)
        new_game(
            base / "game",
            engine,
            [(seat, f"{keys[seat]}.pub") for seat in names],
            options or {},
            join=True,
            game_id=game_id,
            created=CREATED,
            secret=SECRET,
            referee_seed=REFEREE_SEED,
        )
        table = Table(base / "game", keys, names, base / "out")
        if joined:
            for seat in names:
                table.submit_obj(table.join_file(seat))

    key = ("play", engine, seats, tuple(sorted((options or {}).items())), joined, game_id)
    from_template(key, tmp, build)
    return Table(tmp / "game", {s: tmp / "keys" / s for s in names}, names, tmp / "out")
