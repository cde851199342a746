"""``tournament round``: pair the next round and create its game folders.

The round is recorded in ``tournament.json`` first (the round's commit point), then each
game is created; ``arbiter new`` builds a game beside its final path and renames it into
place, so a folder at its final path is always a whole game. After a crash, the next
``tournament round`` finds the recorded round's missing games and creates them instead of
pairing again; a round killed before it was recorded is paired again, to the same tables
(the pairing depends only on the tournament's files).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from arbiter.core.errors import NotReady, UsageError
from arbiter.tournament import folder
from arbiter.tournament.create import allowed_sizes, game_terms
from arbiter.tournament.folder import Round, Table, Tournament
from arbiter.tournament.pairing import History, round_robin, swiss
from arbiter.tournament.standings import pairing_order, read_results, standings


@dataclass
class Paired:
    """The round ``tournament round`` made (or finished making, when ``resumed``)."""

    tournament: Tournament
    round: Round
    resumed: bool = False


def history(tournament: Tournament) -> History:
    """Return the meetings, seat positions and byes of every paired round."""
    past = History()
    for played in tournament.schedule:
        for table in played.tables:
            past.add_table(table.seats)
        for name in played.byes:
            past.add_bye(name)
    return past


def pair_next(root: Path, created: str, *, seed: bytes | None = None) -> Paired:
    """Pair the next round of the tournament in ``root`` and create its games.

    ``created`` is the organiser's clock (UTC), the games' creation time. ``seed`` makes
    every game's secret and referee key derive from it (reproducible tests and demos);
    without it each game draws a fresh secret.
    """
    from arbiter.core.gamedir import remove_temporaries_of

    with folder.locked(root):
        remove_temporaries_of(root / folder.FILE)  # a save a crash cut short
        tournament = folder.load(root)
        if tournament.schedule:
            last = tournament.schedule[-1]
            if any(not (root / t.folder / "game.json").exists() for t in last.tables):
                _create_games(root, tournament, last, seed)
                return Paired(tournament, last, resumed=True)
        results = read_results(root, tournament)
        waiting = [r for r in results if not r.over]
        if waiting:
            shown = ", ".join(f"{r.table.folder} ({r.status})" for r in waiting[:6])
            more = f" and {len(waiting) - 6} more" if len(waiting) > 6 else ""
            raise NotReady(
                f"round {waiting[0].round} is not over: {shown}{more}; "
                "pair the next round when every game is over"
            )
        if len(tournament.schedule) >= tournament.rounds:
            raise UsageError(
                f"all {tournament.rounds} rounds are paired and played: "
                "see `arbiter tournament standings`"
            )
        number = len(tournament.schedule) + 1
        sizes = allowed_sizes(tournament.engine, tournament.options, tournament.table_size)
        past = history(tournament)
        if tournament.pairing == "round-robin":
            pairing = round_robin(
                tournament.names, tournament.table_size, sizes, number, past, tournament.id
            )
        else:
            order = pairing_order(standings(tournament, results), tournament.id, number)
            pairing = swiss(order, tournament.table_size, sizes, number, past, tournament.id)
        played = Round(
            round=number,
            paired=created,
            tables=[
                Table(
                    table=k,
                    game=folder.game_id(tournament.id, number, k),
                    folder=folder.game_folder(number, k),
                    seats=seats,
                )
                for k, seats in enumerate(pairing.tables, start=1)
            ],
            byes=pairing.byes,
        )
        tournament = tournament.model_copy(update={"schedule": [*tournament.schedule, played]})
        folder.save(root, tournament)
        _create_games(root, tournament, played, seed)
        return Paired(tournament, played)


def _create_games(root: Path, tournament: Tournament, played: Round, seed: bytes | None) -> None:
    from arbiter.core.referee import new_game
    from arbiter.core.safeio import shown

    keys = {p.name: p.key for p in tournament.players}
    for table in played.tables:
        final = root / table.folder
        if (final / "game.json").exists():
            continue
        # new_game puts a whole game there or nothing (and clears what a crashed run of
        # it left beside the path): anything else at the path is not ours to replace.
        if final.exists() or final.is_symlink():
            raise NotReady(f"{shown(final)} exists but holds no game: move it away and run again")
        new_game(
            final,
            tournament.engine,
            [(name, keys[name]) for name in table.seats],
            tournament.options,
            game_id=table.game,
            created=played.paired,
            secret=_derive(seed, table.game, "secret"),
            referee_seed=_derive(seed, table.game, "referee"),
            takebacks="none",  # tournaments take nothing back (docs/game-life.md §4)
            **game_terms(tournament.terms),
        )


def _derive(seed: bytes | None, game: str, label: str) -> bytes | None:
    if seed is None:
        return None
    data = b"arbiter-tournament/1\x00" + seed + f"\x00{game}\x00{label}".encode()
    return hashlib.sha256(data).digest()
