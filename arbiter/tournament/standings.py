"""Tournament points from each game's ranking, and the standings with their tie-breaks.

Rules (docs/tournaments.md, "Points" and "Standings"):

- A game is a small match against every other player at the table: **2 points for each
  opponent you finish ahead of, 1 for each you tie with, 0 for each who finishes ahead**.
  At a table of n that is 2(n-1), 2(n-2), ..., 0 by place, and tied players share the
  points of the places they cover (always a whole number).
- A bye scores ``table_size - 1`` (a tie with everyone at a usual table); it meets nobody.
- Standings: points, then the tournament's ordered tie-break list (default: the sum of
  opponents' points, each opponent once per game played against them, then total game
  score; ``arbiter.tournament.tiebreaks`` lists the others). Players equal on all of them
  share a rank, listed by name. Games not over count as not played yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.errors import Tampered
from arbiter.tournament.folder import Round, Table, Tournament
from arbiter.tournament.tables import tiebreak


def game_points(ranking: Sequence[Sequence[str]]) -> dict[str, int]:
    """Return each seat's tournament points from a game's ranking (groups of tied seats)."""
    below = sum(len(group) for group in ranking)
    points: dict[str, int] = {}
    for group in ranking:
        below -= len(group)
        for seat in group:
            points[seat] = 2 * below + (len(group) - 1)
    return points


def bye_points(table_size: int) -> int:
    return table_size - 1


def round_bye_points(tournament: Tournament, played: Round) -> int:
    """A bye's points in that round: a tie with everyone at a usual table, or in a
    duplicate round the average matchpoints (arbiter.tournament.duplicate)."""
    if tournament.duplicate:
        from arbiter.tournament.duplicate import bye_points as duplicate_bye

        return duplicate_bye(played)
    return bye_points(tournament.table_size)


@dataclass
class GameResult:
    """A game of the tournament as the standings see it."""

    round: int
    table: Table
    status: str
    """``joining``, ``playing``, ``over``, or ``missing`` when the folder is not there."""
    outcome: dict[str, Any] | None = None
    points: dict[str, int] = field(default_factory=dict)
    """Tournament points: by place, or a duplicate game's matchpoints (docs/duplicate.md)."""
    counted: bool = True
    """False for a duplicate game whose group is not over yet: it counts as not played."""

    @property
    def over(self) -> bool:
        """Finished: with a result, or abandoned by agreement (over with no outcome)."""
        return self.status == "over"

    @property
    def scored(self) -> bool:
        """Finished with a result: an abandoned game gives nobody points (docs/game-life.md)."""
        return self.status == "over" and self.outcome is not None and self.counted


@dataclass
class Row:
    """A player's line in the standings."""

    rank: int
    name: str
    points: int
    opponents: int
    """Sum of opponents' points (Buchholz)."""
    score: int
    """Total game score over finished games."""
    games: int
    byes: int
    tiebreaks: dict[str, str] = field(default_factory=dict)
    """Each tie-break of the tournament's list, as printed (arbiter.tournament.tiebreaks)."""

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "tiebreaks": dict(self.tiebreaks)}


def read_results(root: Path, tournament: Tournament) -> list[GameResult]:
    """Read every paired game's public state: its status and, when over, its outcome."""
    from arbiter.core.player import load_state
    from arbiter.core.safeio import shown

    results = []
    for played in tournament.schedule:
        for table in played.tables:
            folder = root / table.folder
            path = folder / "public" / "state.json"
            if not path.exists():
                results.append(GameResult(played.round, table, "missing"))
                continue
            state = load_state(path)
            if state["game"] != table.game:
                raise Tampered(
                    f"{shown(folder)} holds game {state['game']!r}, not {table.game} as "
                    f"{shown(root / 'tournament.json')} records: put the right folder back"
                )
            outcome = state["outcome"] if state["status"] == "over" else None
            if outcome is not None and tournament.duplicate:
                from arbiter.tournament.duplicate import left_seats

                left = left_seats(folder, state)
                outcome = {**outcome, "left": left} if left else outcome
            results.append(_result(played.round, table, state["status"], outcome, folder))
    from arbiter.tournament.duplicate import score_rounds

    score_rounds(tournament, results)
    return results


def _result(
    round_number: int, table: Table, status: str, outcome: dict[str, Any] | None, folder: Path
) -> GameResult:
    from arbiter.core.safeio import shown

    result = GameResult(round_number, table, status, outcome)
    if outcome is not None:
        ranked = sorted(seat for group in outcome["ranking"] for seat in group)
        if ranked != sorted(table.seats):
            raise Tampered(
                f"{shown(folder)}: the outcome ranks {', '.join(ranked)}, not the table's "
                f"players {', '.join(sorted(table.seats))}: check the game folder"
            )
        result.points = game_points(outcome["ranking"])
    return result


def standings(
    tournament: Tournament,
    results: Sequence[GameResult],
    before: int | None = None,
    lot_seed: str | None = None,
) -> list[Row]:
    """Return the standings, best first (see the module's docstring); ``before``: as
    they stood before that round was paired (its byes and later ones left out).
    ``lot_seed``: the public seed the ``lot`` tie-break draws from (default: the id)."""
    from fractions import Fraction

    from arbiter.tournament import tiebreaks

    names = tournament.names
    points = dict.fromkeys(names, 0)
    score = dict.fromkeys(names, 0)
    games = dict.fromkeys(names, 0)
    byes = dict.fromkeys(names, 0)
    share = dict.fromkeys(names, Fraction(0))
    met: dict[str, list[str]] = {name: [] for name in names}
    for played in tournament.schedule:
        if before is not None and played.round >= before:
            continue
        for name in played.byes:
            byes[name] += 1
            points[name] += round_bye_points(tournament, played)
    scored = [result for result in results if result.scored]
    for result in scored:
        assert result.outcome is not None
        seats = result.table.seats
        for seat in seats:
            points[seat] += result.points[seat]
            score[seat] += int(result.outcome["scores"].get(seat, 0))
            games[seat] += 1
            by_place = game_points(result.outcome["ranking"])  # matchpoints or not
            share[seat] += Fraction(by_place[seat], 2 * (len(seats) - 1))
            met[seat].extend(other for other in seats if other != seat)
    opponents = {name: sum(points[other] for other in met[name]) for name in names}
    cut = {
        name: opponents[name] - min((points[o] for o in met[name]), default=0) for name in names
    }
    values: dict[str, dict[str, Any]] = {
        "opponents-points": opponents,
        "opponents-points-cut1": cut,
        "game-score": score,
        "place-points": share,
        "lot": {name: tiebreaks.lot(lot_seed or tournament.id, name) for name in names},
    }

    def head_to_head(group: list[str]) -> dict[str, int]:
        taken = dict.fromkeys(group, 0)
        for result in scored:
            assert result.outcome is not None
            place = {s: n for n, grp in enumerate(result.outcome["ranking"]) for s in grp}
            here = [s for s in result.table.seats if s in taken]
            for a in here:
                taken[a] += sum(2 if place[a] < place[b] else 1 if place[a] == place[b] else 0
                                for b in here if b != a)  # fmt: skip
        return taken

    order = list(tournament.tiebreaks)
    rows: list[Row] = []
    h2h: dict[str, int] = {}
    for place, name in tiebreaks.rank(names, points, order, values, head_to_head, h2h):
        shown = {}
        for criterion in order:
            if criterion == "head-to-head":
                # Only among players it had to separate; "-" for the others.
                shown[criterion] = str(h2h[name]) if name in h2h else "-"
            else:
                shown[criterion] = tiebreaks.shown(criterion, values[criterion][name])
        rows.append(
            Row(place, name, points[name], opponents[name], score[name], games[name],
                byes[name], shown)
        )  # fmt: skip
    return rows


def pairing_order(rows: Sequence[Row], tournament_id: str, round_number: int) -> list[str]:
    """The Swiss pairing order: the standings, with exact ties (equal points, opponents'
    points and score) broken by the round's sha256 order instead of by name."""
    return [
        row.name
        for row in sorted(
            rows, key=lambda r: (r.rank, tiebreak(tournament_id, round_number, r.name))
        )
    ]


def outcomes_by_game(results: Sequence[GameResult]) -> Mapping[str, GameResult]:
    return {result.table.game: result for result in results}
