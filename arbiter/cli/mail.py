"""``arbiter mail``: the referee's mail desk, seats' addresses, and sending a move by mail."""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output

app = typer.Typer(
    help="Play by email: the referee's desk, seats' addresses, sending a move.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@app.command("run")
def run(
    config: Path = typer.Option(..., "--config", "-c", help="The desk's TOML config.", metavar="FILE"),
    once: bool = typer.Option(False, "--once", help="Handle waiting mail, then stop."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Judge the move files that arrive by mail and answer them (IDLE or polling)."""
    from arbiter.desks.mail.config import load
    from arbiter.desks.mail.desk import MailDesk

    out = Output(as_json)
    summary = MailDesk(load(config)).run(once=once)
    if as_json:
        out.json(summary.__dict__)
        return
    out.line(
        f"{summary.mails} mails: {summary.files} files, {summary.accepted} accepted, "
        f"{summary.rejected} refused, {summary.ignored} left unanswered (robots, floods), "
        f"{summary.quarantined} quarantined (unreadable); {summary.sent} mails sent"
        + (
            f"; {summary.timeouts} timeouts applied, {summary.reminders} reminders, "
            f"{summary.bot_moves} bot moves"
            if summary.timeouts or summary.reminders or summary.bot_moves
            else ""
        )
        + (f"; {summary.notices} turn-notice digests" if summary.notices else "")
    )


@app.command("seat")
def seat(
    folder: Path = typer.Argument(..., help="Game folder.", metavar="GAME"),
    name: str = typer.Argument(..., help="Seat name.", metavar="SEAT"),
    address: str = typer.Argument(..., help="Where that seat's files go.", metavar="ADDRESS"),
) -> None:
    """Record a seat's mail address (kept under referee/, never published)."""
    from arbiter.desks.mail.addresses import store

    stored = store(folder, name, address)
    Output().line(f"{name} gets mail at {stored} (kept in {folder / 'referee'})")


@app.command("bot")
def bot(
    folder: Path = typer.Argument(..., help="Game folder.", metavar="GAME"),
    name: str = typer.Argument(..., help="The seat the desk plays.", metavar="SEAT"),
    level: str = typer.Option("greedy", "--level", help="random, greedy or search."),
    key: Path = typer.Option(..., "--key", "-k", help="That seat's private key (registered in game.json)."),
    seed: str = typer.Option("mail-desk", "--seed", help="The bot's seed (its decisions follow from it)."),
) -> None:
    """Let the desk play a seat with a bot (kept under referee/, never published)."""
    from arbiter.desks.mail.bots import store

    stored = store(folder, name, level, key, seed)
    Output().line(f"the desk plays {name} with the {stored.level} bot (kept in {folder / 'referee'})")


@app.command("send")
def send(
    move: Path = typer.Argument(..., help="The signed move or join file.", metavar="FILE"),
    to: str = typer.Option(..., "--to", help="The referee's address."),
    config: Path = typer.Option(..., "--config", "-c", help="TOML with an [smtp] section.", metavar="FILE"),
) -> None:
    """Mail a signed file to the referee (any mail client does the same)."""
    from arbiter.core.canonical import parse_strict
    from arbiter.core.safeio import read_input, shown
    from arbiter.desks.mail import compose
    from arbiter.desks.mail.addresses import normalise
    from arbiter.desks.mail.config import load_smtp
    from arbiter.play.transports.mail import PlayerOutbox

    smtp = load_smtp(config)
    data = read_input(move)
    obj = parse_strict(data, move.name)
    game = obj.get("game", "?") if isinstance(obj, dict) else "?"
    recipient = normalise(to)
    mid = compose.message_id(smtp.sender, game, "player", data.hex()[:64], recipient)
    mail = compose.letter(
        smtp.sender, recipient, f"{game}: {move.name}", f"{move.name} for game {game}.\n", mid,
        attachments=[(move.name, data, "application/json")],
    )
    del mail["Auto-Submitted"]  # a person's move: the desk must answer it
    # The player's client, not the desk's: a server that refuses the mail is an error
    # the sender must see (the desk lets a refused answer go, a player must not).
    outbox = PlayerOutbox(smtp, shown(config))
    try:
        outbox.send(mail, [recipient])
    finally:
        outbox.close()
    Output().line(f"sent {move.name} to {recipient}")


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="mail")
