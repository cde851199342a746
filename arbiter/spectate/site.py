"""The tournament's public site (``tournament report --site DIR``), as bytes.

``index.html`` (``site_index``: the standings with the tournament's tie-break columns,
then every round's tables: seats, status, result or the waiting seat and its deadline,
and a link to the game's replay), ``games/<game id>.html`` (``site_pages``: each game's
replay page, the one ``arbiter html`` writes, cut by ``delay`` while the game runs) and
``site.json`` (the same data for programs, and what regenerating needs). ``site_folder``
writes them.

What a page may hold: only what the spectator may see. Before a game's reveal its page
is the spectator's view, replayed from the referee's copy exactly as ``arbiter html``
replays it (the public state and log as they stood after each entry); after the reveal
every seat's view too, which anyone can then replay. Nothing is read from a seat's own
files, the organiser's folder, or a game's ``referee/`` beyond that replay.

Every byte is a function of the tournament folder and the referee's clock reading
``now`` (and of the arbiter release), so the same folder at the same ``ARBITER_NOW``
gives the same site: no path, no other clock.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arbiter.spectate.site_table import Table
from arbiter.tournament.folder import Tournament
from arbiter.tournament.standings import GameResult, Row

FORMAT = "arbiter.tournament-site/1"
INDEX, DATA, PAGES = "index.html", "site.json", "games"
NO_SEED = "no replay before the reveal in this copy: it has no referee/ folder"


def page_name(game: str) -> str:
    """A game's replay page, relative to the site folder."""
    return f"{PAGES}/{game}.html"


@dataclass
class Site:
    files: dict[str, bytes]
    """Path relative to the site folder → bytes; pages first, ``site.json`` last."""
    tables: list[Table]


DUPLICATE_HIDDEN = (
    "hidden until every table of its duplicate round is over: they play the same cards"
)


def build(
    root: Path,
    tournament: Tournament,
    rows: Sequence[Row],
    results: Sequence[GameResult],
    *,
    now: str,
    delay: int | None,
    previous: Mapping[str, Any] | None = None,
    out: Path | None = None,
) -> Site:
    """Build the whole site of the tournament in ``root`` at the referee's time ``now``.

    ``previous`` (the site.json already in ``out``) lets a page whose game has not moved
    since be reused from ``out`` instead of replayed again, when its bytes are intact.
    """
    from arbiter.core.gamedir import GameDir
    from arbiter.spectate import delay as delays
    from arbiter.spectate.live import snapshot
    from arbiter.spectate.site_index import index_page
    from arbiter.spectate.site_pages import page_key, replay_page, reusable, reused

    kept = reusable(previous)
    files: dict[str, bytes] = {}
    tables: list[Table] = []
    for result in results:
        game = root / result.table.folder
        if result.status == "missing":
            tables.append(Table(result, None))
            continue
        snap = snapshot(game)
        shown = delays.shown(snap.entries, snap.status == "over", now, delay)
        if tournament.duplicate and not result.counted:
            # The other tables of its group play the same cards (docs/duplicate.md): nothing
            # of it is shown, delay or not, until every table of the round is over.
            shown = replace(shown, upto=None, time=None, hash=None, note=DUPLICATE_HIDDEN)
        if not (snap.revealed or GameDir(game).secret.is_file()):
            # A published copy: only the referee's copy replays a game before its reveal.
            shown = replace(shown, upto=None, time=None, hash=None, note=NO_SEED)
        table = Table(result, snap, shown)
        if shown.upto is not None:
            table.page = page_name(result.table.game)
            key = page_key(result.table.game, shown, snap.revealed)
            data = reused(out, table.page, kept.get(table.page), key)
            if data is None:
                data = replay_page(game, shown.upto)
            files[table.page] = data
            table.built = {"key": key, "sha256": hashlib.sha256(data).hexdigest()}
        tables.append(table)
    files[INDEX] = index_page(tournament, rows, tables, now, delay).encode()
    files[DATA] = site_json(tournament, rows, tables, now, delay)
    return Site(files, tables)


# -- site.json -------------------------------------------------------------------------


def site_json(
    tournament: Tournament,
    rows: Sequence[Row],
    tables: Sequence[Table],
    now: str,
    delay: int | None,
) -> bytes:
    from arbiter.core.canonical import pretty
    from arbiter.spectate.delay import cutoff
    from arbiter.tournament.report import by_round, columns

    by_game = {t.result.table.game: t for t in tables}
    return pretty(
        {
            "format": FORMAT,
            "tournament": tournament.id,
            "now": now,
            "public_delay": delay,
            "shown_until": None if delay is None else cutoff(now, delay),
            "columns": columns(tournament.tiebreaks),
            "standings": [row.to_json() for row in rows],
            "rounds": [
                {
                    "round": number,
                    "byes": byes,
                    "tables": [_table_json(by_game[r.table.game]) for r in games],
                }
                for number, games, byes in by_round(tournament, [t.result for t in tables])
            ],
        }
    )


def _table_json(table: Table) -> dict[str, Any]:
    r, snap, shown = table.result, table.snapshot, table.shown
    over = r.status == "over"
    return {
        "table": r.table.table,
        "game": r.table.game,
        "seats": list(r.table.seats),
        "status": r.status,
        "outcome": r.outcome if over else None,
        "points": dict(r.points) if over else None,
        "waiting": [] if snap is None or over else list(snap.waiting),
        "deadline": None if snap is None or over else snap.deadline,
        "replay": {
            "page": table.page,
            "upto": None if shown is None else shown.upto,
            "time": None if shown is None else shown.time,
            "note": "not created yet" if shown is None else shown.note,
            "built": table.built or None,
        },
    }
