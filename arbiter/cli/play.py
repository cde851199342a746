"""``arbiter play``: the player's desk — one command per decision (docs/player-guide.md).

``arbiter play [GAME]`` opens a game (a game id of the profile, or a state file on this
machine); with no GAME it lists the profile's games and opens the one waiting for you
with the least time left. ``play add`` puts a game in the profile, ``play list`` (or
``--check``) prints the list only, ``play remove`` takes a game out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from typer.core import TyperGroup

from arbiter.cli.output import Output

PLAIN_HELP = (
    "--plain: text lines only (screen readers, pipes); --pictures: tables and coloured cards. "
    "Default: pictures when input and output are a terminal."
)


class _DefaultGroup(TyperGroup):
    """``arbiter play X`` runs ``play open X`` unless X is one of the subcommands, so the
    everyday form needs no subcommand while ``play add`` stays a command of its own."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = ["open", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    help="Play your games: one command per decision, by desk, mail or git.\n\n"
    "`arbiter play add GAME.JSON --seat S --key K --via desk|mail|git` once per game (a peer "
    "game, with no referee: --via folder|git|mail); then "
    "`arbiter play` opens the game waiting for you, `arbiter play GAME` one game (`--web`: "
    "in a local browser page), `arbiter play list` shows them all. docs/player-guide.md.",
    cls=_DefaultGroup,
    rich_markup_mode=None,
)


@app.command("open")
def open_game(
    game: str | None = typer.Argument(
        None,
        help="A game id of your profile, or your state file (players/<seat>/state.json). "
        "Default: the game waiting for you with the least time left.",
        metavar="[GAME]",
    ),
    key: Path | None = typer.Option(
        None, "--key", "-k", help="Your private key (default: the profile's)."
    ),
    plain: bool | None = typer.Option(None, "--plain/--pictures", help=PLAIN_HELP),
    web: bool = typer.Option(False, "--web", help="Play in a local browser page instead."),
    no_browser: bool = typer.Option(
        False, "--no-browser", help="With --web: print the page's address, open nothing."
    ),
    check: bool = typer.Option(
        False, "--check", help="Print your games and whose turn it is, then exit."
    ),
    drop: Path | None = typer.Option(
        None,
        "--drop",
        help="With a state file: write the move into this folder for the referee instead "
        "of submitting it (the game folder is not yours to write).",
    ),
    as_json: bool = typer.Option(False, "--json", help="With --check: print JSON."),
) -> None:
    """Open a game (the default: `arbiter play GAME` is `arbiter play open GAME`).

    Draws the table and what happened since you last decided, lists your decisions by
    number; pick by number or card name, then sign and send in one step.
    """
    from arbiter.play import launch

    if check or (game is None and as_json):
        launch.check(Output(as_json))
        return
    if game is None:
        chosen = launch.choose(Output())
        if chosen is None:
            return
        game = chosen
    peer = launch.peer_entry(game)
    if peer is not None:  # a game with no referee (docs/peer.md): the terminal only
        raise typer.Exit(launch.play_peer(peer, key, web))
    session = launch.session_for(game, key, drop)
    if web:
        raise typer.Exit(launch.web(session, open_browser=not no_browser))
    raise typer.Exit(launch.terminal(session, plain))


@app.command("list")
def list_games(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Print your games, whose turn it is and the time left (as --check)."""
    from arbiter.play import launch

    launch.check(Output(as_json))


@app.command("add")
def add(
    manifest: Path = typer.Argument(
        ...,
        help="The game.json the referee sent you, or a peer game's in its folder (by mail: "
        "your copy's, taken from your mailbox if it is not there yet).",
        metavar="GAME-JSON",
    ),
    seat: str = typer.Option(..., "--seat", "-s", help="Your seat."),
    key: Path = typer.Option(..., "--key", "-k", help="Your private key."),
    via: str = typer.Option(
        ..., "--via", help="desk, mail or git; a peer game (no referee): folder, git or mail."
    ),
    folder: Path | None = typer.Option(
        None, "--folder", help="desk: the game folder (default: the game.json's folder)."
    ),
    drop: Path | None = typer.Option(
        None, "--drop", help="desk: the folder the referee collects move files from."
    ),
    config: Path | None = typer.Option(
        None, "--config", help="mail, a peer game's too: your TOML with [smtp] and [imap]."
    ),
    to: str | None = typer.Option(None, "--to", help="mail: the referee desk's address."),
    clone: Path | None = typer.Option(
        None, "--clone", help="git: your clone of the game's repository (default: the "
        "repository the game.json is in)."
    ),
    path: str | None = typer.Option(
        None, "--path", help="git: the game's folder inside the repository (default: where "
        "the game.json is)."
    ),
    replace: bool = typer.Option(False, "--replace", help="Replace the game if it is there."),
) -> None:
    """Add a game to your profile, with how its files travel (once per game)."""
    from arbiter.play import launch

    line = launch.add(manifest, seat, key, via, folder, drop, config, to, clone, replace, path)
    Output().line(line)


@app.command("orders")
def orders(
    game: str = typer.Argument(
        ..., help="A game id of your profile, or your state file.", metavar="GAME"
    ),
    key: Path | None = typer.Option(
        None, "--key", "-k", help="Your private key (default: the profile's)."
    ),
    level: str = typer.Option(
        "greedy", "--level", "-l", help="The bot that proposes them: random, greedy or search."
    ),
    seed: str = typer.Option("", "--seed", help="Seeds the bot's choices (as arbiter bot)."),
    cancel: bool = typer.Option(False, "--cancel", help="Cancel your pending standing orders."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Sign and send without asking."),
) -> None:
    """While another seat decides: let a bot propose standing orders for your next turn,
    and send them if you agree (docs/standing-orders.md)."""
    from arbiter.play import launch
    from arbiter.play import orders as play_orders
    from arbiter.play.terminal import ask_line

    session = launch.session_for(game, key, None)
    code = play_orders.run(
        session, Output(), level=level, seed=seed, cancel=cancel, yes=yes, ask=ask_line
    )
    raise typer.Exit(code)


@app.command("remove")
def remove(game: str = typer.Argument(..., help="The game id.", metavar="GAME")) -> None:
    """Take a game out of your profile (its outbox and files stay on disk)."""
    from arbiter.play import profile

    profile.remove(game)
    Output().line(f"removed {game} from your games")


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="play")
