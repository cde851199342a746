"""``arbiter peer timeout`` and ``arbiter peer notary``: a seat that does not answer in
time (docs/peer.md §7).

There is no referee clock in a peer game. Each signer counts from when it first saw the
round open (every ``peer`` command that reads the folder notes it), and signs a timeout
only once the terms' deadline has passed by that count. The timeout takes effect when the
terms' signers have all signed one: the notary alone, or every other seat (under escrow,
every holder, each publishing its share of the silent seat's secret).
"""

from __future__ import annotations

from pathlib import Path

import typer

from arbiter.cli.output import Output
from arbiter.cli.peer_via import Via

VIA = typer.Option("folder", "--via", help="folder, git or mail, as for the other peer commands.")
MAIL = typer.Option(None, "--mail", help="With --via mail: your mail settings (TOML).")


def timeout(
    folder: Path = typer.Argument(...),
    seat: str = typer.Option(..., "--seat", "-s", help="Your seat's name, as in game.json."),
    key: Path = typer.Option(..., "--key", "-k", help="Your SSH private key."),
    absent: str | None = typer.Option(
        None, "--absent", help="The seat to time out (default: every seat that owes)."
    ),
    via: str = VIA,
    mail: Path | None = MAIL,
) -> None:
    """Sign that a seat did not answer the round in progress in time."""
    travel = Via(folder, via, seat, mail)
    travel.pull()
    _sign(folder, seat, key, absent, travel, Output())


def notary(
    folder: Path = typer.Argument(...),
    key: Path = typer.Option(..., "--key", "-k", help="The notary's SSH private key."),
    via: str = VIA,
    mail: Path | None = MAIL,
) -> None:
    """Run the notary's round (from cron, say): time out every seat past its deadline by
    the notary's clock, and say who owes what until when. It knows no card."""
    travel = Via(folder, via, "notary", mail)
    travel.pull()
    _sign(folder, "notary", key, None, travel, Output(), quiet=True)


def _sign(
    folder: Path,
    signer: str,
    key: Path,
    absent: str | None,
    travel: Via,
    out: Output,
    quiet: bool = False,
) -> None:
    from arbiter.core import clock, signing
    from arbiter.core.errors import UsageError
    from arbiter.peer import folder as files
    from arbiter.peer import timeouts

    loaded = files.load(folder, None if signer == "notary" else signer)
    terms, game = loaded.terms, loaded.game
    keys = timeouts.signer_keys(terms)
    if signer not in keys:
        raise UsageError(f"{signer} is not a seat of this game, nor is a notary named")
    if signing.public_key_of(key) != keys[signer]:
        raise UsageError(f"{key} is not {signer}'s key in game.json: sign with its own key")
    if terms.get("dropout") is None:
        raise UsageError("this game has no deadlines: its terms name no drop-out remedy")
    if game.over:
        out.line(_ended(game))
        return
    opened = timeouts.opened(files.secret_home(), terms, signer, game)
    owing = [s for s in game.seats if s != signer and game.owed(s) is not None]
    if absent is not None:
        if absent not in game.seats:
            raise UsageError(f"{absent!r} is not a seat of this game ({', '.join(game.seats)})")
        owing = [absent]
    signed = timeouts.read(folder, terms)
    due = timeouts.due(opened, terms["dropout"]["seconds"])
    for seat in owing:
        if signer in signed.get((game.round, seat), {}):
            out.line(f"{signer} has timed {seat} out of round {game.round} already")
            continue
        if quiet and clock.now_utc() < due:
            out.line(f"round {game.round}: {seat} owes until {due} (the notary's clock)")
            continue
        doc = timeouts.statement(game, terms, signer, seat, opened, key)
        path = timeouts.write(folder, doc, travel.deliver())
        out.line(f"signed {path.relative_to(folder)}: {seat} did not answer round {game.round}")
    after = files.load(folder, None if signer == "notary" else signer)
    if after.game.over:
        out.line(_ended(after.game))
    for seat in sorted(set(after.game.stand_ins) - set(game.stand_ins)):
        out.line(f"{seat} is out: its escrow rebuilt its key, and a bot plays its seat")
    if after.game.round == game.round and not after.game.over:
        signed = timeouts.read(folder, terms)
        for seat in owing:
            still = timeouts.missing(after.game, seat, signed)
            if still and signer in signed.get((game.round, seat), {}):
                verb = "signs" if len(still) == 1 else "sign"
                out.line(f"{seat}'s timeout takes effect once {' and '.join(still)} {verb} too")


def _ended(game: object) -> str:
    forfeit = getattr(game, "forfeit", None)
    if forfeit is not None:
        return f"the game is over: {forfeit} did not answer in time and forfeits (ranked last)"
    return "the game is over"


def register(_main: typer.Typer) -> None:
    from arbiter.cli.peer import app

    app.command("timeout")(timeout)
    app.command("notary")(notary)
