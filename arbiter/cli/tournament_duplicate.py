"""``arbiter tournament deal`` and ``arbiter tournament reveal``: the organiser's steps of
duplicate rounds (docs/duplicate.md), kept apart from ``arbiter/cli/tournament.py``.

``reveal`` serves every tournament: it reveals each game that is over, and a duplicate
game only once every table of its round is over.
"""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output

FOLDER = typer.Argument(
    ..., help="The tournament folder (private: it holds each game's secret).", metavar="T"
)
JSON = typer.Option(False, "--json", help="Print JSON.")


def register(app: typer.Typer) -> None:
    app.command("deal")(deal)
    app.command("reveal")(reveal)


def deal(root: Path = FOLDER, as_json: bool = JSON) -> None:
    """Deal each duplicate round whose tables have all joined (safe to run any time)."""
    from arbiter.cli.referee import now_utc
    from arbiter.tournament import duplicate, folder

    with folder.locked(root):
        done = duplicate.deal(root, now_utc())
    out = Output(as_json)
    if as_json:
        out.json({"dealt": done.dealt, "waiting": done.waiting})
        return
    if done.dealt:
        out.line(f"dealt {len(done.dealt)} game(s): {', '.join(done.dealt)}")
    for name, games in done.waiting.items():
        out.line(f"duplicate round {name} waits for joins in {', '.join(games)}")
    if not done.dealt and not done.waiting:
        out.line("nothing to deal: every duplicate game is dealt")


def reveal(root: Path = FOLDER, as_json: bool = JSON) -> None:
    """Reveal every game that is over (a duplicate game once its whole round is over)."""
    from arbiter.tournament import duplicate, folder

    with folder.locked(root):
        done = duplicate.reveal(root)
    out = Output(as_json)
    if as_json:
        out.json({"revealed": done.revealed, "waiting": done.waiting})
        return
    if done.revealed:
        out.line(f"revealed {len(done.revealed)} game(s): {', '.join(done.revealed)}")
    for game, why in done.waiting.items():
        out.line(f"{game}: not revealed, {why}")
    if not done.revealed and not done.waiting:
        out.line("nothing to reveal: every game is revealed")
