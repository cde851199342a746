"""``arbiter git``: the referee's desk for a game played through a shared git repository."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from arbiter.cli.output import Output

app = typer.Typer(
    help="Play through a shared git repository: the referee's desk, and a verifier that "
    "reads the game from git's objects.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@app.command("run")
def run(
    repo: Path = typer.Argument(..., help="The referee's git clone.", metavar="REPO"),
    game: str = typer.Option(
        ..., "--game", "-g", help="The game folder's path inside the repository.", metavar="PATH"
    ),
    secret_dir: Path | None = typer.Option(
        None,
        "--secret-dir",
        envvar="ARBITER_SECRET_DIR",
        show_envvar=True,
        help="The referee's own game folder (made by `arbiter new --sealed`), kept outside "
        "the repository.",
        metavar="DIR",
    ),
    push: bool = typer.Option(False, "--push", help="Push the commits (never forced)."),
    once: bool = typer.Option(False, "--once", help="One round, then stop (for CI and cron)."),
    remote: str = typer.Option("origin", "--remote", help="The remote to fetch and push."),
    branch: str | None = typer.Option(
        None, "--branch", help="The branch (default: the clone's current branch)."
    ),
    interval: float = typer.Option(
        30.0, "--interval", help="Seconds between rounds without --once.", min=0.0
    ),
    author: str | None = typer.Option(
        None,
        "--author",
        help="'Name <email>' of the referee's commits (default: arbiter referee "
        "<referee@GAME.invalid>).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per round."),
) -> None:
    """Judge the inbox of a shared repository: one commit per accepted entry, then push."""
    from arbiter.core.errors import ArbiterError, UsageError
    from arbiter.desks.git.desk import GitDesk, Round, Settings

    if secret_dir is None:
        raise UsageError(
            "pass --secret-dir DIR (or set ARBITER_SECRET_DIR): the referee's own game folder"
        )
    out = Output(as_json)
    settings = Settings(repo, game, secret_dir, remote, branch, push, author, interval)

    def report(result: Round | None, error: ArbiterError | None) -> None:
        if error is not None:
            from arbiter.cli.output import error as print_error

            print_error(error)
            return
        assert result is not None
        if as_json:
            sys.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
            sys.stdout.flush()
            return
        _print_round(out, result, once, push)

    GitDesk(settings).run(once=once, report=report)


@app.command("verify")
def verify(
    repo: Path = typer.Argument(..., help="A clone of the game's repository.", metavar="REPO"),
    game: str = typer.Option(
        ..., "--game", "-g", help="The game folder's path inside the repository.", metavar="PATH"
    ),
    rev: str = typer.Option("HEAD", "--rev", help="The commit to check (a branch, tag or id)."),
    seat: str | None = typer.Option(
        None, "--seat", "-s", help="Also open this seat's sealed files (with --key)."
    ),
    key: Path | None = typer.Option(
        None, "--key", "-k", help="That seat's private key, which opens its sealed files."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Verify a game as the repository holds it: its files are read from git's objects,
    so no attribute or setting of the clone can change a byte (docs/sealing.md)."""
    from arbiter.core.errors import UsageError
    from arbiter.core.replay import SeatKey
    from arbiter.desks.git.desk import clean_game_path
    from arbiter.desks.git.export import verify_committed

    if (seat is None) != (key is None):
        raise UsageError("--seat and --key go together: give the seat and its private key")
    seat_key = SeatKey(seat, key) if seat is not None and key is not None else None
    commit, report = verify_committed(repo, clean_game_path(game), rev, seat_key)
    out = Output(as_json)
    if as_json:
        out.json(
            {
                "ok": True,
                "commit": commit,
                "game": report.game,
                "revealed": report.revealed,
                "replayed": report.replayed,
                "entries": report.entries,
                "status": report.status,
                "checks": report.checks,
            }
        )
        return
    for line in report.checks:
        out.line(f"ok  {line}")
    what = (
        "replayed and every published byte matches"
        if report.replayed
        else "public files consistent"
    )
    out.line(f"verified game {report.game} at commit {commit[:12]}: {what}")


def _print_round(out: Output, result: Any, once: bool, push: bool) -> None:
    for handled in result.files:
        out.line(f"{handled.file}: {handled.line}")
    if result.opening:
        out.line(result.opening)
    if result.pushed:
        count = len(result.commits)
        tries = f" after {result.retries} refused push(es)" if result.retries else ""
        out.line(f"pushed {count} commit(s){tries}: {result.pushed[:12]}")
    elif result.commits:
        out.line(f"committed {len(result.commits)} commit(s), not pushed (pass --push)")
    elif once:
        out.line("nothing to do: the inbox is empty and the repository is up to date")
    sys.stdout.flush()


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="git")
