"""The ``arbiter`` command: assemble the command groups and map errors to exit codes."""

from __future__ import annotations

import os
import sys

import typer

from arbiter.cli import bot, demo, git, inspect, keys, mail, player, referee, replay, tournament
from arbiter.cli import html as replay_page
from arbiter.core.errors import ArbiterError

HELP = "Referee board games played by signed JSON move files; anyone can verify the result."

# Shell completion costs next to nothing at start-up: Typer imports its completion code
# whether or not the options exist (measured: docs/design-notes.md, "Shell completion").
app = typer.Typer(
    name="arbiter",
    help=HELP,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
)


def versions() -> list[str]:
    """Return the release, then each installed engine's name and version (what an archive
    must name to be replayed: docs/tournaments.md, "Archives")."""
    from arbiter import __version__
    from arbiter.core import registry

    lines = [f"arbiter {__version__}"]
    for name in registry.names():
        try:
            info = registry.get(name).info
        except Exception as exc:  # a broken plug-in must not hide the others
            lines.append(f"  {name}: cannot be loaded ({type(exc).__name__})")
            continue
        lines.append(f"  {info.name} {info.version}")
    return lines


def _print_version(value: bool) -> None:
    if value:
        from arbiter.cli.output import Output

        for line in versions():
            Output().line(line)
        raise typer.Exit()


@app.callback(help=HELP)
def main(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="Print the release and each game engine's version, then exit.",
    ),
) -> None:
    """Referee board games (the command groups are registered below)."""

for group in (keys, referee, player, bot, inspect, replay, demo, mail, git, tournament):
    group.register(app)
replay_page.register(app)  # arbiter html


def run(argv: list[str] | None = None) -> None:
    """Run the CLI; exit with the documented code of any domain error."""
    from arbiter.cli.output import error, interrupted, os_error

    try:
        app(args=argv, prog_name="arbiter")
    except ArbiterError as exc:
        sys.exit(error(exc))
    except KeyboardInterrupt:
        sys.exit(interrupted())
    except BrokenPipeError:
        # The reader went away (`arbiter moves ... | head`): stop quietly, as cat does.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's final flush must not fail
        sys.exit(141)
    except OSError as exc:
        # A path the system refuses (permissions, a full or read-only disk, a folder
        # where a file should be): one line, exit 17. An OSError that names no file is
        # not about the user's paths: it stays a traceback, to be reported as a bug.
        if exc.filename is None:
            raise
        sys.exit(os_error(exc))
