"""The ``arbiter`` command: assemble the command groups and map errors to exit codes."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, MutableMapping
from typing import Any

import typer
from typer.core import TyperGroup

from arbiter.cli import (
    bot,
    demo,
    git,
    inspect,
    keys,
    leave,
    life,
    mail,
    notify,
    orders,
    peer,
    peer_dropout,
    play,
    player,
    ratings,
    referee,
    replay,
    takeback,
    tournament,
)
from arbiter.cli import html as replay_page
from arbiter.core.errors import ArbiterError
from arbiter.export import command as export_command

HELP = "Referee board games played by signed JSON move files; anyone can verify the result."


class _Commands(MutableMapping[str, Any]):
    """The subcommands by name, each built from its registration when first looked up.

    Typer builds every command's click form (its options read from the signature) on each
    run: ~10% of a short command's start-up spent on the 20 it does not run. The names are
    known at once, so help, completion and "did you mean" see them all; only a command
    looked up (the one run, or every one for help) is built.
    """

    def __init__(self, group: TyperGroup):
        self._infos: dict[str, Any] = {}
        command: Any
        for command in _registry.registered_commands:
            name = command.name or typer.main.get_command_name(command.callback.__name__)
            self._infos[name] = command
        group_info: Any
        for group_info in _registry.registered_groups:
            self._infos[group_info.name] = group_info
        self._built: dict[str, Any] = {}
        self._group = group

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            self._built[name] = _build(self._infos[name], self._group)
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._infos.setdefault(name, None)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._infos[name]
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)


def _build(info: Any, group: TyperGroup) -> Any:
    """Build a registered command or command group as ``typer.main.get_command`` would."""
    if isinstance(info, typer.models.TyperInfo):
        return typer.main.get_group_from_info(
            info,
            pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode,
            suggest_commands=group.suggest_commands,
        )
    return typer.main.get_command_from_info(
        info,
        pretty_exceptions_short=app.pretty_exceptions_short,
        rich_markup_mode=app.rich_markup_mode,
    )


class _LazyGroup(TyperGroup):
    """The ``arbiter`` group: its subcommands are built on first use (``_Commands``)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.commands = _Commands(self)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)


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
    cls=_LazyGroup,
)
# The command groups register here; ``_LazyGroup`` builds from this what is looked up.
_registry = typer.Typer()


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


for group in (
    keys, referee, player, life, leave, takeback, orders,
    play, bot, inspect, replay, demo, mail, git, tournament, peer_dropout, peer,
):  # fmt: skip
    group.register(_registry)
replay_page.register(_registry)  # arbiter html
notify.register(_registry)  # arbiter notify
ratings.register(_registry)  # arbiter ratings
export_command.register(_registry)  # arbiter export


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
