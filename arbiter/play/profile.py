"""The player's games: seat, key and transport per game, in ``games.toml`` (XDG config).

    [games."friday"]
    seat = "alice"
    key = "/home/alice/.ssh/arbiter"
    via = "git"
    manifest = "/home/alice/games/friday/games/friday/game.json"
    clone = "/home/alice/games/friday"
    path = "games/friday"

    [games."table"]                   # a peer game (no referee: docs/peer.md)
    seat = "bob"
    key = "/home/bob/.ssh/bob"
    via = "peer"
    manifest = "/home/bob/table/game.json"
    folder = "/home/bob/table"        # the shared folder, or the player's own copy (mail)
    carry = "mail"                    # how it travels: folder, git or mail (as `arbiter peer --via`)
    config = "/home/bob/.arbiter/mail.toml"   # carry = mail only

``$XDG_CONFIG_HOME/arbiter/games.toml`` (default ``~/.config/arbiter``) holds the profile;
``$XDG_STATE_HOME/arbiter/<game>/`` (default ``~/.local/state/arbiter``) what the player's
program keeps per game (a copy of game.json, the outbox, what was seen). Both folders are
0700: the profile names the player's key and mail password file.

The file is read with ``tomllib`` and written by the small emitter below (the standard
library writes no TOML, and the project takes no new dependency for a flat file of
strings); every write replaces the whole file atomically under a lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import subprocess
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from dataclasses import replace as with_changes
from pathlib import Path
from typing import Any

from arbiter.core.errors import ArbiterError, NotReady, UnknownSeat, UsageError
from arbiter.core.gamedir import PRIVATE_DIR, PRIVATE_FILE, atomic_write, ensure_dir
from arbiter.core.safeio import read_input, shown, visible

VIAS = ("desk", "mail", "git", "peer")
# Per transport: the settings it needs, and those it may have. A peer game has no
# referee: its folder travels as `arbiter peer --via` says (``carry``), and by mail with
# the player's own mail settings (``config``).
REQUIRED: dict[str, tuple[str, ...]] = {
    "desk": ("folder",),
    "mail": ("config", "to"),
    "git": ("clone", "path"),
    "peer": ("folder", "carry"),
}
OPTIONAL: dict[str, tuple[str, ...]] = {
    "desk": ("drop",),
    "mail": (),
    "git": (),
    "peer": ("config",),
}
CARRIES = ("folder", "git", "mail")
"""How a peer game's folder travels (``arbiter peer --via``)."""
# Settings that are paths on this machine: stored absolute, so the profile does not
# depend on the folder `arbiter play add` ran in.
PATH_SETTINGS = frozenset({"folder", "drop", "config", "clone"})
_FIELDS = ("seat", "key", "via", "manifest")
# The manifest schema's game id (lower-case letters, digits, '-'): safe as a folder name.
_GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
_MAX_PROFILE = 1024 * 1024


@dataclass(frozen=True)
class GameEntry:
    """One game of the player: which seat, which key, which transport and its settings.

    ``settings`` per ``via``: desk → ``folder`` (the game folder) and optional ``drop``
    (where the referee collects move files); mail → ``config`` (the player's TOML with
    ``[smtp]`` and ``[imap]``) and ``to`` (the desk's address); git → ``clone`` (the
    player's clone) and ``path`` (the game folder inside the repository); peer (a game
    with no referee) → ``folder`` (the shared folder, or by mail the player's own copy),
    ``carry`` (folder, git or mail) and, by mail, ``config``.
    """

    game: str
    seat: str
    key: Path
    via: str
    manifest: Path
    settings: dict[str, str] = field(default_factory=dict)


# -- where -------------------------------------------------------------------------


def _xdg(variable: str, default: str) -> Path:
    """An XDG base folder: the variable when it holds an absolute path (the spec says a
    relative one is to be ignored), else the default below the home folder."""
    value = os.environ.get(variable, "")
    return Path(value) if value and os.path.isabs(value) else Path.home() / default


def config_path() -> Path:
    """``$XDG_CONFIG_HOME/arbiter/games.toml`` (default ``~/.config/arbiter/games.toml``)."""
    return _xdg("XDG_CONFIG_HOME", ".config") / "arbiter" / "games.toml"


def state_dir(game: str) -> Path:
    """``$XDG_STATE_HOME/arbiter/<game>/`` (default ``~/.local/state/arbiter/<game>``),
    created 0700 (with ``arbiter/`` above it) if missing."""
    check_game_id(game)
    base = _xdg("XDG_STATE_HOME", ".local/state") / "arbiter"
    ensure_dir(base, PRIVATE_DIR)
    folder = base / game
    ensure_dir(folder, PRIVATE_DIR)
    return folder


def check_game_id(game: str) -> str:
    """Return ``game`` if it is a game id (it names a folder), else raise ``UsageError``."""
    if not _GAME_ID.fullmatch(game):
        raise UsageError(
            f"{visible(game)[:80]!r} is not a game id (lower-case letters, digits and '-'): "
            "use the id in the game's game.json"
        )
    return game


# -- reading -----------------------------------------------------------------------


def load() -> dict[str, GameEntry]:
    """Return the player's games by id, sorted by id (none when there is no profile)."""
    path = config_path()
    try:
        data = read_input(path, f"profile {shown(path)}", _MAX_PROFILE)
    except NotReady:
        return {}
    return _parse(data, path)


def _parse(data: bytes, path: Path) -> dict[str, GameEntry]:
    where = shown(path)
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{where} is not valid TOML ({exc}): fix or remove that file") from None
    unknown = sorted(set(raw) - {"games"})
    if unknown:
        raise UsageError(f"{where}: unknown table or key {visible(unknown[0])[:40]!r}: only [games.\"ID\"] tables belong there")
    games = raw.get("games", {})
    if not isinstance(games, dict):
        raise UsageError(f'{where}: games must be tables [games."ID"]: fix that file')
    base = path.parent
    entries = {}
    for game in sorted(games):
        entries[game] = _entry(game, games[game], base, where)
    return entries


def _entry(game: str, table: Any, base: Path, where: str) -> GameEntry:
    shown_id = visible(game)[:63]
    if not _GAME_ID.fullmatch(game) or not isinstance(table, dict):
        raise UsageError(f'{where}: [games."{shown_id}"] is not a game table with a game id: fix that file')
    for key, value in table.items():
        if not isinstance(value, str):
            raise UsageError(f'{where}: games."{shown_id}".{visible(key)[:40]} must be a string: fix that file')
    missing = [name for name in _FIELDS if name not in table]
    if missing:
        raise UsageError(f'{where}: games."{shown_id}" has no {missing[0]}: add it, or add the game again')
    via = table["via"]
    if via not in VIAS:
        raise UsageError(f'{where}: games."{shown_id}".via must be one of {", ".join(VIAS)}, not {visible(via)[:20]!r}')
    allowed = {*_FIELDS, *REQUIRED[via], *OPTIONAL[via]}
    for key in table:
        if key not in allowed:
            raise UsageError(
                f'{where}: unknown key games."{shown_id}".{visible(key)[:40]} for via {via}: '
                f"allowed are {', '.join(sorted(allowed))}"
            )
    for key in REQUIRED[via]:
        if not table.get(key):
            raise UsageError(f'{where}: games."{shown_id}" (via {via}) has no {key}: add the game again')
    if via == "peer":
        _check_carry(table["carry"], table.get("config"), f'{where}: games."{shown_id}"')
    settings = {
        key: str(_path(value, base)) if key in PATH_SETTINGS else value
        for key, value in table.items()
        if key not in _FIELDS
    }
    return GameEntry(
        game=game,
        seat=table["seat"],
        key=_path(table["key"], base),
        via=via,
        manifest=_path(table["manifest"], base),
        settings=settings,
    )


def _path(text: str, base: Path) -> Path:
    path = Path(text).expanduser()
    return path if path.is_absolute() else base / path


# -- writing -----------------------------------------------------------------------


def add(entry: GameEntry, replace: bool = False) -> GameEntry:
    """Check ``entry`` and add it to the profile (``replace``: over an entry of the same
    game); keep a copy of its game.json in the game's state folder. Return the entry as
    stored (paths made absolute).

    Checked: the game.json parses and validates and is this game's, the seat is in it,
    the key is the seat's (when its public half can be told), the transport is known and
    its settings are there and plausible. Raises one ``ArbiterError`` line otherwise.
    """
    check_game_id(entry.game)
    stored = _absolute(entry)
    manifest, manifest_bytes = _check_manifest(stored)
    _check_seat_and_key(stored, manifest)
    _check_settings(stored)
    with _locked():
        games = load()
        if stored.game in games and not replace:
            raise UsageError(
                f"game {stored.game} is already in {shown(config_path())}: "
                "add it again with --replace to change it"
            )
        games[stored.game] = stored
        # The copy first: a profile entry always has its game.json beside its state.
        atomic_write(state_dir(stored.game) / "game.json", manifest_bytes, mode=PRIVATE_FILE)
        _write(games)
    return stored


def remove(game: str) -> GameEntry:
    """Take ``game`` out of the profile and return its entry. Its state folder stays: it
    may hold a move not yet delivered."""
    with _locked():
        games = load()
        if game not in games:
            raise UsageError(
                f"game {visible(game)[:63]} is not in {shown(config_path())}: "
                "`arbiter play --check` lists your games"
            )
        removed = games.pop(game)
        _write(games)
    return removed


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    """Hold an exclusive lock beside games.toml: two `play add` at once both land."""
    folder = config_path().parent
    ensure_dir(folder, PRIVATE_DIR)
    fd = os.open(folder / ".games.toml.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _write(games: dict[str, GameEntry]) -> None:
    path = config_path()
    ensure_dir(path.parent, PRIVATE_DIR)
    atomic_write(path, dumps(games).encode("utf-8"), mode=PRIVATE_FILE)


def dumps(games: dict[str, GameEntry]) -> str:
    """The profile as TOML text: one ``[games."ID"]`` table per game, sorted by id."""
    out = ["# arbiter play's games: `arbiter play add` writes this file.\n"]
    for game in sorted(games):
        entry = games[game]
        out.append(f"\n[games.{toml_string(game)}]\n")
        values = {
            "seat": entry.seat,
            "key": str(entry.key),
            "via": entry.via,
            "manifest": str(entry.manifest),
            **{k: entry.settings[k] for k in sorted(entry.settings)},
        }
        for key, value in values.items():
            out.append(f"{key} = {toml_string(value)}\n")
    return "".join(out)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quotes, backslashes and every control character
    escaped (TOML 1.0 allows none raw in a basic string), so any path round-trips."""
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        elif 0xD800 <= ord(char) <= 0xDFFF:  # a lone surrogate (a path's undecodable byte)
            raise UsageError(f"{visible(text)[:80]!r} is not valid Unicode: rename it")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


# -- checks ------------------------------------------------------------------------


def _absolute(entry: GameEntry) -> GameEntry:
    """The entry with its paths absolute (``~`` expanded), as it will be stored."""

    def full(path: Path | str) -> Path:
        return Path(os.path.abspath(Path(path).expanduser()))

    settings = {
        key: str(full(value)) if key in PATH_SETTINGS and value else value
        for key, value in entry.settings.items()
    }
    return with_changes(entry, key=full(entry.key), manifest=full(entry.manifest), settings=settings)


def _check_manifest(entry: GameEntry) -> tuple[dict[str, Any], bytes]:
    from arbiter.core.canonical import parse_strict
    from arbiter.core.ledger import manifest_schema
    from arbiter.core.schemas import validate
    from arbiter.peer.folder import FORMAT as PEER

    where = shown(entry.manifest)
    data = read_input(entry.manifest, f"game.json {where}")
    manifest = parse_strict(data, "game.json")
    peer = isinstance(manifest, dict) and manifest.get("format") == PEER
    if peer != (entry.via == "peer"):
        raise UsageError(
            f"{where} is a peer game's game.json (no referee): add it with --via folder, git or mail"
            if peer
            else f"{where} is a refereed game's game.json: add it with --via desk, mail or git"
        )
    # A refereed game's manifest (version 1 as make_join accepts), or a peer game's terms.
    validate("peer-game" if peer else manifest_schema(manifest), manifest, where)
    if manifest["game"] != entry.game:
        raise UsageError(
            f"{where} is the game.json of game {manifest['game']}, not {entry.game}: "
            "give that game's id, or the game.json of the game you mean"
        )
    return manifest, data


def _check_seat_and_key(entry: GameEntry, manifest: dict[str, Any]) -> None:
    from arbiter.core.player import check_key
    from arbiter.core.signing import public_key_of

    keys = {s["seat"]: s["key"] for s in manifest["seats"]}
    if entry.seat not in keys:
        raise UnknownSeat(
            f"seat {visible(entry.seat)[:32]!r} is not in game {entry.game} "
            f"(seats: {', '.join(keys)}): give your own seat"
        )
    if not entry.key.is_file():
        raise UsageError(f"key file {shown(entry.key)} not found: give your private key with --key")
    check_key(entry.key, keys[entry.seat], entry.seat)  # the .pub beside it, if any
    try:
        mine = public_key_of(entry.key)
    except UsageError:
        if entry.via == "peer":
            raise  # `arbiter peer` checks the key before each message: it needs the .pub
        return  # a key in an agent or behind a passphrase, without a .pub: told at signing
    if mine.split()[:2] != keys[entry.seat].split()[:2]:
        raise UsageError(
            f"{shown(entry.key)} is not the key registered for seat {entry.seat}: use that seat's key"
        )


def _check_settings(entry: GameEntry) -> None:
    via, settings = entry.via, entry.settings
    if via not in VIAS:
        raise UsageError(f"--via must be one of {', '.join(VIAS)}, not {visible(via)[:20]!r}")
    for key in REQUIRED[via]:
        if not settings.get(key):
            raise UsageError(f"a game played via {via} needs --{key}: {_WHAT[key]}")
    allowed = {*REQUIRED[via], *OPTIONAL[via]}
    for key in settings:
        if key not in allowed:
            raise UsageError(
                f"--{visible(key)[:20]} does not belong to a game played via {via}: "
                f"it takes {', '.join('--' + k for k in sorted(allowed))}"
            )
    checks = {"desk": _check_desk, "mail": _check_mail, "git": _check_git, "peer": _check_peer}
    checks[via](entry)


_WHAT = {
    "folder": "give the game folder",
    "config": "give your mail settings (a TOML file with [smtp] and [imap])",
    "to": "give the desk's mail address",
    "clone": "give your clone of the game's repository",
    "path": "give the game's folder inside the repository (e.g. games/friday)",
    "carry": "give how a peer game's folder travels (folder, git or mail)",
}


def _check_desk(entry: GameEntry) -> None:
    folder = Path(entry.settings["folder"])
    if not (folder / "game.json").is_file():
        raise UsageError(f"{shown(folder)} is not a game folder (no game.json): give the game's folder")
    _same_game(folder / "game.json", entry)
    drop = entry.settings.get("drop")
    if drop:
        if not Path(drop).is_dir():
            raise UsageError(f"drop folder {shown(drop)} does not exist: create it, or give the one the referee collects from")
    elif not referee_here(folder):
        raise UsageError(
            f"{shown(folder)} holds no referee/ folder you can use: give --drop, the folder "
            "the referee collects move files from"
        )


def referee_here(folder: Path) -> bool:
    """Whether ``folder`` is the referee's own copy and readable by this user (a
    kitchen-table game: the player submits directly)."""
    referee = folder / "referee"
    return (
        referee.is_dir()
        and os.access(referee, os.R_OK | os.X_OK)
        and (referee / "secret").is_file()
        and os.access(referee / "secret", os.R_OK)
    )


def _check_mail(entry: GameEntry) -> None:
    from arbiter.desks.mail.addresses import normalise
    from arbiter.play.transports.mail import load_player_config

    load_player_config(Path(entry.settings["config"]))
    normalise(entry.settings["to"])


def _check_git(entry: GameEntry) -> None:
    clone = Path(entry.settings["clone"])
    inside = entry.settings["path"]
    parts = inside.split("/")
    if inside.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise UsageError(
            f"--path {visible(inside)[:80]!r} must be the game's folder relative to the "
            "repository's top, e.g. games/friday"
        )
    if not clone.is_dir():
        raise UsageError(f"{shown(clone)} does not exist: clone the game's repository there first")
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=clone, capture_output=True, timeout=60,
            check=False,
        )
    except FileNotFoundError:
        raise UsageError("git is not installed: install it to play through git") from None
    except subprocess.TimeoutExpired:
        raise NotReady(f"git did not answer in {shown(clone)}: try again") from None
    top = done.stdout.decode("utf-8", "surrogateescape").strip()
    if done.returncode != 0 or Path(top).resolve() != clone.resolve():
        raise UsageError(f"{shown(clone)} is not the top of a git clone: give the folder `git clone` made")
    if not (clone / inside / "game.json").is_file():
        raise UsageError(
            f"{shown(clone / inside)} has no game.json: give --path, the game's folder in the "
            "repository (pull first if the desk has not published it yet)"
        )
    _same_game(clone / inside / "game.json", entry)


def _check_carry(carry: str, config: str | None, where: str) -> None:
    """A peer game's ``carry`` is one of ``arbiter peer --via``'s, and mail alone takes
    the player's mail settings (``config``), which it needs."""
    if carry not in CARRIES:
        raise UsageError(
            f"{where}: a peer game travels via {', '.join(CARRIES)}, not {visible(carry)[:20]!r}"
        )
    if carry == "mail" and not config:
        raise UsageError(
            f"{where}: a peer game by mail needs --config, your mail settings ([imap], your "
            "own mailbox, and [smtp])"
        )
    if carry != "mail" and config:
        raise UsageError(f"{where}: --config goes with a peer game by mail: leave it out")


def _check_peer(entry: GameEntry) -> None:
    """The folder holds this very game, and its transport can be set up (a git folder is
    in a clone; mail settings read): what `arbiter peer` would refuse, refused now."""
    from arbiter.cli.peer_via import Via

    settings = entry.settings
    _check_carry(settings["carry"], settings.get("config"), f"game {entry.game}")
    folder = Path(settings["folder"])
    _same_game(folder / "game.json", entry)
    config = settings.get("config")
    Via(folder, settings["carry"], entry.seat, Path(config) if config else None)


def _same_game(path: Path, entry: GameEntry) -> None:
    """The transport's game.json must be the one the entry was added from (compared by
    digest: a copy re-indented on the way is still the same game)."""
    from arbiter.core.canonical import digest, parse_strict

    try:
        theirs = digest(parse_strict(read_input(path, f"game.json {shown(path)}"), "game.json"))
        mine = digest(parse_strict(read_input(entry.manifest), "game.json"))
    except ArbiterError as exc:
        raise UsageError(f"{exc.message}: give the game's own folder") from None
    if theirs != mine:
        raise UsageError(
            f"{shown(path)} is not the game.json you gave ({shown(entry.manifest)}): "
            "give that game's own folder"
        )
