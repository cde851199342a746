"""``arbiter tournament``: a tournament folder of games, paired round by round."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from arbiter.cli import tournament_duplicate, tournament_export, tournament_report
from arbiter.cli.output import Output

app = typer.Typer(
    help="Run a tournament: pair rounds into games, rank players, write a report.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

FOLDER = typer.Argument(
    ..., help="The tournament folder (private: it holds each game's secret).", metavar="T"
)
JSON = typer.Option(False, "--json", help="Print JSON.")


@app.command("new")
def new(
    root: Path = FOLDER,
    game: str = typer.Option(..., "--game", "-g", help="Engine name (see `arbiter games`)."),
    players: Path = typer.Option(
        ...,
        "--players",
        "-p",
        help="Players file: one 'NAME ssh-ed25519 AAAA... [comment]' a line.",
        metavar="FILE",
    ),
    pairing: str | None = typer.Option(
        None,
        "--format",
        "-f",
        help="round-robin or swiss (default: round-robin when it fits in the rounds).",
        metavar="FORMAT",
    ),
    rounds: int | None = typer.Option(None, "--rounds", "-r", help="Number of rounds."),
    table_size: int | None = typer.Option(
        None, "--table-size", "-t", help="Players a table, 2-5 (default 2, or the game's minimum)."
    ),
    option: list[str] = typer.Option([], "--option", "-o", help="Engine option K=V (repeatable)."),
    deadline: str | None = typer.Option(
        None, "--deadline", help="Time per decision in every game, e.g. 72h or 3d."
    ),
    grace: str | None = typer.Option(
        None, "--grace", help="Extra time after a deadline, e.g. 24h."
    ),
    on_timeout: str = typer.Option(
        "pass", "--on-timeout", help="pass, bot or forfeit: what a timeout does."
    ),
    forfeit_after: int | None = typer.Option(
        None,
        "--forfeit-after",
        help="After this many timeouts of one player in a row, the next one forfeits.",
        metavar="N",
    ),
    tournament_id: str | None = typer.Option(
        None, "--id", help="Tournament id (default: the folder name); games are ID-r<R>-t<K>."
    ),
    tiebreaks: str = typer.Option(
        "opponents-points,game-score",
        "--tiebreaks",
        help="The standings' tie-breaks after points, in order, from: opponents-points, "
        "opponents-points-cut1, game-score, head-to-head, place-points, lot "
        "(docs/tournaments.md).",
        metavar="LIST",
    ),
    duplicate: bool = typer.Option(
        False,
        "--duplicate",
        help="Duplicate rounds: every table of a round plays the same deal, and players "
        "score matchpoints against their seat position at the other tables "
        "(docs/duplicate.md).",
    ),
    as_json: bool = JSON,
) -> None:
    """Create a tournament folder from a players file; nothing is paired yet."""
    from arbiter.cli.referee import _pairs, now_utc
    from arbiter.core import registry
    from arbiter.tournament.create import create
    from arbiter.tournament.folder import Terms
    from arbiter.tournament.players import read
    from arbiter.tournament.tiebreaks import parse as parse_tiebreaks

    out = Output(as_json)
    order = parse_tiebreaks(tiebreaks)
    field = read(players)
    if table_size is None:
        table_size = max(2, registry.get(game).info.min_seats)
    seconds, extra = None, 0
    if deadline is not None or grace is not None:
        from arbiter.core.deadlines import parse_duration

        seconds = parse_duration(deadline) if deadline is not None else None
        extra = parse_duration(grace, "--grace", minimum=0) if grace is not None else 0
    tournament = create(
        root,
        engine=game,
        players=field,
        options=dict(_pairs(option, "--option")),
        pairing=pairing,
        rounds=rounds,
        table_size=table_size,
        terms=Terms(
            deadline=seconds,
            grace=extra,
            on_timeout=on_timeout,  # type: ignore[arg-type]
            forfeit_after=forfeit_after,
        ),
        tournament_id=tournament_id,
        created=now_utc(),
        tiebreaks=order,
        duplicate=duplicate,
    )
    if as_json:
        out.json(
            {
                "tournament": tournament.id,
                "folder": str(root),
                "engine": tournament.engine,
                "format": tournament.pairing,
                "rounds": tournament.rounds,
                "table_size": tournament.table_size,
                "players": len(tournament.players),
                "terms": tournament.terms.model_dump(),
                "duplicate": tournament.duplicate,
            }
        )
        return
    out.line(
        f"created tournament {tournament.id} in {root}: {len(tournament.players)} players, "
        f"{tournament.engine}, {tournament.pairing}, {tournament.rounds} rounds, "
        f"tables of {tournament.table_size}" + (", duplicate deals" if tournament.duplicate else "")
    )
    if tournament.terms.deadline is not None:
        from arbiter.core.deadlines import describe_duration

        out.line(
            f"deadline {describe_duration(tournament.terms.deadline)} a decision, grace "
            f"{describe_duration(tournament.terms.grace)}, on timeout: {tournament.terms.on_timeout}"
        )
    out.line(f"next: arbiter tournament round {root}")


@app.command("round")
def round_(root: Path = FOLDER, as_json: bool = JSON) -> None:
    """Pair the next round (once every game of the last one is over) and create its games."""
    from arbiter.cli.referee import now_utc
    from arbiter.tournament.rounds import pair_next

    out = Output(as_json)
    paired = pair_next(root, now_utc())
    tournament, played = paired.tournament, paired.round
    tables: list[dict[str, Any]] = [
        {
            "table": t.table,
            "game": t.game,
            "folder": str(root / t.folder),
            "seats": list(t.seats),
            "join": {seat: join_command(root / t.folder, seat) for seat in t.seats},
        }
        for t in played.tables
    ]
    if as_json:
        out.json(
            {
                "tournament": tournament.id,
                "round": played.round,
                "rounds": tournament.rounds,
                "resumed": paired.resumed,
                "tables": tables,
                "byes": list(played.byes),
                "deals": [d.model_dump() for d in played.deals],
            }
        )
        return
    what = "created the missing games of" if paired.resumed else "paired"
    out.line(
        f"{what} round {played.round} of {tournament.rounds} ({tournament.pairing}): "
        f"{len(played.tables)} tables"
    )
    for table in tables:
        out.line(f"table {table['table']}: {', '.join(table['seats'])}  ->  {table['folder']}")
    if played.byes:
        from arbiter.tournament.standings import round_bye_points

        points = round_bye_points(tournament, played)
        out.line(f"bye (+{points} points): {', '.join(played.byes)}")
    for group in played.deals:
        out.line(
            f"duplicate group {group.group}: the {len(group.games)} tables of {group.seats} "
            "play the same deal"
        )
    out.line("each player joins their game and sends the join file to the organiser:")
    for table in tables:
        for seat, command in table["join"].items():
            out.line(f"  {seat}: {command}")
    out.line(f"then: arbiter submit {root}/games/<game> JOIN-FILES...")
    if played.deals:
        out.line(
            f"once every table of a group has joined: arbiter tournament deal {root} "
            f"(when its games are over: arbiter tournament reveal {root})"
        )


def join_command(game: Path, seat: str) -> str:
    return f"arbiter join {game / 'game.json'} --seat {seat} --key KEY -o join-{seat}.json"


@app.command("standings")
def standings(root: Path = FOLDER, as_json: bool = JSON) -> None:
    """Rank the players: points, then the tournament's tie-breaks in order."""
    from arbiter.tournament import folder
    from arbiter.tournament.rounds import lot_seed
    from arbiter.tournament.standings import read_results
    from arbiter.tournament.standings import standings as rank

    out = Output(as_json)
    tournament = folder.load(root)
    results = read_results(root, tournament)
    rows = rank(tournament, results, lot_seed=lot_seed(root, tournament))
    over = sum(1 for r in results if r.over)
    if as_json:
        out.json(
            {
                "tournament": tournament.id,
                "rounds": tournament.rounds,
                "paired": len(tournament.schedule),
                "games": len(results),
                "over": over,
                "standings": [row.to_json() for row in rows],
            }
        )
        return
    from arbiter.tournament.report import columns, row_cells

    out.line(
        f"{tournament.id}: {len(tournament.schedule)} of {tournament.rounds} rounds paired, "
        f"{over} of {len(results)} games over"
    )
    order = tournament.tiebreaks
    out.table(None, columns(order), [row_cells(row, order) for row in rows])


tournament_report.register(app)  # arbiter tournament report (its own module)
tournament_export.register(app)  # arbiter tournament export (its own module)
tournament_duplicate.register(app)  # arbiter tournament deal / reveal (duplicate rounds)


@app.command("verify")
def verify(
    root: Path = FOLDER,
    jobs: int | None = typer.Option(None, "--jobs", "-j", help="Processes (default: all cores)."),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="A Dask scheduler, tcp://HOST:PORT (needs arbiter[dask])."
    ),
    as_json: bool = JSON,
) -> None:
    """Check the tournament from its signed record — tournament.json, every pairing, the
    game folders, each result and the published standings — then verify every game."""
    from arbiter.cli.verify_many import run  # type: ignore[import-not-found, unused-ignore]
    from arbiter.tournament.audit import audit

    found = audit(root)
    if not as_json:
        out = Output()
        for note in found.notes:
            out.line(note)
    run(game_folders(root), jobs, scheduler, as_json)


@app.command("finish")
def finish(root: Path = FOLDER) -> None:
    """Record the last round's results and close the tournament's record."""
    from arbiter.cli.referee import now_utc
    from arbiter.tournament.rounds import finish as close

    tournament = close(root, now_utc())
    Output().line(
        f"{tournament.id} is finished: {tournament.rounds} rounds recorded; publish it "
        "(without organiser/ and the games' referee/ folders) for anyone to check with "
        "`arbiter tournament verify`"
    )


@app.command("drop")
def drop_command(
    root: Path = FOLDER,
    name: str = typer.Argument(..., help="The player who leaves.", metavar="NAME"),
) -> None:
    """Drop a player from the next round on (their finished games still count)."""
    from arbiter.cli.referee import now_utc
    from arbiter.tournament.field import drop

    _, start = drop(root, name, now_utc())
    Output().line(
        f"{name} is dropped from round {start} on (signed in the record); their finished "
        "games still count"
    )


@app.command("enter")
def enter_command(
    root: Path = FOLDER,
    name: str = typer.Argument(..., help="The new player's name (a seat id).", metavar="NAME"),
    key: str = typer.Argument(
        ..., help="Their public key, 'ssh-ed25519 AAAA...' (quoted).", metavar="KEY"
    ),
    comment: str = typer.Option("", "--comment", help="A free comment, as in the players file."),
    round_number: int | None = typer.Option(
        None, "--round", "-r", help="The first round they play (default: the next one)."
    ),
) -> None:
    """Enter a late player in a Swiss tournament, from a round not yet paired."""
    from arbiter.cli.referee import now_utc
    from arbiter.tournament.field import enter

    tournament, start = enter(root, name, key, comment, round_number, now_utc())
    Output().line(
        f"{name} enters {tournament.id} from round {start} (signed in the record); the "
        "rounds before score nothing"
    )


@app.command("simulate")
def simulate_command(
    players: int = typer.Option(..., "--players", "-n", help="Players in the field."),
    seed: str = typer.Option(..., "--seed", "-s", help="Any text: the same seed, the same tournament."),
    rounds: int | None = typer.Option(None, "--rounds", "-r", help="Rounds (default: as `new`)."),
    table_size: int = typer.Option(2, "--table-size", "-t", help="Players a table."),
    pairing: str | None = typer.Option(
        None, "--format", "-f", help="round-robin or swiss (default: as `new`).", metavar="FORMAT"
    ),
    game: str = typer.Option("mottainai", "--game", "-g", help="The engine whose table sizes apply."),
    as_json: bool = JSON,
) -> None:
    """Pair a seeded random tournament by the real rules, with random results and no
    games (FIDE's random-tournament generator, for checking pairings)."""
    from arbiter.tournament.simulate import simulate

    made = simulate(
        players, seed, rounds=rounds, table_size=table_size, pairing=pairing, engine=game
    )
    out = Output(as_json)
    if as_json:
        out.json(made)
        return
    out.line(
        f"{made['players']} players, {made['format']}, {made['rounds']} rounds, tables of "
        f"{made['table_size']}, seed {seed!r}"
    )
    for played in made["schedule"]:
        tables = "  ".join("(" + ", ".join(t) + ")" for t in played["tables"])
        byes = f"  byes: {', '.join(played['byes'])}" if played["byes"] else ""
        out.line(f"round {played['round']}: {tables}{byes}")
    from arbiter.tournament.report import columns

    out.table(
        None,
        columns(list(made["standings"][0]["tiebreaks"])),
        [
            [str(r["rank"]), r["name"], str(r["points"]), *r["tiebreaks"].values(),
             str(r["games"]), str(r["byes"])]
            for r in made["standings"]
        ],
    )  # fmt: skip
    out.line(f"pairings digest: {made['digest']}")


@app.command("check")
def check(
    root: Path = FOLDER,
    round_number: int = typer.Option(..., "--round", "-r", help="The round to pair again."),
    as_json: bool = JSON,
) -> None:
    """Pair one round again from the signed record and compare it with the recorded one."""
    from arbiter.tournament.checks import check_round

    checked = check_round(root, round_number)
    out = Output(as_json)
    if as_json:
        out.json(checked)
        return
    out.line(
        f"round {round_number}: the recorded pairing is the one the rules give "
        f"(seed {checked['seed'][:16]}…, {len(checked['tables'])} tables)"
    )
    for number, seats in enumerate(checked["tables"], start=1):
        out.line(f"  table {number}: {', '.join(seats)}")
    if checked["byes"]:
        out.line(f"  byes: {', '.join(checked['byes'])}")


def game_folders(root: Path) -> list[Path]:
    """Return the game folders under ``T/games/`` (not the half-built ``.tmp-*`` ones)."""
    from arbiter.tournament.folder import GAMES

    games = root / GAMES
    if not games.is_dir():
        return []
    return sorted(
        (p for p in games.iterdir() if p.is_dir() and not p.name.startswith(".")),
        key=lambda p: _natural(p.name),
    )


def _natural(name: str) -> list[Any]:
    import re

    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="tournament")
