"""``arbiter git``: the referee's desk for a game played through a shared git repository."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from arbiter.cli.output import Output

app = typer.Typer(
    help="Play through a shared git repository: the referee's desk.",
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
