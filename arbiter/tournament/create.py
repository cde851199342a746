"""``tournament new``: check every term, then write ``T/tournament.json``.

Rules (docs/tournaments.md, "Format and rounds"): without ``--format`` the tournament is
a round-robin when a full round-robin takes no more rounds than asked for (``--rounds``,
else the Swiss default), otherwise Swiss. Swiss plays ``max(3, ceil(log2 players))``
rounds by default, but never more than a full round-robin would.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any

from arbiter.core.errors import UsageError
from arbiter.core.gamedir import building
from arbiter.tournament import folder
from arbiter.tournament.folder import Entrant, Terms, Tournament
from arbiter.tournament.pairing import round_robin_rounds
from arbiter.tournament.players import Player
from arbiter.tournament.tiebreaks import DEFAULT as DEFAULT_TIEBREAKS

FORMATS = ("round-robin", "swiss")
POLICIES = ("pass", "bot", "forfeit")


def swiss_rounds(players: int, table_size: int) -> int:
    """The default number of Swiss rounds (see the module's docstring)."""
    wanted = max(3, math.ceil(math.log2(max(players, 2))))
    return min(wanted, round_robin_rounds(players, table_size))


def allowed_sizes(engine_name: str, options: dict[str, str], table_size: int) -> list[int]:
    """Return the table sizes among ``table_size`` and ±1 that the engine seats."""
    from arbiter.core import registry

    engine = registry.get(engine_name)
    parsed = engine.parse_options(dict(options))
    out = []
    for size in (table_size - 1, table_size, table_size + 1):
        if size < 2 or not engine.info.min_seats <= size <= engine.info.max_seats:
            continue
        try:
            engine.check_seats(parsed, size)
        except UsageError:
            continue
        out.append(size)
    return out


def create(
    root: Path,
    *,
    engine: str,
    players: list[Player],
    options: dict[str, str],
    pairing: str | None,
    rounds: int | None,
    table_size: int,
    terms: Terms,
    tournament_id: str | None,
    created: str,
    organiser_seed: bytes | None = None,
    tiebreaks: list[str] | None = None,
    duplicate: bool = False,
) -> Tournament:
    """Check the terms, try a game of each table size, then write ``tournament.json``,
    the organiser key (``T/organiser/key``; from ``organiser_seed`` for reproducible tests)
    and the record's first line, the signed terms (docs/tournament-record.md).

    Nothing is written when a check fails.
    """
    from arbiter.core import registry
    from arbiter.core.safeio import shown

    if root.is_symlink() or (root.exists() and (not root.is_dir() or any(root.iterdir()))):
        raise UsageError(f"{shown(root)} already exists and is not empty: choose a new folder")
    tid = folder.check_id(tournament_id or folder.slug(root.resolve().name))
    info = registry.get(engine).info
    if not 2 <= table_size <= 5:
        raise UsageError(f"--table-size must be 2 to 5, not {table_size}")
    if not info.min_seats <= table_size <= info.max_seats:
        raise UsageError(
            f"{info.name} seats {info.min_seats}–{info.max_seats} players: "
            f"choose --table-size in that range"
        )
    allowed = allowed_sizes(engine, options, table_size)
    if table_size not in allowed:
        raise UsageError(
            f"{info.name} with these options cannot seat {table_size} players: "
            "choose another --table-size or other options"
        )
    if len(players) < table_size:
        raise UsageError(
            f"{len(players)} players cannot fill a table of {table_size}: "
            "list more players or choose a smaller --table-size"
        )
    if pairing is not None and pairing not in FORMATS:
        raise UsageError(f"--format must be round-robin or swiss, not {pairing!r}")
    if terms.deadline is None and (
        terms.grace or terms.on_timeout != "pass" or terms.forfeit_after is not None
    ):
        raise UsageError("--grace, --on-timeout and --forfeit-after need a --deadline")
    if terms.on_timeout not in POLICIES:
        raise UsageError(f"--on-timeout must be pass, bot or forfeit, not {terms.on_timeout!r}")
    if rounds is not None and not 1 <= rounds <= folder.MAX_ROUNDS:
        raise UsageError(f"--rounds must be 1 to {folder.MAX_ROUNDS}, not {rounds}")
    full = round_robin_rounds(len(players), table_size)
    if pairing is None:
        pairing = (
            "round-robin" if full <= (rounds or swiss_rounds(len(players), table_size)) else "swiss"
        )
    if pairing == "round-robin":
        if rounds is not None and rounds > full:
            raise UsageError(
                f"a round-robin of {len(players)} players at tables of {table_size} has {full} "
                f"rounds, not {rounds}: ask for at most {full}, or --format swiss"
            )
        rounds = rounds or full
    rounds = rounds or swiss_rounds(len(players), table_size)
    if duplicate and (len(players) % table_size or len(players) < 2 * table_size):
        raise UsageError(
            f"--duplicate compares tables of the same size: {len(players)} players do not fill "
            f"at least two tables of {table_size} exactly; list a multiple of {table_size} players"
        )
    tournament = Tournament(
        format=folder.TOURNAMENT_FORMAT,
        id=tid,
        engine=engine,
        options=dict(options),
        pairing=pairing,  # type: ignore[arg-type]  # checked against FORMATS above
        rounds=rounds,
        table_size=table_size,
        players=[Entrant(name=p.name, key=p.key, comment=p.comment) for p in players],
        terms=terms,
        created=created,
        schedule=[],
        tiebreaks=list(tiebreaks) if tiebreaks is not None else list(DEFAULT_TIEBREAKS),
        duplicate=duplicate,
    )
    # Built beside its path and renamed into place: a crash leaves no half tournament
    # (the trial games included), and the same command run again makes it.
    with building(root) as made:
        _try_games(tournament, allowed, created, made / ".trial")
        (made / folder.GAMES).mkdir()
        tournament = _start_record(made, tournament, organiser_seed)
        folder.save(made, tournament)
    return tournament


def _start_record(made: Path, tournament: Tournament, seed: bytes | None) -> Tournament:
    """Make the organiser key and sign the terms as the record's genesis line."""
    from arbiter.core import registry
    from arbiter.core.signing import keygen, public_key_of
    from arbiter.tournament import record

    key, _ = keygen("key", made / record.ORGANISER, comment="arbiter tournament organiser", seed=seed)
    organiser = public_key_of(key)
    body = {
        "id": tournament.id,
        "engine": tournament.engine,
        "engine_version": registry.get(tournament.engine).info.version,
        "options": dict(tournament.options),
        "pairing": tournament.pairing,
        "rounds": tournament.rounds,
        "table_size": tournament.table_size,
        "players": [p.model_dump() for p in tournament.players],
        "terms": tournament.terms.model_dump(),
        "takebacks": "none",
        "tiebreaks": list(tournament.tiebreaks),
        "organiser": organiser,
        "created": tournament.created,
    }
    if tournament.duplicate:
        body["duplicate"] = True
    record.append(made, tournament.id, "terms", body, tournament.created, key)
    return tournament.model_copy(update={"organiser": organiser})


def _try_games(tournament: Tournament, sizes: list[int], created: str, scratch: Path) -> None:
    """Create a throw-away game of each table size in ``scratch`` (removed after), so any
    term the referee would refuse (options, deadline terms, keys) is refused now, not in
    round 3."""
    from arbiter.core.referee import new_game

    try:
        for size in sizes:
            seats = [(p.name, p.key) for p in tournament.players[:size]]
            if len(seats) < size:
                continue
            new_game(
                scratch / f"size-{size}",
                tournament.engine,
                seats,
                tournament.options,
                game_id=folder.game_id(tournament.id, 1, 1),
                created=created,
                secret=bytes(32),
                referee_seed=b"arbiter-tournament/1: trial",
                takebacks="none",  # tournaments take nothing back (docs/game-life.md §4)
                **game_terms(tournament.terms),
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def game_terms(terms: Terms) -> dict[str, Any]:
    """The deadline keyword arguments of ``new_game`` (none without a deadline)."""
    if terms.deadline is None:
        return {}
    return {
        "deadline": terms.deadline,
        "grace": terms.grace,
        "on_timeout": terms.on_timeout,
        "forfeit_after": terms.forfeit_after,
    }
