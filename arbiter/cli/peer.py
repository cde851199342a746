"""``arbiter peer new|join|play|status``: a game with no referee (docs/peer.md §6).

The players share one folder (a synced directory or a network share); each writes only
its own signed messages there and keeps its per-game secret in its own folder. ``play``
sends whatever the seat owes: its key, its shuffles and shares at once, its decision when
given one (``--action``) or left to a bot (``--bot``); otherwise it shows the seat's view
and its legal decisions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from arbiter.cli.output import Output
from arbiter.cli.peer_via import Via
from arbiter.play.peer_turn import send as _send
from arbiter.play.peer_turn import status as _status

app = typer.Typer(help="Play with no referee: the players shuffle and deal among themselves.")

SEAT = typer.Option(..., "--seat", "-s", help="Your seat's name, as in game.json.")
KEY = typer.Option(..., "--key", "-k", help="Your SSH private key (it signs your messages).")
VIA = typer.Option(
    "folder",
    "--via",
    help="folder: the folder is shared as it is; git: it is in a clone of the game's "
    "repository (pulled first; each new file committed and pushed); mail: this is your own "
    "copy (your mailbox read first; each new file mailed to the other seats).",
)
MAIL = typer.Option(
    None,
    "--mail",
    help="With --via mail: your mail settings (TOML: [imap], your own mailbox, and [smtp]).",
)


@app.command("new")
def new(
    folder: Path = typer.Argument(..., help="The shared folder to make the game in."),
    game: str = typer.Option(..., "--game", "-g", help="The engine: momiji or motcoin."),
    seat: list[str] = typer.Option(
        ...,
        "--seat",
        "-s",
        help="NAME=PUBKEY, once per seat, in seat order (the .pub file or line).",
    ),
    option: list[str] = typer.Option([], "--option", "-o", help="An engine option, KEY=VALUE."),
    game_id: str | None = typer.Option(
        None, "--id", help="The game's id (default: the folder's name)."
    ),
    deadline: str | None = typer.Option(
        None, "--deadline", help="How long a seat may take to answer a round, e.g. 2d or 36h."
    ),
    remedy: str = typer.Option(
        "forfeit",
        "--remedy",
        help="forfeit: a seat timed out loses and the game ends; escrow: the others rebuild "
        "its key from the shares it dealt them, and a bot plays it (they learn its hand).",
    ),
    notary: str | None = typer.Option(
        None, "--notary", help="The notary's public key (.pub file or line): it signs timeouts."
    ),
    address: list[str] = typer.Option(
        [], "--address", help="NAME=EMAIL: where mail for that seat goes (--via mail: every seat)."
    ),
    via: str = VIA,
    mail: Path | None = MAIL,
) -> None:
    """Write a peer game's terms (game.json) into a new shared folder."""
    from arbiter.core.errors import UsageError
    from arbiter.peer import folder as files

    seats = dict(_pair(s, "--seat", "NAME=PUBKEY") for s in seat)
    if len(seats) != len(seat):
        raise UsageError("a seat is named twice: give each --seat its own NAME")
    options = dict(_pair(o, "--option", "KEY=VALUE") for o in option)
    dropout = _dropout(deadline, remedy)
    travel = Via(folder, via, mail=mail)
    addresses = travel.addresses(address, list(seats))
    travel.pull()
    terms = files.create(
        folder,
        game_id or folder.resolve().name,
        game,
        options,
        seats,
        dropout,
        notary,
        addresses=addresses,
    )
    out = Output()
    send = travel.deliver()
    if send is not None:
        send(folder / "game.json", (folder / "game.json").read_bytes())
    out.line(f"peer game {terms['game']}: {terms['engine']['name']} for {', '.join(seats)}")
    if dropout is not None:
        from arbiter.core.deadlines import describe_duration

        if dropout["remedy"] == "escrow":
            who = "the other seats" + (" and the notary" if notary else "") + " together"
            then = "its escrow is opened and a bot plays it"
        else:
            who = "the notary (or the other seats together)" if notary else "the other seats"
            then = "it forfeits"
        out.line(
            f"a seat has {describe_duration(dropout['seconds'])} to answer each round; then "
            f"{who} may time it out: {then} (docs/peer.md §7)"
        )
    if via == "mail":
        out.line(
            "game.json went to every seat's address; each player now runs: arbiter peer join "
            f"COPY/{terms['game']} --seat NAME --key KEY --via mail --mail CONFIG"
        )
    else:
        out.line(f"each player now runs: arbiter peer join {folder} --seat NAME --key KEY")


@app.command("join")
def join(
    folder: Path = typer.Argument(...),
    seat: str = SEAT,
    key: Path = KEY,
    via: str = VIA,
    mail: Path | None = MAIL,
) -> None:
    """Accept the terms: draw your per-game secret (kept in your own folder) and publish its
    key with a proof that you know it."""
    from arbiter.core.errors import UsageError
    from arbiter.peer import folder as files
    from arbiter.peer.protocol import KEY as OWES_KEY

    travel = Via(folder, via, seat, mail)
    travel.pull()
    loaded = files.load(folder, seat)
    owed = loaded.game.owed(seat)
    if owed is None or owed.kind != OWES_KEY:
        raise UsageError(f"{seat} has joined already: run arbiter peer play")
    _send(loaded, seat, key, None, Output(), travel)


@app.command("play")
def play(
    folder: Path = typer.Argument(...),
    seat: str = SEAT,
    key: Path = KEY,
    action: str | None = typer.Option(None, "--action", "-a", help="Your decision, as JSON."),
    pick: int | None = typer.Option(
        None, "--pick", "-p", help="Your decision by its number in the list play shows.", min=1
    ),
    bot: bool = typer.Option(False, "--bot", help="Let a bot take your decision."),
    level: str = typer.Option(
        "random", "--level", help="The bot's level: random, greedy or search (bots.md)."
    ),
    watch: float | None = typer.Option(
        None,
        "--watch",
        help="With --bot: keep answering every N seconds until the game is over (a bot seat "
        "a human plays against).",
        min=0.1,
    ),
    via: str = VIA,
    mail: Path | None = MAIL,
) -> None:
    """Send everything your seat owes now: shuffles and shares at once, a decision when
    you give one. Then show what the game waits for."""
    from arbiter.bots.levels import LEVELS
    from arbiter.core.errors import UsageError
    from arbiter.core.gamedir import pause
    from arbiter.peer import folder as files

    decision: Any = None
    if sum(x is not None and x is not False for x in (action, pick, bot or None)) > 1:
        raise UsageError("give one of --action, --pick and --bot")
    if pick is not None:
        decision = ("pick", pick)
    if action is not None:
        try:
            decision = json.loads(action)
        except ValueError:
            raise UsageError(
                '--action is not JSON: quote it, e.g. --action \'{"kind": "end"}\''
            ) from None
    if level not in LEVELS:
        raise UsageError(f"--level takes {', '.join(LEVELS)}, not {level!r}")
    if watch is not None and not bot:
        raise UsageError("--watch keeps a bot seat answering: give --bot too")
    travel = Via(folder, via, seat, mail)
    while True:
        travel.pull()
        loaded = files.load(folder, seat)
        out = Output()
        _send(loaded, seat, key, ("bot", level) if bot else decision, out, travel)
        if watch is None or loaded.game.over:
            break
        pause(watch)  # a wait between reads: nothing it sends depends on the clock
    _status(loaded, seat, out)


@app.command("status")
def status(
    folder: Path = typer.Argument(...),
    seat: str | None = typer.Option(None, "--seat", "-s", help="Show this seat's own view."),
    lines: int = typer.Option(8, "--log", help="How many lines of the log to show."),
    via: str = VIA,
    mail: Path | None = MAIL,
) -> None:
    """Show what the game waits for, the end of the log, and a seat's view."""
    from arbiter.peer import folder as files

    Via(folder, via, seat, mail).pull()
    loaded = files.load(folder, seat)
    out = Output()
    _status(loaded, seat, out, lines)


@app.command("reveal")
def reveal(
    folder: Path = typer.Argument(...),
    seat: str = SEAT,
    key: Path = KEY,
    via: str = VIA,
    mail: Path | None = MAIL,
) -> None:
    """Publish your per-game secret once the game is over, so that anyone can decrypt
    the decks and replay the game (arbiter verify FOLDER)."""
    from arbiter.peer.verify import publish

    travel = Via(folder, via, seat, mail)
    travel.pull()
    path = publish(folder, seat, key, travel.deliver())
    Output().line(f"wrote {path}: once every seat has, arbiter verify {folder} replays the game")


def _dropout(deadline: str | None, remedy: str) -> dict[str, Any] | None:
    from arbiter.core.deadlines import parse_duration
    from arbiter.core.errors import UsageError

    if remedy not in ("forfeit", "escrow"):
        raise UsageError(f"--remedy {remedy!r}: use forfeit or escrow")
    if deadline is None:
        if remedy != "forfeit":
            raise UsageError("--remedy needs a --deadline: how long a seat may take")
        return None
    return {"seconds": parse_duration(deadline, "--deadline", minimum=60), "remedy": remedy}


def _pair(text: str, flag: str, shape: str) -> tuple[str, str]:
    from arbiter.core.errors import UsageError

    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        raise UsageError(f"{flag} {text!r}: write it as {shape}")
    return name, value


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="peer")
