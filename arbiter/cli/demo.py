"""``arbiter demo``: bots play a whole game through the real referee path, then verify it."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from arbiter.cli.output import Output

DEMO_CREATED = "2026-01-01T00:00:00Z"
"""The creation time of every demo game: the same seed plays the same game."""


def demo(
    folder: Path | None = typer.Argument(
        None,
        help="Folder to create (keys, game, moves); default ./demo-game, -2, -3, …",
        metavar="FOLDER",
    ),
    game: str | None = typer.Option(
        None, "--game", "-g", help="Engine (default: Mottainai when installed)."
    ),
    players: int | None = typer.Option(None, "--players", "-n", help="Number of bot players."),
    seed: str | None = typer.Option(
        None, "--seed", help="Replay the same demo game with the same seed."
    ),
    bots: str | None = typer.Option(
        None,
        "--bots",
        help="Bot levels by seat, e.g. random,greedy,search (the last repeats; default: "
        "random bots). Each decides from its own state file, as arbiter bot does.",
    ),
    option: list[str] = typer.Option(
        [], "--option", "-o", help="Engine option K=V (repeatable), as for arbiter new."
    ),
) -> None:
    """Let bots play a whole game through signed files, reveal it and verify it."""
    from arbiter.bots.selfplay import play
    from arbiter.cli.referee import _pairs
    from arbiter.core import registry
    from arbiter.core.errors import NotReady, UsageError
    from arbiter.core.replay import verify
    from arbiter.viewer.page import build as build_page

    out = Output()
    name = game or registry.demo_default()
    if name is None:
        raise NotReady("no game engine is installed: nothing to demonstrate")
    info = registry.get(name).info
    count = players if players is not None else info.min_seats
    if not info.min_seats <= count <= info.max_seats:
        raise UsageError(
            f"{info.name} seats {info.min_seats}–{info.max_seats} players, not {count}"
        )
    levels = _levels(bots, count)
    options = dict(_pairs(option, "--option"))
    if folder is None:
        folder = Path("demo-game")
        number = 1
        while folder.exists():
            number += 1
            folder = Path(f"demo-game-{number}")
    if folder.exists() and any(folder.iterdir()):
        raise UsageError(f"{folder} already exists and is not empty: pass another folder")
    seed = seed if seed is not None else os.urandom(8).hex()
    who = f"{count} random bots" if levels is None else f"bots ({', '.join(levels)})"
    out.line(f"demo: {who} play {info.title} (engine {info.name} {info.version}), seed {seed}")
    from rich.progress import Progress, SpinnerColumn, TextColumn

    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), console=out.console, transient=True
    ) as bar:
        task = bar.add_task("playing…", total=None)
        run = play(
            folder,
            name,
            count,
            seed,
            # Not the clock: game.json's digest feeds every join's entropy, so the date must
            # follow from the seed too, or "same game again" would deal another game.
            created=DEMO_CREATED,
            progress=lambda n: bar.update(task, description=f"playing… {n} decisions"),
            levels=levels,
            options=options,
        )
    report = verify(run.game)
    replay_page = folder / "replay.html"
    from arbiter.core.gamedir import atomic_write

    atomic_write(replay_page, build_page(run.game).data)  # whole or not at all
    out.line(
        f"played {run.decisions} decisions in {run.files} signed files; game {run.status}; "
        f"winner(s): {', '.join(run.winners) or '—'}"
    )
    out.line(
        f"revealed and verified: {report.entries} chain entries replayed, every published byte matches"
    )
    out.line("")
    out.line("where to look:")
    out.line(f"  watch a replay  {replay_page} (open it in a browser: step through every entry)")
    out.line(f"  public log      {run.game / 'public' / 'log.md'}")
    out.line(f"  a player's log  {run.game / 'players' / run.seats[0] / 'log.md'}")
    out.line(f"  signed moves    {run.moves}/")
    out.line(f"  receipts        {run.game / 'referee' / 'receipts'}/ (the referee's, one per file)")
    out.line(f"  a player's view arbiter show {run.game / 'players' / run.seats[0] / 'state.json'}")
    out.line("how to check it yourself:")
    out.line(f"  arbiter verify {run.game}")
    out.line(f"  arbiter verify {run.game} --receipt {run.game / 'referee' / 'receipts' / '1.json'}")
    again = "" if bots is None else f" --bots {bots}"
    again += "".join(f" --option {o}" for o in option)
    out.line(
        f"  arbiter demo OTHER-FOLDER --game {name} --players {count} --seed {seed}{again}"
        "   # same game again"
    )


def _levels(bots: str | None, count: int) -> list[str] | None:
    """Return one level per seat from ``--bots`` (the last level fills the other seats)."""
    from arbiter.bots.levels import LEVELS
    from arbiter.core.errors import UsageError

    if bots is None:
        return None
    given = [b.strip() for b in bots.split(",")]
    bad = [b for b in given if b not in LEVELS]
    if bad or not given:
        raise UsageError(f"--bots takes levels {', '.join(LEVELS)} separated by commas, not {bots!r}")
    if len(given) > count:
        raise UsageError(f"--bots names {len(given)} levels for {count} seats: pass --players")
    return given + [given[-1]] * (count - len(given))


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
