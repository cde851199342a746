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
from typing import Any

from arbiter.core.errors import NotReady, UsageError
from arbiter.tournament import folder, record
from arbiter.tournament.create import allowed_sizes, game_terms
from arbiter.tournament.folder import Round, Table, Tournament
from arbiter.tournament.pairing import History, Pairing, round_robin, swiss
from arbiter.tournament.standings import (
    GameResult,
    game_points,
    pairing_order,
    read_results,
    standings,
)


@dataclass
class Paired:
    """The round ``tournament round`` made (or finished making, when ``resumed``)."""

    tournament: Tournament
    round: Round
    resumed: bool = False


def history(tournament: Tournament, before: int | None = None) -> History:
    """Return the meetings, seat positions and byes of every paired round (before round
    ``before``, when given)."""
    past = History()
    for played in tournament.schedule:
        if before is not None and played.round >= before:
            continue
        for table in played.tables:
            past.add_table(table.seats)
        for name in played.byes:
            past.add_bye(name)
    return past


def pair_next(root: Path, created: str, *, seed: bytes | None = None) -> Paired:
    """Pair the next round of the tournament in ``root`` and create its games.

    ``created`` is the organiser's clock (UTC), the games' creation time. ``seed`` makes
    every game's secret and referee key derive from it (reproducible tests and demos);
    without it each game draws a fresh secret. A format-2 tournament first records the
    last round's results, and records the new round once its games exist
    (docs/tournament-record.md).
    """
    from arbiter.core.gamedir import remove_temporaries_of

    with folder.locked(root):
        remove_temporaries_of(root / folder.FILE)  # a save a crash cut short
        remove_temporaries_of(root / record.RECORD)
        tournament = folder.load(root)
        if tournament.schedule:
            last = tournament.schedule[-1]
            if any(not (root / t.folder / "game.json").exists() for t in last.tables) or (
                tournament.recorded and not _round_recorded(root, last.round)
            ):
                tournament = _finish_round(root, tournament, last, seed, created)
                return Paired(tournament, tournament.schedule[-1], resumed=True)
        if tournament.finished:
            raise UsageError("the tournament is finished: see `arbiter tournament standings`")
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
                f"all {tournament.rounds} rounds are paired and played: record the last "
                "results with `arbiter tournament finish`, then see the standings"
            )
        number = len(tournament.schedule) + 1
        salt = tournament.id
        if tournament.recorded:
            lines = record_results(root, tournament, created)
            salt = record.round_seed(lines[0].hash, number, last_heads(lines, number - 1))
            results = recorded(tournament, lines)
        pairing = compute(tournament, results, number, salt)
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
            seed=salt if tournament.recorded else None,
        )
        if tournament.duplicate:
            from arbiter.tournament.duplicate import make_deals

            played = played.model_copy(update={"deals": make_deals(root, tournament, played, seed)})
        tournament = tournament.model_copy(update={"schedule": [*tournament.schedule, played]})
        folder.save(root, tournament)
        tournament = _finish_round(root, tournament, played, seed, created)
        return Paired(tournament, tournament.schedule[-1])


def compute(
    tournament: Tournament, results: list[GameResult], number: int, salt: str
) -> Pairing:
    """The pairing of round ``number`` from the results of the rounds before it: a pure
    function of the tournament's terms, its schedule so far, those results and ``salt``
    (the round seed; the tournament id in a format-1 tournament). ``tournament verify``
    calls it again for every round."""
    sizes = allowed_sizes(tournament.engine, tournament.options, tournament.table_size)
    past = history(tournament, before=number)
    playing = {p.name for p in tournament.players if p.plays_in(number)}
    if tournament.pairing == "round-robin":
        made = round_robin(tournament.names, tournament.table_size, sizes, number, past, salt)
        return _without_dropped(made, playing, sizes)
    earlier = [r for r in results if r.round < number]
    ranked = standings(tournament, earlier, before=number, lot_seed=salt)
    order = [name for name in pairing_order(ranked, salt, number) if name in playing]
    return swiss(order, tournament.table_size, sizes, number, past, salt)


def _without_dropped(made: Pairing, playing: set[str], sizes: list[int]) -> Pairing:
    """A round-robin's fixed schedule, less the players who dropped: a table left too
    small for the engine gives its remaining players a bye (docs/tournaments.md)."""
    tables: list[list[str]] = []
    byes = [name for name in made.byes if name in playing]
    for seats in made.tables:
        kept = [name for name in seats if name in playing]
        if len(kept) in sizes:
            tables.append(kept)
        else:
            byes.extend(kept)
    return Pairing(tables, byes)


def lot_seed(root: Path, tournament: Tournament) -> str | None:
    """The public seed the ``lot`` tie-break draws from now: the seed of the next round to
    be paired (arbiter.tournament.tiebreaks); None when no lot is drawn."""
    if not tournament.recorded or "lot" not in tournament.tiebreaks:
        return None
    genesis = record.read(root)[0].hash
    if not tournament.schedule:
        return record.round_seed(genesis, 1, [])
    last = tournament.schedule[-1]
    if not all(r.over for r in read_results(root, tournament) if r.round == last.round):
        return last.seed
    heads = [final(root / table.folder)[0] for table in last.tables]
    return record.round_seed(genesis, last.round + 1, heads)


def _finish_round(
    root: Path, tournament: Tournament, played: Round, seed: bytes | None, created: str
) -> Tournament:
    """Create the round's missing games; in format 2, note each game.json's digest and
    sign the round into the record (once)."""
    _create_games(root, tournament, played, seed)
    if not tournament.recorded:
        return tournament
    tables = [
        table.model_copy(update={"manifest": manifest_digest(root / table.folder)})
        for table in played.tables
    ]
    done = played.model_copy(update={"tables": tables})
    tournament = tournament.model_copy(update={"schedule": [*tournament.schedule[:-1], done]})
    folder.save(root, tournament)
    if not _round_recorded(root, done.round):
        body = {
            "round": done.round,
            "seed": done.seed,
            "paired": done.paired,
            "tables": [t.model_dump() for t in done.tables],
            "byes": list(done.byes),
            "deals": [d.model_dump() for d in done.deals],
        }
        record.append(root, tournament.id, "round", body, created, record.organiser_key(root))
    return tournament


def _round_recorded(root: Path, number: int) -> bool:
    return any(
        line.kind == "round" and line.body.round == number for line in record.read(root)
    )


def manifest_digest(game: Path) -> str:
    return record.line_hash((game / "game.json").read_bytes())


def record_results(root: Path, tournament: Tournament, time: str) -> list[record.Line]:
    """Sign the result of every game of the last round not yet in the record (in table
    order); return the whole record."""
    lines = record.read(root)
    if not tournament.schedule:
        return lines
    last = tournament.schedule[-1]
    done = {line.body.game for line in lines if line.kind == "result"}
    key = record.organiser_key(root)
    for table in last.tables:
        if table.game in done:
            continue
        head, outcome = final(root / table.folder, tournament.duplicate)
        body = {
            "round": last.round, "table": table.table, "game": table.game,
            "head": head, "outcome": outcome,
        }
        record.append(root, tournament.id, "result", body, time, key)
    return record.read(root)


def final(game: Path, duplicate: bool = False) -> tuple[str, dict[str, Any] | None]:
    """A finished game's chain head and outcome (``{ranking, scores}``; None: abandoned).
    A duplicate game's outcome also names the seats that left it (``left``, only when
    some did): matchpoints rank them below every seat that did not."""
    from arbiter.core.player import load_state

    state = load_state(game / "public" / "state.json")
    outcome = state.get("outcome")
    kept = None if outcome is None else {"ranking": outcome["ranking"], "scores": outcome["scores"]}
    if kept is not None and duplicate:
        from arbiter.tournament.duplicate import left_seats

        left = left_seats(game, state)
        if left:
            kept["left"] = left
    return str(state["head"]), kept


def last_heads(lines: list[record.Line], number: int) -> list[str]:
    """The final chain heads of round ``number``'s games, in table order."""
    found = sorted(
        (line.body.table, line.body.head)
        for line in lines
        if line.kind == "result" and line.body.round == number
    )
    return [head for _, head in found]


def recorded(tournament: Tournament, lines: list[record.Line]) -> list[GameResult]:
    """The games' results as the record signs them (what pairings and verify rank by)."""
    tables = {t.game: (r.round, t) for r in tournament.schedule for t in r.tables}
    out = []
    for line in lines:
        if line.kind != "result":
            continue
        number, table = tables[line.body.game]
        result = GameResult(number, table, "over", line.body.outcome)
        if line.body.outcome is not None:
            result.points = game_points(line.body.outcome["ranking"])
        out.append(result)
    from arbiter.tournament.duplicate import score_rounds

    score_rounds(tournament, out)
    return out


def finish(root: Path, time: str) -> Tournament:
    """Record the last round's results and close the record (format 2)."""
    with folder.locked(root):
        tournament = folder.load(root)
        if not tournament.recorded:
            raise UsageError("a format-1 tournament has no record to finish: nothing to do")
        if tournament.finished:
            raise UsageError("the tournament is already finished")
        if len(tournament.schedule) < tournament.rounds:
            raise NotReady(
                f"{len(tournament.schedule)} of {tournament.rounds} rounds are paired: "
                "pair and play the rest first (`arbiter tournament round`)"
            )
        waiting = [r for r in read_results(root, tournament) if not r.over]
        if waiting:
            shown = ", ".join(f"{r.table.folder} ({r.status})" for r in waiting[:6])
            raise NotReady(f"round {waiting[0].round} is not over: {shown}")
        record_results(root, tournament, time)
        record.append(
            root, tournament.id, "finish", {"rounds": tournament.rounds}, time,
            record.organiser_key(root),
        )
        tournament = tournament.model_copy(update={"finished": True})
        folder.save(root, tournament)
        return tournament


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
            deal=_deal_terms(root, tournament.id, played, table.game),
            **game_terms(tournament.terms),
        )


def _deal_terms(
    root: Path, tournament_id: str, played: Round, game: str
) -> tuple[dict[str, Any], bytes] | None:
    """A duplicate table's deal terms and its round's secret (None: not a duplicate round)."""
    from arbiter.tournament import duplicate

    group = duplicate.group_of(played, game)
    if group is None:
        return None
    return duplicate.deal_terms(played, group), duplicate.read_secret(root, tournament_id, played)


def _derive(seed: bytes | None, game: str, label: str) -> bytes | None:
    if seed is None:
        return None
    data = b"arbiter-tournament/1\x00" + seed + f"\x00{game}\x00{label}".encode()
    return hashlib.sha256(data).digest()
