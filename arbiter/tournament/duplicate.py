"""Duplicate rounds (docs/duplicate.md): the tables of a round with the same number of seats
form a group that plays one deal, and players are scored by matchpoints against the
players who sat in their position at the group's other tables.

- At pairing, the round draws a secret, kept in ``T/organiser/deals/<tournament>-r<R>``;
  its commitment goes into every game.json of the round and into the round's record line.
- ``deal``: once every seat of every game of the round has joined, each game gets the
  referee's ``deal`` entry (arbiter.core.deal), which mixes every join of the round; the
  group id keeps the deals of tables of different sizes apart.
- ``reveal``: a game is revealed, with the round's secret, only when every game of its
  round is over; games of other tournaments are revealed as they end.
- Matchpoints: at each seat position, 2 for each other table of the group where the
  player in that position scored less, 1 for each where they scored the same. A player
  who left their game (resigned, or forfeited on a timeout) counts as scoring below
  every player who did not. A round's games count once every one of them is over.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError, Tampered
from arbiter.tournament.folder import Deal, Round, Tournament

DEALS = "deals"
"""``T/organiser/deals/<group>``: each group's secret, hex (never published before the reveal)."""


def group_id(tournament_id: str, round_number: int, seats: int) -> str:
    return f"{tournament_id}-r{round_number}-s{seats}"


def round_secret_id(tournament_id: str, round_number: int) -> str:
    return f"{tournament_id}-r{round_number}"


def secret_path(root: Path, name: str) -> Path:
    """``T/organiser/deals/<tournament>-r<R>``: the round's secret."""
    from arbiter.tournament.record import ORGANISER

    return root / ORGANISER / DEALS / name


def groups_of(tables: Sequence[Any]) -> list[tuple[int, list[str]]]:
    """A round's duplicate groups: (seats, game ids in table order) per table size, in
    the order the sizes first appear."""
    out: list[tuple[int, list[str]]] = []
    for table in tables:
        size = len(table.seats)
        found = next((games for n, games in out if n == size), None)
        if found is None:
            out.append((size, [table.game]))
        else:
            found.append(table.game)
    return out


def make_deals(
    root: Path, tournament: Tournament, played: Round, seed: bytes | None
) -> list[Deal]:
    """Draw the round's secret (written before the round is saved: a commitment is never
    recorded without its secret) and return one group per table size, each committed to
    it: every group's deal seed mixes every join of the round (docs/duplicate.md)."""
    from arbiter.core.gamedir import atomic_write
    from arbiter.core.referee import fresh_secret
    from arbiter.core.rng import commitment

    name = round_secret_id(tournament.id, played.round)
    if seed is None:
        secret = fresh_secret()
    else:  # reproducible tests and demos
        secret = hashlib.sha256(b"arbiter-tournament/1\x00" + seed + f"\x00{name}\x00deal".encode()).digest()
    path = secret_path(root, name)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    atomic_write(path, secret.hex().encode() + b"\n")
    return [
        Deal(group=group_id(tournament.id, played.round, size), seats=size,
             commitment=commitment(secret), games=games)
        for size, games in groups_of(played.tables)
    ]  # fmt: skip


def deal_terms(played: Round, group: Deal) -> dict[str, Any]:
    """A duplicate table's ``deal`` terms in game.json: its group, the round's commitment,
    and every game of the round in table order (whose joins all enter the deal seed)."""
    return {
        "group": group.group,
        "commitment": group.commitment,
        "games": [table.game for table in played.tables],
    }


def read_secret(root: Path, tournament_id: str, played: Round) -> bytes:
    """The round's secret, checked against the commitment the round records."""
    from arbiter.core.rng import commitment
    from arbiter.core.safeio import shown

    deal = played.deals[0]
    path = secret_path(root, round_secret_id(tournament_id, played.round))
    try:
        secret = bytes.fromhex(path.read_text().strip())
    except (OSError, ValueError):
        raise Tampered(
            f"{shown(path)} is missing or damaged: only the organiser's folder can create, "
            "deal or reveal duplicate games"
        ) from None
    if commitment(secret) != deal.commitment:
        raise Tampered(f"{shown(path)} does not match the commitment the round records")
    return secret


def group_of(played: Round, game: str) -> Deal | None:
    return next((d for d in played.deals if game in d.games), None)


# -- dealing --------------------------------------------------------------------------


@dataclass
class Dealt:
    """What ``deal`` did: the games it dealt, and the rounds still waiting for joins."""

    dealt: list[str] = field(default_factory=list)
    waiting: dict[str, list[str]] = field(default_factory=dict)
    """Round (``<tournament>-r<R>``) -> its games that still wait for a join."""


def deal(root: Path, now: str | None = None) -> Dealt:
    """Deal every duplicate round whose games have all their joins (safe to run at any
    time, e.g. from cron: a game already dealt is left alone)."""
    from arbiter.core.referee import deal_ready, deal_slot
    from arbiter.tournament import folder

    tournament = folder.load(root)
    out = Dealt()
    for played in tournament.schedule:
        paths = {t.game: root / t.folder for t in played.tables}
        joining = [game for game, path in paths.items() if status_of(path) == "joining"]
        if not played.deals or not joining:
            continue  # not duplicate, or dealt already: no game of it is replayed
        dealt = {path for path, _ in deal_ready(paths, now)}
        out.dealt += [game for game, path in paths.items() if path in dealt]
        missing = [game for game in joining if paths[game] not in dealt and deal_slot(paths[game]) is None]
        if missing:
            out.waiting[round_secret_id(tournament.id, played.round)] = missing
    return out


def status_of(game: Path) -> str:
    """A game's status from its public state (``missing`` when it has none)."""
    from arbiter.core.player import load_state

    path = game / "public" / "state.json"
    return str(load_state(path)["status"]) if path.is_file() else "missing"


# -- reveal ---------------------------------------------------------------------------


@dataclass
class Revealed:
    revealed: list[str] = field(default_factory=list)
    waiting: dict[str, str] = field(default_factory=dict)
    """Game -> why it is not revealed yet."""


def reveal(root: Path) -> Revealed:
    """Reveal every game that is over and not yet revealed; a duplicate game only once
    every game of its round is over (the round's secret goes with it)."""
    from arbiter.core.referee import reveal as reveal_game
    from arbiter.tournament import folder

    tournament = folder.load(root)
    out = Revealed()
    for played in tournament.schedule:
        status = {table.game: status_of(root / table.folder) for table in played.tables}
        for table in played.tables:
            game = root / table.folder
            if (game / "reveal" / "reveal.json").exists():
                continue
            if status[table.game] != "over":
                out.waiting[table.game] = f"not over ({status[table.game]})"
                continue
            if played.deals:
                open_ = [g for g, said in status.items() if said != "over"]
                if open_:
                    name = round_secret_id(tournament.id, played.round)
                    out.waiting[table.game] = f"duplicate round {name} waits for {', '.join(open_)}"
                    continue
            reveal_game(game, group_over=bool(played.deals))
            out.revealed.append(table.game)
    return out


# -- matchpoints ----------------------------------------------------------------------


def score_rounds(tournament: Tournament, results: Sequence[Any]) -> None:
    """Replace each duplicate game's points by its players' matchpoints (in place).

    A round counts once every game of it is over (its secret is revealed then); until
    then its games count as not played (``counted`` false). A group of a single table has
    nobody to be compared with: its players get the average, as a bye does."""
    if not tournament.duplicate:
        return
    by_game = {result.table.game: result for result in results}
    for played in tournament.schedule:
        average = bye_points(played)
        round_games = [by_game.get(t.game) for t in played.tables]
        if played.deals and not all(r is not None and r.over for r in round_games):
            for result in round_games:
                if result is not None:
                    result.counted = False
            continue
        for group in played.deals:
            mine = [by_game[g] for g in group.games]
            scored = [r for r in mine if r.outcome is not None]
            for result in scored:
                result.points = dict.fromkeys(result.table.seats, 0)
            if len(scored) == 1:
                scored[0].points = dict.fromkeys(scored[0].table.seats, average)
                continue
            for position in range(group.seats):
                values = [_value(r, r.table.seats[position]) for r in scored]
                for index, result in enumerate(scored):
                    mine_value = values[index]
                    result.points[result.table.seats[position]] = sum(
                        2 if mine_value > other else 1 if mine_value == other else 0
                        for k, other in enumerate(values)
                        if k != index
                    )


def _value(result: Any, seat: str) -> tuple[int, int]:
    """What matchpoints compare: not having left the game first, then the game score."""
    outcome = result.outcome
    left = seat in outcome.get("left", ())
    return (0 if left else 1, int(outcome["scores"].get(seat, 0)))


def bye_points(played: Round) -> int:
    """A bye (or a lone table) in a duplicate round: the average matchpoints of the
    round's largest group, one less than its tables (a tie with every other table)."""
    largest = max((len(d.games) for d in played.deals), default=1)
    return largest - 1


def left_seats(game: Path, state: dict[str, Any]) -> list[str]:
    """The seats that left a finished game: those that resigned, and one that forfeited
    on a timeout (the public chain's last entry says so)."""
    from arbiter.core.chain import iter_chain
    from arbiter.core.gamedir import GameDir
    from arbiter.core.ledger import load_manifest

    left = list(state.get("resigned") or [])
    try:
        gd = GameDir(game)
        _, manifest_digest, _ = load_manifest(gd)
        last = None
        for entry in iter_chain(gd.chain, manifest_digest):
            last = entry
    except ArbiterError:
        return left
    if (
        last is not None
        and last["kind"] == "timeout"
        and any("forfeits: the game ends" in line for line in last["summary"])
        and last["seat"] not in left
    ):
        left.append(last["seat"])
    return left
