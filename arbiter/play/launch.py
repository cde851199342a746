"""What ``arbiter play`` does between the command line and a session: find the game
(the profile, or a state file on this machine), open its transport, resend what the
outbox still holds, list the player's games, add one to the profile."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arbiter.cli.output import Output
from arbiter.core.errors import ArbiterError, NotReady, UsageError
from arbiter.play import games as my_games
from arbiter.play.session import Session

if TYPE_CHECKING:
    from arbiter.play.profile import GameEntry

STATE_NAMES = ("state.json", "state.json.age")


def _profile_entry(game: str) -> Any:
    from arbiter.play import profile

    entries = profile.load()
    if game not in entries:
        known = ", ".join(entries) or "none yet"
        raise UsageError(
            f"no game {game!r} in your games ({known}): add it with `arbiter play add "
            "GAME.JSON --seat S --key K --via desk|mail|git`, or give your state file"
        )
    return entries[game]


def _stores(game: str) -> tuple[Any, Any]:
    from arbiter.play.outbox import Outbox, Seen

    return Outbox(game), Seen(game)


def session_for(game: str, key: Path | None, drop: Path | None) -> Session:
    """The session of a game id in the profile, or of a state file on this machine."""
    path = Path(game).expanduser()
    if path.name in STATE_NAMES and path.is_file():
        return _local_session(path, key, drop)
    if path.suffix in (".json", ".age") or "/" in game:
        raise UsageError(
            f"{game} is not a state file (players/<seat>/state.json): give your own state "
            "file, or a game id of `arbiter play list`"
        )
    from arbiter.play.transports import open_transport

    entry = _profile_entry(game)
    if entry.via == "peer":
        raise UsageError(
            f"game {entry.game} is a peer game (no referee): `arbiter play {entry.game}` plays "
            "it in the terminal; standing orders need a referee"
        )
    from arbiter.play import profile

    copy = profile.state_dir(entry.game) / "game.json"
    manifest = copy if copy.is_file() else entry.manifest
    outbox, seen = _stores(entry.game)
    return Session(
        open_transport(entry, key),
        key or entry.key,
        manifest=manifest,
        outbox=outbox,
        seen=seen,
        seat=entry.seat,
    )


def _local_session(path: Path, key: Path | None, drop: Path | None) -> Session:
    """A state file in a game folder on this machine: the desk transport over it."""
    from arbiter.play.transports.desk import DeskTransport

    if key is None:
        raise UsageError("pass your key with --key (it signs your moves and opens sealed files)")
    folder = path.resolve().parent.parent.parent
    seat = path.resolve().parent.name
    manifest = folder / "game.json"
    read = my_games.read_manifest(manifest)
    outbox = seen = None
    if read is not None and isinstance(read.get("game"), str):
        outbox, seen = _stores(read["game"])
    return Session(
        DeskTransport(folder, seat, key, drop),
        key,
        manifest=manifest if manifest.is_file() else None,
        outbox=outbox,
        seen=seen,
        seat=seat,
    )


def peer_entry(game: str) -> GameEntry | None:
    """The profile's entry of ``game`` when it is a peer game (None: any other argument,
    which ``session_for`` then reads)."""
    from arbiter.play import profile

    entry = profile.load().get(game)
    return entry if entry is not None and entry.via == "peer" else None


def play_peer(entry: GameEntry, key: Path | None, web: bool) -> int:
    """Open a peer game in the terminal (the page does not show peer games yet)."""
    from arbiter.play import peer_desk

    if web:
        raise UsageError("the web page does not show peer games yet: play it in the terminal")
    return peer_desk.play(entry, key, Output())


def terminal(session: Session, plain: bool | None) -> int:
    """Run the terminal loop; return the exit code."""
    from arbiter.cli.render import use_pictures
    from arbiter.play.terminal import Terminal

    pictures = use_pictures(None if plain is None else not plain) and sys.stdin.isatty()
    out = Output()
    if not _loaded(session, out):
        return Terminal(session, pictures=pictures, out=out).join_only()
    resend(session, out)
    return Terminal(session, pictures=pictures, out=out).run()


def web(session: Session, open_browser: bool) -> int:
    """Serve the game's page (``--web``): join first in the terminal if the game waits
    for this seat's join, offer what the outbox still holds, then the page until Ctrl-C."""
    import os

    from arbiter.play import terminal
    from arbiter.play.web.server import serve

    # A pull or push must never wait on a password prompt no one sees (the page runs it).
    os.environ.setdefault("GIT_TERMINAL_PROMPT", "0")
    out = Output()
    if not _loaded(session, out) and not _join(session, out, terminal.ask_line):
        return 0
    if not session.state:
        return 0
    resend(session, out)
    state = session.state
    waits = state["status"] == "joining" and state["seat"] in state["waiting_for"]
    if waits and not (session.can_join() and _join(session, out, terminal.ask_line)):
        return 0
    serve(session, open_browser=open_browser)
    return 0


def _loaded(session: Session, out: Output) -> bool:
    """Load the seat's files; ``False`` (the reason printed) when there are none yet and
    this player could send the join they wait for."""
    try:
        session.load()
    except NotReady as exc:
        if not session.can_join():
            raise
        out.line(exc.message)
        return False
    return True


def _join(session: Session, out: Output, ask: Any) -> bool:
    """Ask, then sign and send the join; whether a state file is there to play from."""
    try:
        typed = ask("Join the game now (signs your join file)? [y/n]: ")
    except EOFError:
        return False
    if typed.strip().lower() not in ("y", "yes"):
        return False
    out.line(f"joined: {session.join().where}")
    if session.refresh() or session.state:
        return True
    out.line("your state file comes once the referee has your join: run this again then")
    return False


def resend(session: Session, out: Output, ask: Any = None) -> None:
    """Offer to deliver again a signed file the outbox still holds for the current head;
    set aside one signed against an older head (it can no longer be accepted)."""
    from arbiter.play import terminal

    outbox = session.outbox
    if outbox is None or not hasattr(outbox, "pending"):
        return
    for path, move in outbox.pending():
        after = move.get("after") if isinstance(move, dict) else None
        if after != session.state.get("head"):
            outbox.sent(path)
            out.line(f"set aside {path.name}: the game has moved on since it was signed")
            continue
        try:
            question = f"{path.name} was signed but not delivered: send it now? [y/n]: "
            typed = (ask or terminal.ask_line)(question)
        except EOFError:
            return
        if typed.strip().lower() in ("y", "yes"):
            where = session.deliver_file(path.name, path.read_bytes())
            outbox.sent(path)
            out.line(f"sent {path.name}: {where}")
            session.refresh()


def rows() -> list[my_games.Row]:
    """Every game of the profile, fetched now."""
    from arbiter.core.clock import now_utc
    from arbiter.core.player import parse_state
    from arbiter.play import profile
    from arbiter.play.transports import open_transport

    now = now_utc()
    out = []
    for game, entry in profile.load().items():
        if entry.via == "peer":
            from arbiter.play import peer_desk

            out.append(peer_desk.row(entry, now))
            continue
        manifest = my_games.read_manifest(profile.state_dir(game) / "game.json") or (
            my_games.read_manifest(entry.manifest)
        )

        def fetch(entry: Any = entry) -> tuple[dict[str, Any], str | None]:
            transport = open_transport(entry)
            try:
                got = transport.fetch()
            finally:
                transport.close()
            return parse_state(got.state, f"state file ({got.where})"), got.time

        out.append(my_games.row_for(game, entry.seat, entry.via, manifest, fetch, now))
    return my_games.order(out)


def _print(out: Output, listed: list[my_games.Row]) -> None:
    waiting = sum(1 for r in listed if r.mine)
    out.line(f"{waiting} of {len(listed)} game(s) wait for you")
    if listed and not sys.stdout.isatty():
        # A pipe, cron's mail, a screen reader: one plain line a game.
        for r in listed:
            due = f"; deadline {r.due}, {my_games.describe_left(r.left)}" if r.due else ""
            out.line(f"{r.game} ({r.seat}, via {r.via}): {r.note}{due}")
        return
    if listed:
        out.table(
            None,
            ["game", "seat", "via", "now", "deadline", "time left"],
            [
                [r.game, r.seat, r.via, r.note, r.due or "-", my_games.describe_left(r.left)]
                for r in listed
            ],
        )


def check(out: Output) -> None:
    listed = rows()
    if out.as_json:
        out.json([r.to_json() for r in listed])
        return
    _print(out, listed)


def choose(out: Output) -> str | None:
    """Print the list; return the game to open (waiting for the player, least time)."""
    listed = rows()
    _print(out, listed)
    if not listed:
        out.line("add a game with `arbiter play add GAME.JSON --seat S --key K --via desk|mail|git`")
        return None
    chosen = my_games.next_game(listed)
    if chosen is None:
        out.line("nothing waits for you now")
        return None
    out.line(f"opening {chosen.game}")
    return chosen.game


def add(
    manifest: Path,
    seat: str,
    key: Path,
    via: str,
    folder: Path | None,
    drop: Path | None,
    config: Path | None,
    to: str | None,
    clone: Path | None,
    replace: bool,
    path: str | None = None,
) -> str:
    """Put a game in the profile; return the line to print."""
    from arbiter.play import peer_desk, profile

    if not manifest.expanduser().is_file() and via == "mail" and config is not None and not to:
        # A peer game's copy by mail starts empty: its game.json comes from the mailbox.
        peer_desk.fetch_terms(manifest, seat, config)
    read = my_games.read_manifest(manifest)
    if peer_desk.is_peer(read):
        assert read is not None
        stray = {"--folder": folder, "--drop": drop, "--to": to, "--clone": clone, "--path": path}
        peer_settings = peer_desk.settings(manifest, via, config, stray)
        entry = profile.GameEntry(
            game=str(read.get("game")),
            seat=seat,
            key=key.expanduser().resolve(),
            via="peer",
            manifest=manifest.expanduser().resolve(),
            settings=peer_settings,
        )
        profile.add(entry, replace=replace)
        return (
            f"added peer game {entry.game} ({seat}, via {via}): play it with "
            f"`arbiter play {entry.game}`"
        )
    settings: dict[str, str] = {}
    if via == "desk":
        settings["folder"] = str((folder or manifest.resolve().parent).resolve())
        if drop is not None:
            settings["drop"] = str(drop.expanduser().resolve())
    elif via == "mail":
        if config is None or not to:
            raise UsageError("--via mail needs --config (your [smtp] and [imap]) and --to (the desk)")
        settings["config"] = str(config.expanduser().resolve())
        settings["to"] = to
    elif via == "git":
        settings.update(_git_settings(manifest, clone))
        if path is not None:
            settings["path"] = path.strip("/")
    else:
        raise UsageError(f"--via {via!r}: use desk, mail or git")
    if read is None or not isinstance(read.get("game"), str):
        raise UsageError(f"{manifest} is not a game.json: use the one the referee sent")
    entry = profile.GameEntry(
        game=read["game"],
        seat=seat,
        key=key.expanduser().resolve(),
        via=via,
        manifest=manifest.expanduser().resolve(),
        settings=settings,
    )
    profile.add(entry, replace=replace)
    return f"added {entry.game} ({seat}, via {via}): play it with `arbiter play {entry.game}`"


def _git_settings(manifest: Path, clone: Path | None) -> dict[str, str]:
    import subprocess

    where = manifest.expanduser().resolve().parent
    top = clone.expanduser().resolve() if clone is not None else None
    if top is None:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=where,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise UsageError(
                f"{manifest} is not inside a git clone: clone the game's repository and use "
                "the game.json there (or give --clone)"
            )
        top = Path(done.stdout.strip()).resolve()
    try:
        inside = where.relative_to(top)
    except ValueError:
        raise UsageError(f"{manifest} is not inside the clone {top}") from None
    return {"clone": str(top), "path": inside.as_posix()}


__all__ = ["ArbiterError", "add", "check", "choose", "session_for", "terminal"]
