"""Drops and late entries (issue 28 item 4, docs/tournaments.md "Drops and late entries").

``tournament drop T NAME``: the player is not paired from the next round on; the games
they finished still count (for them and for their opponents' tie-breaks), and they stay
in the standings. ``tournament enter T NAME KEY [--round R]``: a new player is paired from
round R (default: the next round), in a Swiss tournament only — a round-robin's schedule
is fixed by its field; the rounds they missed score nothing. Each is a line of the signed
record (``drop``, ``enter``), written under the tournament's lock before anything else,
so ``tournament verify`` sees every change of the field with the round it takes effect.
"""

from __future__ import annotations

from pathlib import Path

from arbiter.core.errors import UsageError
from arbiter.tournament import folder, record
from arbiter.tournament.folder import Entrant, Tournament


def _open(root: Path) -> Tournament:
    tournament = folder.load(root)
    if not tournament.recorded:
        raise UsageError(
            "a format-1 tournament has no signed record: its field cannot change (make a "
            "new tournament with this arbiter)"
        )
    if tournament.finished:
        raise UsageError("the tournament is finished: its field no longer changes")
    return tournament


def drop(root: Path, name: str, time: str) -> tuple[Tournament, int]:
    """Drop ``name`` from the next round on; return the tournament and that round."""
    from arbiter.tournament.create import allowed_sizes

    with folder.locked(root):
        tournament = _open(root)
        found = next((p for p in tournament.players if p.name == name), None)
        if found is None:
            raise UsageError(f"no player {name!r} in the tournament: see `tournament standings`")
        if found.dropped is not None:
            raise UsageError(f"{name} already dropped from round {found.dropped}")
        start = len(tournament.schedule) + 1
        if start > tournament.rounds:
            raise UsageError(
                f"every round is paired: there is no round left to drop {name} from "
                "(the last round's games are played out, or forfeited by timeout)"
            )
        left = [p for p in tournament.players if p.name != name and p.plays_in(start)]
        sizes = allowed_sizes(tournament.engine, tournament.options, tournament.table_size)
        if len(left) < min(sizes):
            raise UsageError(
                f"without {name} only {len(left)} players remain, too few for a table: "
                "finish the tournament instead"
            )
        body = {"name": name, "from_round": start}
        record.append(root, tournament.id, "drop", body, time, record.organiser_key(root))
        players = [
            p.model_copy(update={"dropped": start}) if p.name == name else p
            for p in tournament.players
        ]
        tournament = tournament.model_copy(update={"players": players})
        folder.save(root, tournament)
        return tournament, start


def enter(
    root: Path, name: str, key: str, comment: str, round_number: int | None, time: str
) -> tuple[Tournament, int]:
    """Enter a new player from ``round_number`` (default: the next round)."""
    from arbiter.tournament.players import parse

    with folder.locked(root):
        tournament = _open(root)
        if tournament.pairing != "swiss":
            raise UsageError(
                "a round-robin's schedule is fixed by its field: late entries are for Swiss "
                "tournaments"
            )
        # The players file's own checks: a seat id, a key arbiter can verify.
        player = parse(f"{name} {key} {comment}".strip(), "the new player")[0]
        if any(p.name == player.name for p in tournament.players):
            raise UsageError(f"{player.name} is already a player: choose another name")
        if any(p.key == player.key for p in tournament.players):
            raise UsageError("that key is already a player's: each player needs their own key")
        start = len(tournament.schedule) + 1 if round_number is None else round_number
        if start <= len(tournament.schedule):
            raise UsageError(
                f"round {start} is already paired: enter the player from round "
                f"{len(tournament.schedule) + 1} or later"
            )
        if start > tournament.rounds:
            raise UsageError(f"the tournament has {tournament.rounds} rounds: no round {start}")
        if start == 1:
            raise UsageError(
                "round 1 is not paired yet: a player for round 1 belongs in the players "
                "file (make the tournament again)"
            )
        entrant = Entrant(name=player.name, key=player.key, comment=player.comment, entered=start)
        body = {**entrant.model_dump(), "from_round": start}
        body.pop("entered")
        body.pop("dropped")
        record.append(root, tournament.id, "enter", body, time, record.organiser_key(root))
        tournament = tournament.model_copy(update={"players": [*tournament.players, entrant]})
        folder.save(root, tournament)
        return tournament, start
