"""The data of a tournament export (docs/trf.md), and the standings recomputed from it.

``collect`` reads a tournament folder into one ``TournamentExportFile``: the terms, the
players, every round's tables and results as the games' public states give them (what
``tournament standings`` ranks by), and those standings. ``standings_from_export``
rebuilds a ``Tournament`` and its ``GameResult``s from the export alone and ranks them with
the real ``standings``: a reader needs nothing else to check every point and rank.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, cast

from arbiter.core.errors import SchemaViolation
from arbiter.core.models import (
    ExportBye,
    ExportEngine,
    ExportPlayer,
    ExportRecord,
    ExportRound,
    ExportSeat,
    ExportSource,
    ExportTable,
    ExportTerms,
    TieBreak,
    TournamentExportFile,
)
from arbiter.tournament import folder
from arbiter.tournament.folder import Deal, Entrant, Round, Table, Terms, Tournament
from arbiter.tournament.standings import (
    GameResult,
    Row,
    game_points,
    read_results,
    round_bye_points,
    standings,
)

EXPORT_FORMAT: Literal["arbiter.tournament-export/1"] = "arbiter.tournament-export/1"
Status = Literal["over", "abandoned", "playing", "joining", "missing"]


def collect(root: Path) -> TournamentExportFile:
    """The export of the tournament in ``root``: what ``tournament standings`` sees now."""
    from arbiter.core.life import fingerprint
    from arbiter.tournament import record
    from arbiter.tournament.rounds import lot_seed

    tournament = folder.load(root)
    results = read_results(root, tournament)
    seed = lot_seed(root, tournament)
    ranked = {row.name: row for row in standings(tournament, results, lot_seed=seed)}
    version: str | None = None
    kept: ExportRecord | None = None
    if tournament.recorded:
        lines = record.read(root)  # refused (exit 16) when the record does not check
        version = lines[0].body.engine_version
        kept = ExportRecord(lines=len(lines), head=lines[-1].hash)
    by_game = {result.table.game: result for result in results}
    return TournamentExportFile(
        format=EXPORT_FORMAT,
        tournament=tournament.id,
        duplicate=True if tournament.duplicate else None,
        engine=ExportEngine(name=tournament.engine, version=version),
        options=dict(tournament.options),
        created=tournament.created,
        pairing=tournament.pairing,
        rounds=tournament.rounds,
        table_size=tournament.table_size,
        finished=tournament.finished,
        organiser=fingerprint(tournament.organiser) if tournament.organiser else None,
        terms=ExportTerms(
            deadline=tournament.terms.deadline,
            grace=tournament.terms.grace,
            on_timeout=tournament.terms.on_timeout,
            forfeit_after=tournament.terms.forfeit_after,
        ),
        tiebreaks=cast(list[TieBreak], list(tournament.tiebreaks)),  # names the terms checked
        lot_seed=seed,
        source=ExportSource(format=tournament.format, record=kept),
        players=[
            _player(number, entrant, ranked[entrant.name], fingerprint(entrant.key))
            for number, entrant in enumerate(tournament.players, start=1)
        ],
        schedule=[
            ExportRound(
                round=played.round,
                paired=played.paired,
                seed=played.seed,
                tables=[_table(table, by_game[table.game]) for table in played.tables],
                byes=[
                    ExportBye(name=name, points=round_bye_points(tournament, played))
                    for name in played.byes
                ],
            )
            for played in tournament.schedule
        ],
    )


def _player(number: int, entrant: Entrant, row: Row, print_: str) -> ExportPlayer:
    return ExportPlayer(
        number=number, name=entrant.name, fingerprint=print_, entered=entrant.entered,
        dropped=entrant.dropped, rank=row.rank, points=row.points, games=row.games,
        byes=row.byes, opponents=row.opponents, score=row.score, tiebreaks=dict(row.tiebreaks),
    )  # fmt: skip


def _table(table: Table, result: GameResult) -> ExportTable:
    status: Status
    if not result.over:
        status = cast(Status, result.status)  # joining, playing or missing
        seats = [ExportSeat(name=s, place=None, score=None, points=None) for s in table.seats]
    elif result.outcome is None:
        status = "abandoned"
        seats = [ExportSeat(name=s, place=None, score=None, points=None) for s in table.seats]
    else:
        status = "over"
        place = places(result.outcome["ranking"])
        scores = result.outcome["scores"]
        seats = [
            # A score the outcome leaves out counts 0, as the standings count it.
            ExportSeat(
                name=s, place=place[s], score=int(scores.get(s, 0)),
                # A duplicate game counts once its whole round is over (docs/duplicate.md).
                points=result.points[s] if result.counted else None,
                left=True if s in result.outcome.get("left", ()) else None,
            )
            for s in table.seats
        ]
    return ExportTable(
        table=table.table, game=table.game, manifest=table.manifest, status=status, seats=seats
    )


def places(ranking: list[list[str]]) -> dict[str, int]:
    """Each seat's place from a ranking's groups: 1 is first, tied seats share a place and
    the next place counts them (1, 1, 3)."""
    out: dict[str, int] = {}
    for group in ranking:
        place = len(out) + 1
        out.update(dict.fromkeys(group, place))
    return out


def ranking(seats: list[ExportSeat]) -> list[list[str]]:
    """The ranking's groups, best first, from the seats' places (seat order within a group)."""
    found = sorted({seat.place for seat in seats if seat.place is not None})
    return [[seat.name for seat in seats if seat.place == place] for place in found]


def rebuild(data: TournamentExportFile) -> tuple[Tournament, list[GameResult], str | None]:
    """The ``Tournament``, its ``GameResult``s and the lot seed, from an export alone."""
    tournament = Tournament(
        format=data.source.format,
        id=data.tournament,
        engine=data.engine.name,
        options=dict(data.options),
        pairing=data.pairing,
        rounds=data.rounds,
        table_size=data.table_size,
        # The standings never read a key: the fingerprint stands in for it.
        players=[
            Entrant(name=p.name, key=p.fingerprint, entered=p.entered, dropped=p.dropped)
            for p in data.players
        ],
        terms=Terms(**data.terms.model_dump()),
        created=data.created,
        organiser=data.organiser,
        schedule=[_round(played, bool(data.duplicate), data.tournament) for played in data.schedule],
        finished=data.finished,
        tiebreaks=list(data.tiebreaks),
        duplicate=bool(data.duplicate),
    )
    results = []
    for played, made in zip(data.schedule, tournament.schedule, strict=True):
        for exported, table in zip(played.tables, made.tables, strict=True):
            results.append(_result(played.round, table, exported))
    from arbiter.tournament.duplicate import score_rounds

    score_rounds(tournament, results)
    return tournament, results, data.lot_seed


def _round(played: ExportRound, duplicate: bool, tournament: str) -> Round:
    """A round of the export; a duplicate round's groups follow from its tables (the export
    carries no group commitment: it is checked by `tournament verify`, not here)."""
    from arbiter.tournament.duplicate import group_id, groups_of

    made = Round(
        round=played.round,
        paired=played.paired,
        tables=[
            Table(
                table=t.table,
                game=t.game,
                folder=folder.game_folder(played.round, t.table),
                seats=[seat.name for seat in t.seats],
                manifest=t.manifest,
            )
            for t in played.tables
        ],
        byes=[bye.name for bye in played.byes],
        seed=played.seed,
    )
    if not duplicate:
        return made
    deals = [
        Deal(group=group_id(tournament, played.round, n), seats=n, commitment="", games=games)
        for n, games in groups_of(made.tables)
    ]
    return made.model_copy(update={"deals": deals})


def _result(number: int, table: Table, exported: ExportTable) -> GameResult:
    if exported.status == "abandoned":
        return GameResult(number, table, "over", None)
    if exported.status != "over":
        return GameResult(number, table, exported.status, None)
    groups = ranking(exported.seats)
    outcome: dict[str, Any] = {
        "ranking": groups,
        "scores": {seat.name: seat.score for seat in exported.seats},
    }
    left = [seat.name for seat in exported.seats if seat.left]
    if left:
        outcome["left"] = left
    return GameResult(number, table, "over", outcome, game_points(groups))


def standings_from_export(data: TournamentExportFile) -> list[Row]:
    """The standings recomputed from the export alone, by the real rules."""
    tournament, results, seed = rebuild(data)
    return standings(tournament, results, lot_seed=seed)


def exported_rows(data: TournamentExportFile) -> list[Row]:
    """The standings the export states (its players' lines), in the standings' order."""
    rows = [
        Row(p.rank, p.name, p.points, p.opponents, p.score, p.games, p.byes, dict(p.tiebreaks))
        for p in data.players
    ]
    return sorted(rows, key=lambda row: (row.rank, row.name))


def result_problem(seats: list[ExportSeat], duplicate: bool = False) -> str | None:
    """What is wrong with a finished table's places and points, or None: the places must
    be a ranking (1, 1, 3 ...) and each seat's points what its place gives (in a duplicate
    tournament the matchpoints, which ``check`` compares with the other tables)."""
    names = [seat.name for seat in seats]
    if len(set(names)) != len(names):
        return "a player sits twice at the table"
    given = [seat.place for seat in seats]
    known = [place for place in given if place is not None]
    if len(known) != len(given) or any(
        place != 1 + sum(1 for other in known if other < place) for place in known
    ):
        return f"the places {given} are not a ranking (1 is first; tied seats share one: 1, 1, 3)"
    if duplicate:
        return None
    points = game_points(ranking(seats))
    for seat in seats:
        if seat.points != points[seat.name]:
            return (
                f"{seat.name} has {seat.points} points, but place {seat.place} at this "
                f"table gives {points[seat.name]}"
            )
    return None


def check(data: TournamentExportFile) -> None:
    """Refuse an export that does not add up (``SchemaViolation`` naming the first thing):
    a table's places and points, a bye's points, and every player's line of the standings
    against the standings its games give."""
    duplicate = bool(data.duplicate)
    tournament, results, _ = rebuild(data)
    given_points = {
        result.table.game: result.points if result.counted else {} for result in results
    }
    for played, made in zip(data.schedule, tournament.schedule, strict=True):
        for table in played.tables:
            over = table.status == "over"
            problem = result_problem(table.seats, duplicate) if over else None
            if problem:
                raise SchemaViolation(f"round {played.round} table {table.table}: {problem}")
            for seat in table.seats if over and duplicate else ():
                want = given_points[table.game].get(seat.name)
                if seat.points != want:
                    raise SchemaViolation(
                        f"round {played.round} table {table.table}: {seat.name} has "
                        f"{seat.points} matchpoints, but the group's scores give "
                        f"{'none yet (its round is not over)' if want is None else want}"
                    )
        bye = round_bye_points(tournament, made)
        for sat_out in played.byes:
            if sat_out.points != bye:
                why = "the group's average" if duplicate else "the table size less one"
                raise SchemaViolation(
                    f"round {played.round}: {sat_out.name}'s bye scores {sat_out.points}, not "
                    f"{bye} ({why})"
                )
    given = {row.name: row for row in standings_from_export(data)}
    for stated in exported_rows(data):
        mine = given[stated.name]
        if mine != stated:
            raise SchemaViolation(
                f"the export's line of {stated.name} (rank {stated.rank}, {stated.points} "
                f"points) is not what its games give (rank {mine.rank}, {mine.points} points, "
                f"tie-breaks {', '.join(mine.tiebreaks.values()) or 'none'})"
            )


def from_json(raw: bytes) -> TournamentExportFile:
    """The data of a JSON export, checked against its schema (the TRF's: ``trf.read``)."""
    from arbiter.core.canonical import parse_strict
    from arbiter.core.schemas import validate

    what = "the tournament export"
    data = parse_strict(raw, what)
    validate("tournament-export", data, what)
    return TournamentExportFile.model_validate(data)


def to_json(data: TournamentExportFile) -> bytes:
    """The JSON export: written as arbiter writes every file (sorted keys, final newline)."""
    from arbiter.core.canonical import pretty

    dumped = data.model_dump(mode="json")
    # Members only a duplicate tournament has are left out elsewhere (the schema has no null).
    if dumped["duplicate"] is None:
        del dumped["duplicate"]
    for played in dumped["schedule"]:
        for table in played["tables"]:
            for seat in table["seats"]:
                if seat["left"] is None:
                    del seat["left"]
    return pretty(dumped)
