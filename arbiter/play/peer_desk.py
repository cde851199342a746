"""The player's desk for a peer game (docs/peer.md §6, docs/player-guide.md): a game with
no referee, in the profile beside the refereed ones.

A peer game's entry is ``via = "peer"`` with its folder (shared, or the player's own copy
by mail), how that folder travels (``carry``: folder, git or mail, as ``arbiter peer
--via``) and, by mail, the player's mail settings (``config``). Reading it goes through
the same ``Via`` as ``arbiter peer``: pulled first, then the folder loaded for the seat
(every message checked, its ledger and its clock kept). ``row`` lists it; ``play`` sends
what the seat owes (its key, shuffles, shares) as ``arbiter peer play`` does, then asks
for each decision by number in the terminal.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arbiter.cli.output import Output
from arbiter.core.errors import ArbiterError, UsageError
from arbiter.play import games as my_games
from arbiter.play import peer_turn
from arbiter.play.profile import CARRIES, GameEntry

if TYPE_CHECKING:
    from arbiter.cli.peer_via import Via
    from arbiter.peer.folder import Folder

LOG_LINES = 8
"""How many lines of the seat's log the desk shows (as ``arbiter peer status``)."""
HEADER = "your decisions (type a number, or q to leave):"
OWES = {
    "key": "your join (sent when you open it)",
    "shuffle": "your shuffle (sent when you open it)",
    "shares": "your shares (sent when you open it)",
    "decision": "your decision",
}
"""The list's note when the seat owes something, by what it owes."""


# -- adding one ------------------------------------------------------------------------


def is_peer(manifest: dict[str, Any] | None) -> bool:
    from arbiter.peer.folder import FORMAT

    return isinstance(manifest, dict) and manifest.get("format") == FORMAT


def settings(
    manifest: Path, carry: str, config: Path | None, stray: dict[str, Any]
) -> dict[str, str]:
    """The profile settings of a peer game whose game.json is ``manifest``: its folder is
    where game.json is, and it travels as ``carry`` says (``stray``: the options of
    refereed games, refused here by name)."""
    if carry not in CARRIES:
        raise UsageError(
            f"{manifest} is a peer game (no referee): give --via folder, git or mail, not {carry!r}"
        )
    for flag, value in stray.items():
        if value is not None:
            raise UsageError(
                f"{flag} does not belong to a peer game: its folder is where its game.json is"
            )
    out = {"folder": str(manifest.expanduser().resolve().parent), "carry": carry}
    if config is not None:
        out["config"] = str(config.expanduser().resolve())
    return out


def fetch_terms(manifest: Path, seat: str, config: Path) -> None:
    """Take a peer game's game.json from the player's mailbox into the copy that has none
    yet (as ``arbiter peer join --via mail`` does: the copy is named after the game)."""
    from arbiter.cli.peer_via import Via

    Via(manifest.expanduser().parent, "mail", seat, config.expanduser()).pull()


# -- reading one -----------------------------------------------------------------------


def travel(entry: GameEntry) -> Via:
    from arbiter.cli.peer_via import Via

    config = entry.settings.get("config")
    return Via(
        Path(entry.settings["folder"]),
        entry.settings["carry"],
        entry.seat,
        Path(config) if config else None,
    )


def read(entry: GameEntry) -> tuple[Via, Folder]:
    """Pull the folder through its transport, then load it for the seat."""
    from arbiter.peer import folder as files

    via = travel(entry)
    via.pull()
    return via, files.load(Path(entry.settings["folder"]), entry.seat)


def row(entry: GameEntry, now: str) -> my_games.Row:
    """The list's row of a peer game; a transport or folder that cannot be read gives an
    "unreachable" row with its one-line reason."""
    via = f"peer/{entry.settings.get('carry', '?')}"
    try:
        _, loaded = read(entry)
    except ArbiterError as exc:
        return my_games.Row(entry.game, entry.seat, via, "unreachable", None, False, None, None,
                            exc.message)  # fmt: skip
    except OSError as exc:  # a folder gone or unreadable: said, the other games still listed
        reason = f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc)
        return my_games.Row(entry.game, entry.seat, via, "unreachable", None, False, None, None,
                            reason)  # fmt: skip
    return _row(entry, via, loaded, now)


def _row(entry: GameEntry, via: str, loaded: Folder, now: str) -> my_games.Row:
    from arbiter.core.deadlines import seconds_between

    game, seat = loaded.game, entry.seat
    owed = game.owed(seat)
    waits = {s: o for s, o in game.waiting.items() if s not in game.answered}
    deciding = [s for s, o in waits.items() if o.kind == "decision"]
    # The one seat the game waits for (its decision, or the one shuffle or share it owes).
    turn = deciding[0] if deciding else (next(iter(waits)) if len(waits) == 1 else None)
    if game.over:
        status = "over"
    elif len(game.keys) < len(game.seats):
        status = "joining"
    else:
        status = "playing"
    found = None if game.over else peer_turn.due(loaded, seat)
    due = found[1] if found else None
    left = seconds_between(now, due) if due else None
    note = _note(loaded, seat)
    return my_games.Row(entry.game, seat, via, status, turn, owed is not None, due, left, note)


def _note(loaded: Folder, seat: str) -> str:
    game = loaded.game
    if game.forfeit is not None:
        return f"over: {game.forfeit} forfeited"
    if game.over:
        return "over: " + _result(game)
    if seat in game.stand_ins:
        return "you timed out: a bot plays your seat"
    owed = game.owed(seat)
    if owed is not None:
        return OWES[owed.kind]
    return "; ".join(peer_turn.waiting_for(game))


def _result(game: Any) -> str:
    """Who won, as a refereed game's row says it (the outcome of the shared state)."""
    from arbiter.core.hidden import Hidden

    try:
        outcome = game.engine.outcome(game.state)
    except (Hidden, ArbiterError):  # a face still hidden: the list says "over" all the same
        outcome = None
    if outcome is None:
        return "the game is over"
    return (", ".join(outcome.winners()) or "no winner") + " won"


# -- playing one -----------------------------------------------------------------------


def play(entry: GameEntry, key: Path | None, out: Output) -> int:
    """Send what the seat owes; while its decision is due, show the table and its
    numbered decisions, read a number from the terminal and send that decision. Exit 0
    when the game waits for others, is over, or the player leaves."""
    via, loaded = read(entry)
    seat, game = entry.seat, loaded.game
    key = key or entry.key
    if game.over or seat in game.out:  # nothing to send: where it stands (status says why)
        peer_turn.status(loaded, seat, out, LOG_LINES, HEADER)
        if game.over:
            out.line(_note(loaded, seat))
            _reveal_hint(entry, out)
        return 0
    while True:
        peer_turn.send(loaded, seat, key, None, out, via)  # its key, shuffles, shares
        legal = peer_turn.status(loaded, seat, out, LOG_LINES, HEADER)
        if not legal:
            if not game.over:
                waits = "; ".join(peer_turn.waiting_for(game))
                out.line(f"nothing more to send now: the game waits for {waits}")
            return 0
        number = _pick(legal, game.engine, out)
        if number is None:
            out.line("left without deciding: nothing more was sent")
            return 0
        peer_turn.send(loaded, seat, key, ("pick", number), out, via)


def _reveal_hint(entry: GameEntry, out: Output) -> None:
    """At the end each player publishes its per-game secret, so that anyone can replay
    the game (docs/peer.md §8): say how, until this seat has."""
    folder = Path(entry.settings["folder"])
    if (folder / "reveals" / f"{entry.seat}.json").is_file():
        return
    carry = entry.settings["carry"]
    mail = f" --mail {shlex.quote(entry.settings['config'])}" if carry == "mail" else ""
    out.line(
        "publish your secret so that anyone can replay the game: arbiter peer reveal "
        f"{shlex.quote(str(folder))} --seat {entry.seat} --key {shlex.quote(str(entry.key))} "
        f"--via {carry}{mail}"
    )


def _pick(legal: list[Any], engine: Any, out: Output) -> int | None:
    """Read a decision's number from the terminal (``terminal.ask_line``, so a test types
    into it); None: ``q`` or the end of input."""
    from arbiter.play import terminal

    prompt = f"Your decision (1–{len(legal)}, q to leave): "
    while True:
        sys.stdout.flush()
        try:
            typed = terminal.ask_line(prompt).strip()
        except EOFError:
            return None
        if typed.lower() in ("q", "quit"):
            return None
        if typed.isdigit() and 1 <= int(typed) <= len(legal):
            number = int(typed)
            out.line(f"picked {number}: {engine.label(legal[number - 1])}")
            return number
        out.line(f"there is no decision {typed!r}: type a number 1–{len(legal)}, or q to leave")
