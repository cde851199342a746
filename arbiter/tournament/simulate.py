"""``tournament simulate``: seeded random tournaments, paired by the real rules, no games.

FIDE endorses a pairing program only with a random-tournament generator beside its
checker; this is arbiter's. A simulated tournament has players ``p01 … pNN``; each
round is paired by exactly the function ``tournament round`` and ``tournament verify``
use (``rounds.compute``), with round seeds made as a real record makes them
(docs/tournament-record.md §2) from stand-ins: the genesis hash is derived from the seed,
and a game's "final chain head" is the sha256 of its simulated result. Each table's
result is a seeded random ranking (now and then two players tie), so the whole run is a
function of its arguments. The pairings' digest is what the conformance test keeps in
``tests/golden/tournament-pairings.json``: a change of the pairing rules changes it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from arbiter.core.canonical import canonical, sha256_hex
from arbiter.core.errors import UsageError
from arbiter.core.rng import Rng
from arbiter.tournament import record
from arbiter.tournament.folder import Entrant, Round, Table, Terms, Tournament
from arbiter.tournament.standings import GameResult, game_points, standings

MAX_PLAYERS = 200
TIE = 8
"""One table in ``TIE`` has two players tied (the first two places, or the last two)."""


def simulate(
    players: int,
    seed: str,
    *,
    rounds: int | None = None,
    table_size: int = 2,
    pairing: str | None = None,
    engine: str = "mottainai",
) -> dict[str, Any]:
    """Pair and "play" a whole tournament; return its rounds, standings and digest."""
    from arbiter.tournament.create import allowed_sizes, swiss_rounds
    from arbiter.tournament.pairing import round_robin_rounds
    from arbiter.tournament.rounds import compute

    if not 2 <= players <= MAX_PLAYERS:
        raise UsageError(f"--players must be 2 to {MAX_PLAYERS}, not {players}")
    if table_size not in allowed_sizes(engine, {}, table_size) or players < table_size:
        raise UsageError(f"{engine} cannot seat {players} players at tables of {table_size}")
    full = round_robin_rounds(players, table_size)
    if pairing is None:
        pairing = "round-robin" if full <= (rounds or swiss_rounds(players, table_size)) else "swiss"
    if pairing not in ("round-robin", "swiss"):
        raise UsageError(f"--format must be round-robin or swiss, not {pairing!r}")
    limit = full if pairing == "round-robin" else 99
    rounds = rounds or (full if pairing == "round-robin" else swiss_rounds(players, table_size))
    if not 1 <= rounds <= limit:
        raise UsageError(f"--rounds must be 1 to {limit} for this field, not {rounds}")
    names = [f"p{n:0{len(str(players))}d}" for n in range(1, players + 1)]
    tournament = Tournament(
        format="arbiter.tournament/2",
        id="sim",
        engine=engine,
        options={},
        pairing=pairing,  # type: ignore[arg-type]  # checked above
        rounds=rounds,
        table_size=table_size,
        players=[Entrant(name=name, key=f"simulated {name}") for name in names],
        terms=Terms(deadline=None, grace=0, on_timeout="pass"),
        created="2026-01-01T00:00:00Z",
    )
    genesis = sha256_hex(f"arbiter-tournament-simulate/1\x00{seed}".encode())
    results: list[GameResult] = []
    heads: list[str] = []
    for number in range(1, rounds + 1):
        salt = record.round_seed(genesis, number, heads)
        paired = compute(tournament, results, number, salt)
        tables = [
            Table(table=k, game=f"sim-r{number}-t{k}", folder=f"games/r{number}-t{k}", seats=seats)
            for k, seats in enumerate(paired.tables, start=1)
        ]
        played = Round(round=number, paired="", tables=tables, byes=paired.byes, seed=salt)
        tournament = tournament.model_copy(update={"schedule": [*tournament.schedule, played]})
        heads = []
        for table in tables:
            outcome = _result(seed, number, table)
            result = GameResult(number, table, "over", outcome)
            result.points = game_points(outcome["ranking"])
            results.append(result)
            heads.append(sha256_hex(canonical(outcome)))
    schedule = [
        {"round": r.round, "tables": [t.seats for t in r.tables], "byes": r.byes}
        for r in tournament.schedule
    ]
    return {
        "players": players,
        "table_size": table_size,
        "format": pairing,
        "rounds": rounds,
        "seed": seed,
        "schedule": schedule,
        "standings": [row.to_json() for row in standings(tournament, results)],
        "digest": sha256_hex(canonical(schedule)),
    }


def _result(seed: str, number: int, table: Table) -> dict[str, Any]:
    """A seeded random ranking of the table, with scores."""
    data = f"arbiter-tournament-simulate/1\x00{seed}\x00{number}\x00{table.table}".encode()
    rng = Rng(hashlib.sha256(data).digest())
    order = list(table.seats)
    for i in range(len(order) - 1, 0, -1):  # Fisher–Yates with the seeded stream
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    ranking: list[list[str]] = [[name] for name in order]
    if len(order) > 1 and rng.below(TIE) == 0:
        at = 0 if rng.below(2) == 0 else len(ranking) - 2
        ranking[at : at + 2] = [sorted(ranking[at] + ranking[at + 1])]
    scores: dict[str, int] = {}
    for place, group in enumerate(ranking):
        for name in group:
            scores[name] = 10 * (len(ranking) - place)
    return {"ranking": ranking, "scores": dict(sorted(scores.items()))}
