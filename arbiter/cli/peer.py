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
        folder, game_id or folder.resolve().name, game, options, seats, dropout, notary,
        addresses=addresses,
    )
    out = Output()
    send = travel.deliver()
    if send is not None:
        send(folder / "game.json", (folder / "game.json").read_bytes())
    out.line(f"peer game {terms['game']}: {terms['engine']['name']} for {', '.join(seats)}")
    out.line("each player now runs: arbiter peer join " + str(folder) + " --seat NAME --key KEY")


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
    bot: bool = typer.Option(False, "--bot", help="Let a random bot take your decisions."),
    via: str = VIA,
    mail: Path | None = MAIL,
) -> None:
    """Send everything your seat owes now: shuffles and shares at once, a decision when
    you give one. Then show what the game waits for."""
    from arbiter.core.errors import UsageError
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
    travel = Via(folder, via, seat, mail)
    travel.pull()
    loaded = files.load(folder, seat)
    out = Output()
    _send(loaded, seat, key, "bot" if bot else decision, out, travel)
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


def _send(loaded: Any, seat: str, key: Path, decision: Any, out: Output, travel: Via) -> None:
    """Compose, sign and write each message the seat owes, until it owes none or a
    decision it was not given."""
    from arbiter.core.errors import UsageError
    from arbiter.peer import folder as files
    from arbiter.peer.protocol import DECISION, KEY

    loaded.check_key(seat, key)
    game, player = loaded.game, loaded.player
    if seat in game.out:
        raise UsageError(f"{seat} timed out in round {game.out[seat]}: {_out(game, seat)}")
    _check_escrow(loaded, seat, key)
    given = [decision] if decision is not None else []
    while (owed := game.owed(seat)) is not None:
        if owed.kind == KEY and player.secret is None:
            player.secret = files.new_secret(loaded.terms, seat)
        if owed.kind == DECISION and not given:
            return
        choose = _chooser(game.engine, given.pop() if owed.kind == DECISION else None)
        round_, what = game.round, owed.describe()
        message = player.compose(choose)
        if owed.kind == KEY and game.remedy == "escrow":
            message["escrow"] = _deal(loaded, seat, player.secret)
        path = loaded.write(message, key, travel.deliver())
        out.line(f"sent {path.name}: {what} (round {round_})")


def _deal(loaded: Any, seat: str, secret: bytes) -> dict[str, Any]:
    """The escrow of ``seat``'s secret, sealed to each holder's SSH key (docs/peer.md §7)."""
    from arbiter.peer import escrow, timeouts

    keys = timeouts.signer_keys(loaded.terms)
    return escrow.deal(secret, [(h, keys[h]) for h in loaded.game.holders(seat)])


def _check_escrow(loaded: Any, seat: str, key: Path) -> None:
    """Open and check every escrow share dealt to ``seat`` (its SSH key is at hand): a
    false one names its dealer before anything more is sent."""
    from arbiter.peer import escrow

    game = loaded.game
    for dealer, (commitments, field) in game.escrow.items():
        holders = game.holders(dealer)
        if seat in holders:
            escrow.open_share(field, commitments, holders.index(seat) + 1, key, dealer)


def _out(game: Any, seat: str) -> str:
    if game.forfeit == seat:
        return "it forfeited and the game is over"
    return "its escrow was opened and a bot plays its seat"


def _chooser(engine: Any, wanted: Any) -> Any:
    """The decision maker of one message: the decision given (checked against the legal
    ones, with the engine's reason if it is not one), or a bot's random choice."""
    from arbiter.core.errors import IllegalAction, UsageError
    from arbiter.core.peer import fresh, group

    def choose(state: Any, seat: str, legal: list[Any]) -> Any:
        if wanted in (None, "bot"):
            return legal[group.to_int(fresh.scalar()) % len(legal)]
        if isinstance(wanted, tuple):
            if wanted[1] > len(legal):
                raise UsageError(f"--pick {wanted[1]}: there are {len(legal)} decisions")
            return legal[wanted[1] - 1]
        if wanted not in legal:
            engine.check(state, seat, wanted)
            raise IllegalAction(f"{json.dumps(wanted)} is not one of your decisions now")
        return wanted

    return choose


def _status(loaded: Any, seat: str | None, out: Output, lines: int = 8) -> None:
    game = loaded.game
    if game.forfeit is not None:
        out.line(
            f"the game is over: {game.forfeit} did not answer round {game.out[game.forfeit]} "
            "in time and forfeits (ranked last)"
        )
    elif game.over:
        out.line(f"the game is over after {game.round} rounds")
    else:
        waiting = [o.describe() for s, o in game.waiting.items() if s not in game.answered]
        out.line(f"round {game.round} waits for: " + "; ".join(waiting))
        _deadline(loaded, seat, out)
    if loaded.pending:
        out.line(f"{len(loaded.pending)} message(s) of later rounds wait for this round's")
    for gone in sorted(game.stand_ins):
        out.line(f"{gone} timed out in round {game.out[gone]}: a bot plays its seat")
    log = game.narrate(game.opened, None) if loaded.player is None else loaded.player.log()
    for line in log[-lines:]:
        out.line("  " + line)
    if game.settled < len(game.history):
        return  # the last step's cards are still being opened: nothing to show yet
    if loaded.player is not None and loaded.player.secret is not None and game.state is not None:
        view = loaded.player.view()
        for line in game.engine.render(view, seat) or [json.dumps(view, sort_keys=True)]:
            out.line(line)
        owed = game.owed(seat) if seat is not None else None
        if owed is not None and owed.kind == "decision":
            legal = game.engine.legal_actions(loaded.player.private(), seat)
            out.line("your decisions (play --pick N, or --action JSON):")
            for n, action in enumerate(legal, start=1):
                out.line(
                    f"  {n:3}. {game.engine.label(action)}    {json.dumps(action, sort_keys=True)}"
                )


def _deadline(loaded: Any, seat: str | None, out: Output) -> None:
    """When the round in progress is due, by this seat's clock (docs/peer.md §7)."""
    from arbiter.peer import folder as files
    from arbiter.peer import timeouts

    dropout = loaded.terms.get("dropout")
    if dropout is None or seat is None:
        return
    opened = timeouts.opened(files.secret_home(), loaded.terms, seat, loaded.game)
    due = timeouts.due(opened, dropout["seconds"])
    out.line(
        f"due {due} by your clock (opened {opened}); then: arbiter peer timeout, "
        f"and the remedy is {dropout['remedy']}"
    )


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="peer")
