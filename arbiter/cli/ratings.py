"""``arbiter ratings DIR...``: skill ratings of the players of verified games.

Finding the game folders is ``arbiter verify``'s (``arbiter.archive.folders``); which
games count, their order, the model and the files are ``arbiter.ratings``'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from arbiter.cli.output import Output


def ratings(
    folders: list[Path] = typer.Argument(
        ...,
        help="Game folders, or folders holding game folders (searched below).",
        metavar="DIR",
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        help="Write ratings.json and ratings.md into this folder (made if missing).",
        metavar="DIR",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print ratings.json's content."),
) -> None:
    """Rate the players of verified games (OpenSkill's Plackett–Luce; docs/ratings.md).

    Only games replayed byte for byte after their reveal, over and with a result, count;
    the others are listed with the reason. Players are their keys; games are rated in
    order of their last entry's time, then game id. Needs pip install 'arbiter[ratings]'.
    """
    from arbiter.archive.folders import find
    from arbiter.core.errors import UsageError
    from arbiter.ratings import document, games, ladder
    from arbiter.ratings.plackett_luce import Model

    model = Model()  # first: without the library, nothing is read or written
    if out is not None and out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is not a folder: give the folder to write the files into")
    found = find(folders)
    rated, left = games.collect([(game.name, game.path) for game in found])
    doc = document.build(model, ladder.rate(model, rated), left)
    output = Output(as_json)
    if as_json:
        output.json(doc)
    else:
        _render(output, doc)
    if out is not None:
        written = document.write(out, doc)
        output.line("wrote " + " and ".join(str(path) for path in written))


def _render(out: Output, doc: dict[str, Any]) -> None:
    """The players' table, then the games left out with their reasons, then one line."""
    rows = [
        [
            str(p["rank"]),
            ", ".join(p["names"]),
            p["fingerprint"],
            str(p["games"]),
            f"{p['rating']:.3f}",
            f"{p['mu']:.3f}",
            f"{p['sigma']:.3f}",
        ]
        for p in doc["players"]
    ]
    columns = ["#", "player", "key", "games", "rating", "mu", "sigma"]
    out.table("arbiter ratings (rating = mu − 3·sigma)", columns, rows)
    left = doc["left_out"]
    if left:
        out.table(
            "left out",
            ["folder", "game", "why"],
            [[g["folder"], g["game"] or "?", f"{g['code']}: {g['reason']}"] for g in left],
        )
    m = doc["model"]
    out.line(
        f"rated {len(doc['games'])} games ({len(left)} left out) with {m['library']}'s "
        f"Plackett–Luce model (mu {m['mu']:g}, sigma {m['sigma']:.4g}, beta {m['beta']:.4g}, "
        f"tau {m['tau']:.4g}, kappa {m['kappa']:g})"
    )


def register(app: typer.Typer) -> None:
    app.command("ratings")(ratings)
