"""``tournament report``: the standings and every round's games, as Markdown and HTML.

Both files link each game to its public log with a relative link, so the report works
wherever the tournament folder (without the games' ``referee/`` folders) is published.
The HTML is one self-contained page: inline style, no script, no external resource,
every text escaped.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from arbiter.tournament.folder import Tournament
from arbiter.tournament.standings import GameResult, Row, bye_points

COLUMNS = ("rank", "player", "points", "opponents' points", "game score", "games", "byes")
"""The columns with the default tie-breaks (``columns`` gives a tournament's own)."""


def columns(order: Sequence[str]) -> list[str]:
    """The standings' columns: rank, player, points, each tie-break in order, games, byes."""
    from arbiter.tournament.tiebreaks import TITLES

    return ["rank", "player", "points", *(TITLES[t] for t in order), "games", "byes"]


@dataclass
class Written:
    markdown: Path
    html: Path
    json: Path


NAMES = ("standings.md", "standings.html", "standings.json")
"""The published standings files, each recomputed and compared by ``tournament verify``."""


def write(
    root: Path,
    tournament: Tournament,
    rows: Sequence[Row],
    results: Sequence[GameResult],
    out: Path,
) -> Written:
    """Write ``out/standings.md`` and ``out/standings.html`` atomically.

    Under the tournament's lock, which also lets it remove what a crashed report left.
    """
    from arbiter.core.gamedir import atomic_write, remove_temporaries_of
    from arbiter.tournament import folder

    out.mkdir(parents=True, exist_ok=True)
    files = render(root, tournament, rows, results, out)
    with folder.locked(root):
        for name, data in files.items():
            remove_temporaries_of(out / name)
            atomic_write(out / name, data, mode=0o644)
    return Written(*(out / name for name in NAMES))


def render(
    root: Path,
    tournament: Tournament,
    rows: Sequence[Row],
    results: Sequence[GameResult],
    out: Path,
) -> dict[str, bytes]:
    """The bytes of each standings file as written into ``out`` (links are relative)."""
    links = {r.table.game: _link(root / r.table.folder / "public" / "log.md", out) for r in results}
    return {
        "standings.md": markdown(tournament, rows, results, links).encode(),
        "standings.html": html_page(tournament, rows, results, links).encode(),
        "standings.json": standings_json(tournament, rows, results),
    }


def standings_json(
    tournament: Tournament, rows: Sequence[Row], results: Sequence[GameResult]
) -> bytes:
    """What ``tournament standings --json`` prints, as a file."""
    from arbiter.core.canonical import pretty

    return pretty(
        {
            "tournament": tournament.id,
            "rounds": tournament.rounds,
            "paired": len(tournament.schedule),
            "games": len(results),
            "over": sum(1 for r in results if r.over),
            "standings": [row.to_json() for row in rows],
        }
    )


def _link(target: Path, out: Path) -> str:
    relative = os.path.relpath(target.resolve(), out.resolve())
    return "/".join(quote(part) for part in Path(relative).parts)


def summary(tournament: Tournament) -> str:
    from arbiter.core import registry

    try:
        title = registry.get(tournament.engine).info.title
    except Exception:  # an engine not installed here: the report still names it
        title = tournament.engine
    options = ", ".join(f"{k}={v}" for k, v in sorted(tournament.options.items()))
    return (
        f"{title}{f' ({options})' if options else ''}, {tournament.pairing}, "
        f"{len(tournament.schedule)} of {tournament.rounds} rounds paired, "
        f"tables of {tournament.table_size}, {len(tournament.players)} players. "
        + _points_rule(tournament)
        + f" Tie-breaks: {_order(tournament)}."
    )


def _points_rule(tournament: Tournament) -> str:
    if tournament.duplicate:
        return (
            "Duplicate deals, matchpoints: at your seat position, 2 for each other table of "
            "your group where that player scored less, 1 for each tie; a bye scores the "
            "average (docs/duplicate.md)."
        )
    return (
        "Points: 2 for each opponent at the table you finish ahead of, 1 for each you tie "
        f"with; a bye scores {bye_points(tournament.table_size)}."
    )


def _order(tournament: Tournament) -> str:
    from arbiter.tournament.tiebreaks import TITLES

    names = [TITLES[t] for t in tournament.tiebreaks]
    if not names:
        return "none (players equal on points share a rank)"
    return names[0] if len(names) == 1 else ", then ".join(names)


def row_cells(row: Row, order: Sequence[str] | None = None) -> list[str]:
    """A row's cells under ``columns(order)`` (default: the default tie-breaks)."""
    if order is None:
        return [str(row.rank), row.name, str(row.points), str(row.opponents), str(row.score),
                str(row.games), str(row.byes)]  # fmt: skip
    cells = [row.tiebreaks[t] for t in order]
    return [str(row.rank), row.name, str(row.points), *cells, str(row.games), str(row.byes)]


def result_text(result: GameResult) -> str:
    """``1. alice 10 (+4), 2. carol 8 (+2), 3. bob 5 (+0)``, or the game's status."""
    if not result.over:
        return {"missing": "not created yet"}.get(result.status, result.status)
    if result.outcome is None:
        return "abandoned by agreement: no result"
    assert result.outcome is not None
    parts, place = [], 1
    for group in result.outcome["ranking"]:
        for seat in group:
            score = result.outcome["scores"].get(seat, 0)
            parts.append(f"{place}. {seat} {score} (+{result.points[seat]})")
        place += len(group)
    return ", ".join(parts)


def by_round(
    tournament: Tournament, results: Sequence[GameResult]
) -> list[tuple[int, list[GameResult], list[str]]]:
    """Each paired round: its number, its games' results and its byes (the site too)."""
    return [
        (played.round, [r for r in results if r.round == played.round], list(played.byes))
        for played in tournament.schedule
    ]


# -- Markdown ------------------------------------------------------------------------


def _md(text: str) -> str:
    """Escape text for a Markdown table cell."""
    out = html.escape(" ".join(text.split()), quote=False)
    return "".join("\\" + char if char in "\\`*_[]|#" else char for char in out)


def markdown(
    tournament: Tournament,
    rows: Sequence[Row],
    results: Sequence[GameResult],
    links: dict[str, str],
) -> str:
    lines = [f"# {_md(tournament.id)}: standings", "", _md(summary(tournament)), ""]
    lines += [
        "| " + " | ".join(columns(tournament.tiebreaks)) + " |",
        "|" + "|".join(["---:", "---"] + ["---:"] * (len(tournament.tiebreaks) + 3)) + "|",
    ]
    lines += [
        "| " + " | ".join(_md(cell) for cell in row_cells(row, tournament.tiebreaks)) + " |"
        for row in rows
    ]
    for number, games, byes in by_round(tournament, results):
        lines += ["", f"## Round {number}", ""]
        lines += [
            "| table | game | players (seat order) | result | log |",
            "|---:|---|---|---|---|",
        ]
        for r in games:
            lines.append(
                f"| {r.table.table} | {_md(r.table.game)} | {_md(', '.join(r.table.seats))} | "
                f"{_md(result_text(r))} | [log]({links[r.table.game]}) |"
            )
        if byes:
            points = bye_points(tournament.table_size)
            lines += ["", "Byes: " + ", ".join(f"{_md(name)} (+{points})" for name in byes)]
    return "\n".join(lines) + "\n"


# -- HTML ----------------------------------------------------------------------------

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: 0.3em 0.6em; text-align: left; }
td.n, th.n { text-align: right; }
caption { text-align: left; font-weight: bold; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def html_page(
    tournament: Tournament,
    rows: Sequence[Row],
    results: Sequence[GameResult],
    links: dict[str, str],
) -> str:
    def cell(tag: str, i: int, text: str) -> str:
        numeric = ' class="n"' if i != 1 else ""  # every column but the name is a number
        return f"<{tag}{numeric}>{_e(text)}</{tag}>"

    head = "".join(cell("th", i, c) for i, c in enumerate(columns(tournament.tiebreaks)))
    body = "\n".join(
        "<tr>"
        + "".join(cell("td", i, c) for i, c in enumerate(row_cells(row, tournament.tiebreaks)))
        + "</tr>"
        for row in rows
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(tournament.id)}: standings</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{_e(tournament.id)}: standings</h1>",
        f"<p>{_e(summary(tournament))}</p>",
        f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>",
    ]
    for number, games, byes in by_round(tournament, results):
        parts.append(f"<h2>Round {number}</h2>")
        parts.append(
            '<table><thead><tr><th class="n">table</th><th>game</th>'
            "<th>players (seat order)</th><th>result</th><th>log</th></tr></thead><tbody>"
        )
        for r in games:
            parts.append(
                f'<tr><td class="n">{r.table.table}</td><td>{_e(r.table.game)}</td>'
                f"<td>{_e(', '.join(r.table.seats))}</td><td>{_e(result_text(r))}</td>"
                f'<td><a href="{_e(links[r.table.game])}">log</a></td></tr>'
            )
        parts.append("</tbody></table>")
        if byes:
            points = bye_points(tournament.table_size)
            parts.append("<p>Byes: " + ", ".join(f"{_e(n)} (+{points})" for n in byes) + "</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
