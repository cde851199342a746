"""The site's ``index.html``: the standings with the tournament's tie-break columns, then
every round's tables with their seats, status, result or the waiting seat's deadline,
and a link to each game's replay page.

One self-contained page like the report's ``standings.html`` (its style, its columns and
cells, ``arbiter.tournament.report``): no script, every text escaped, and a policy that
allows only its own inline style.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from arbiter.spectate.site_pages import with_csp
from arbiter.tournament.folder import Tournament
from arbiter.tournament.standings import Row, bye_points

if TYPE_CHECKING:
    from arbiter.spectate.site_table import Table

STYLE_MORE = """
p.when { color: #555; }
.note { color: #555; font-size: 0.9em; }
.overdue { color: #a00; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def clock_text(deadline: Mapping[str, Any]) -> str:
    """The waiting seat's clock in words (as ``arbiter status`` says it)."""
    seat, due, final, policy_ = (deadline[k] for k in ("seat", "due", "final", "policy"))
    if deadline["timeout_owed"]:
        return f"{seat} is overdue since {due} (grace ended {final}): {policy_} applies"
    if deadline["overdue"]:
        return f"{seat} is overdue since {due}, in the grace until {final}; then {policy_}"
    grace = f", grace until {final}" if final != due else ""
    return f"{seat} has until {due}{grace}; then {policy_}"


def _state_text(table: Table) -> str:
    from arbiter.tournament.report import result_text

    r, snap = table.result, table.snapshot
    if snap is None or r.over:
        return result_text(r)
    if snap.status == "joining":
        return "waiting for joins from: " + ", ".join(snap.waiting)
    if snap.deadline is not None:
        return clock_text(snap.deadline)
    return "waiting for " + ", ".join(snap.waiting) if snap.waiting else snap.status


def _replay_cell(table: Table) -> str:
    if table.shown is None:
        return '<td class="note">—</td>'
    note = _e(table.shown.note)
    if table.page is None:
        return f'<td class="note">{note}</td>'
    return f'<td><a href="{_e(table.page)}">replay</a><br><span class="note">{note}</span></td>'


def index_page(
    tournament: Tournament,
    rows: Sequence[Row],
    tables: Sequence[Table],
    now: str,
    delay: int | None,
) -> str:
    from arbiter.core.deadlines import describe_duration
    from arbiter.spectate.delay import cutoff
    from arbiter.tournament.report import STYLE, by_round, columns, row_cells, summary

    order = tournament.tiebreaks
    by_game = {t.result.table.game: t for t in tables}

    def cell(tag: str, i: int, text: str) -> str:
        numeric = ' class="n"' if i != 1 else ""  # every column but the name is a number
        return f"<{tag}{numeric}>{_e(text)}</{tag}>"

    head = "".join(cell("th", i, c) for i, c in enumerate(columns(order)))
    body = "\n".join(
        "<tr>" + "".join(cell("td", i, c) for i, c in enumerate(row_cells(row, order))) + "</tr>"
        for row in rows
    )
    if delay is None:
        when = f"As of {now} (UTC). Running games are shown live."
    else:
        when = (
            f"As of {now} (UTC). Running games are shown {describe_duration(delay)} behind: "
            f"entries up to {cutoff(now, delay)}; finished games whole."
        )
    style = STYLE + STYLE_MORE
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(tournament.id)}</title>",
        f"<style>{style}</style></head><body>",
        f"<h1>{_e(tournament.id)}</h1>",
        f"<p>{_e(summary(tournament))}</p>",
        f'<p class="when">{_e(when)}</p>',
        "<h2>Standings</h2>",
        f'<table id="standings"><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>',
    ]
    for number, games, byes in by_round(tournament, [t.result for t in tables]):
        parts.append(f'<h2 id="round-{number}">Round {number}</h2>')
        parts.append(
            f'<table class="round" data-round="{number}"><thead><tr><th class="n">table</th>'
            "<th>players (seat order)</th><th>status</th><th>result or clock</th>"
            "<th>replay</th></tr></thead><tbody>"
        )
        for r in games:
            table = by_game[r.table.game]
            overdue = table.snapshot is not None and bool(
                not r.over and table.snapshot.deadline and table.snapshot.deadline["overdue"]
            )
            state_class = ' class="overdue"' if overdue else ""
            status = "not created yet" if r.status == "missing" else r.status
            parts.append(
                f'<tr data-game="{_e(r.table.game)}"><td class="n">{r.table.table}</td>'
                f"<td>{_e(', '.join(r.table.seats))}</td><td>{_e(status)}</td>"
                f"<td{state_class}>{_e(_state_text(table))}</td>{_replay_cell(table)}</tr>"
            )
        parts.append("</tbody></table>")
        if byes:
            points = bye_points(tournament.table_size)
            parts.append("<p>Byes: " + ", ".join(f"{_e(n)} (+{points})" for n in byes) + "</p>")
    parts.append('<p class="when"><a href="site.json">site.json</a>: the same, for programs.</p>')
    parts.append("</body></html>")
    return with_csp("\n".join(parts) + "\n")
