"""The ``arbiter`` command: assemble the command groups and map errors to exit codes."""

from __future__ import annotations

import os
import sys

import typer

from arbiter.cli import bot, demo, git, inspect, keys, mail, player, referee, replay, tournament
from arbiter.cli import html as replay_page
from arbiter.core.errors import ArbiterError

app = typer.Typer(
    name="arbiter",
    help="Referee board games played by signed JSON move files; anyone can verify the result.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
)

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
