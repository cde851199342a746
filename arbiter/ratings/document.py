"""``ratings.json`` (format ``arbiter.ratings/1``, schemas/ratings.schema.json) and
``ratings.md``, and writing them.

The JSON is the same bytes for the same game folders given (whatever their order on the
command line): every list has a fixed order, no timing or host name is in it. ``--json``
prints exactly these bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arbiter.core.safeio import visible
from arbiter.ratings.facts import LeftOut
from arbiter.ratings.ladder import Ladder, published
from arbiter.ratings.plackett_luce import DISPLAY, NAME, Model

FORMAT = "arbiter.ratings/1"
JSON_NAME = "ratings.json"
MARKDOWN_NAME = "ratings.md"


def build(model: Model, ladder: Ladder, left: Sequence[LeftOut]) -> dict[str, Any]:
    """Return the ratings document (checked against its schema)."""
    from arbiter.core.schemas import validate

    prints = {player.key: player.fingerprint for player in ladder.players}
    doc = {
        "format": FORMAT,
        "model": {"name": NAME, "library": model.library, **model.parameters, "display": DISPLAY},
        "players": [
            {
                "rank": p.rank,
                "names": list(p.names),
                "fingerprint": p.fingerprint,
                "key": p.key,
                "games": p.games,
                "rating": p.shown,
                "mu": published(p.skill.mu),
                "sigma": published(p.skill.sigma),
            }
            for p in ladder.players
        ],
        "games": [
            {
                "game": step.game.game,
                "folder": step.game.folder,
                "time": step.game.time,
                "time_from": step.game.time_from,
                "seats": [
                    {
                        "seat": seated.seat,
                        "fingerprint": prints[seated.key],
                        "place": seated.place,
                        "mu": published(skill.mu),
                        "sigma": published(skill.sigma),
                    }
                    for seated, skill in zip(step.game.seats, step.after, strict=True)
                ],
            }
            for step in ladder.steps
        ],
        "left_out": [
            {"folder": g.folder, "game": g.game, "code": g.code, "reason": g.reason} for g in left
        ],
    }
    # What arbiter publishes fits its committed schema (a drift is a bug, caught here).
    validate("ratings", doc, JSON_NAME)
    return doc


def json_bytes(doc: dict[str, Any]) -> bytes:
    """The file's bytes; the same as ``Output.json`` prints for ``--json``."""
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()


def markdown(doc: dict[str, Any]) -> str:
    """Return ``ratings.md``: the model, the players, the games in order, those left out."""
    m = doc["model"]
    lines = [
        "# Ratings",
        "",
        f"Plackett–Luce model ({_md(m['library'])}; mu {_num(m['mu'])}, sigma "
        f"{_num(m['sigma'])}, beta {_num(m['beta'])}, tau {_num(m['tau'])}, kappa "
        f"{_num(m['kappa'])}), from {_count(len(doc['games']), 'verified game')}, rated "
        "in order of time, then game id. Players are ranked by rating = mu − 3·sigma, "
        "then by key fingerprint. See docs/ratings.md.",
        "",
        "| # | player | key | games | rating | mu | sigma |",
        "|---:|---|---|---:|---:|---:|---:|",
    ]
    for p in doc["players"]:
        lines.append(
            f"| {p['rank']} | {_md(', '.join(p['names']))} | `{p['fingerprint']}` | "
            f"{p['games']} | {_num(p['rating'])} | {_num(p['mu'])} | {_num(p['sigma'])} |"
        )
    lines += ["", "## Games rated, in order", ""]
    if doc["games"]:
        lines += ["| # | time | game | folder | places |", "|---:|---|---|---|---|"]
        for number, game in enumerate(doc["games"], 1):
            places = ", ".join(f"{s['seat']} {s['place']}" for s in game["seats"])
            lines.append(
                f"| {number} | {game['time'] or '–'} | {_md(game['game'])} | "
                f"{_md(game['folder'])} | {_md(places)} |"
            )
    else:
        lines.append("None.")
    lines += ["", "## Left out", ""]
    if doc["left_out"]:
        lines += ["| folder | game | reason |", "|---|---|---|"]
        for g in doc["left_out"]:
            lines.append(
                f"| {_md(g['folder'])} | {_md(g['game'] or '?')} | {_md(g['code'])}: "
                f"{_md(g['reason'])} |"
            )
    else:
        lines.append("None.")
    return "\n".join(lines) + "\n"


def write(folder: Path, doc: dict[str, Any]) -> list[Path]:
    """Write ``ratings.json`` and ``ratings.md`` into ``folder``, each atomically."""
    from arbiter.core.gamedir import atomic_write, fsync_dir

    written = []
    for name, data in (
        (JSON_NAME, json_bytes(doc)),
        (MARKDOWN_NAME, markdown(doc).encode()),
    ):
        path = folder / name
        atomic_write(path, data, sync_dir=False)
        written.append(path)
    fsync_dir(folder)  # once for both renames
    return written


def _num(value: float) -> str:
    return f"{value:.3f}" if abs(value) >= 0.001 or value == 0 else f"{value:g}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


_MARKDOWN_PUNCTUATION = set("\\`*_[]<>|#!~&")


def _md(text: str) -> str:
    """Untrusted text (folder names, reasons) as literal Markdown: control characters made
    visible, and every character Markdown or HTML could read escaped with a backslash
    (CommonMark lets any ASCII punctuation be escaped so)."""
    return "".join("\\" + c if c in _MARKDOWN_PUNCTUATION else c for c in visible(text))
