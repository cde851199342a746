"""The tournament folder: ``tournament.json`` (format ``arbiter.tournament/2``), the signed
``record.jsonl`` (``arbiter.tournament.record``) and games/.

``T/`` is the organiser's private folder: each game under ``T/games/r<R>-t<K>/`` has its
own ``referee/`` folder with that game's secret. ``tournament.json`` holds the terms fixed
at ``tournament new`` (engine, options, pairing format, rounds, table size, players and
their keys, deadline terms) and every round paired so far. It is replaced atomically,
under a lock on ``T/.lock``, so a crash leaves the old file or the new one. Since format 2
it is the organiser's working copy of what ``record.jsonl`` signs (docs/tournament-record.md):
``tournament verify`` rebuilds it from the record. A format-1 folder has no record.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from arbiter.core.errors import NotReady, SchemaViolation, UsageError
from arbiter.core.models import Strict

TOURNAMENT_FORMAT: Literal["arbiter.tournament/2"] = "arbiter.tournament/2"
TOURNAMENT_FORMAT_1 = "arbiter.tournament/1"
FORMATS = (TOURNAMENT_FORMAT, TOURNAMENT_FORMAT_1)
FILE = "tournament.json"
GAMES = "games"
LOCK = ".lock"
# The game ids <id>-r<R>-t<K> must stay within the 63 characters of a game id.
TOURNAMENT_ID = r"^[a-z0-9][a-z0-9-]{0,47}$"
MAX_ROUNDS = 99
MAX_TABLES = 999


class Entrant(Strict):
    """A player as the players file listed them."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,31}$")
    """The player's seat id in every game."""
    key: str = Field(max_length=2048)
    """Public key, ``<type> <base64>``."""
    comment: str = Field(default="", max_length=200)
    """The rest of the players file's line (not used by arbiter)."""
    entered: int | None = Field(default=None, ge=2, le=MAX_ROUNDS)
    """A late entry: the first round the player is paired in (None: from round 1)."""
    dropped: int | None = Field(default=None, ge=2, le=MAX_ROUNDS)
    """A drop: the first round the player is no longer paired in (None: plays on)."""

    def plays_in(self, round_number: int) -> bool:
        """Whether the player is paired in that round."""
        return (self.entered is None or self.entered <= round_number) and (
            self.dropped is None or round_number < self.dropped
        )


class Terms(Strict):
    """Deadline terms every game of the tournament is created with (none: no clock)."""

    deadline: int | None
    """Seconds per decision, or null for no deadline."""
    grace: int = Field(ge=0)
    on_timeout: Literal["pass", "bot", "forfeit"]
    forfeit_after: int | None = Field(default=None, ge=1, le=1000)
    """After this many timeouts of one player in a row, the next one forfeits."""


class Table(Strict):
    """One game of a round."""

    table: int = Field(ge=1, le=MAX_TABLES)
    game: str
    """The game id, ``<tournament>-r<R>-t<K>``."""
    folder: str
    """The game folder relative to the tournament folder, ``games/r<R>-t<K>``."""
    seats: list[str] = Field(min_length=1)
    """Player names in seat (turn) order."""
    manifest: str | None = None
    """sha256 of the game's ``game.json`` bytes, once created (format 2)."""


class Deal(Strict):
    """A duplicate group of a round: its tables of one size play the same deal
    (docs/duplicate.md); the group secret is kept in ``T/organiser/deals/<group>``."""

    group: str
    """``<tournament>-r<R>-s<seats>``."""
    seats: int = Field(ge=2, le=16)
    commitment: str
    """sha256("arbiter-commit/1" ‖ group secret), in each of the group's game.json too."""
    games: list[str] = Field(min_length=1)
    """The group's game ids in table order."""


class Round(Strict):
    """A paired round: its tables and the players who sit out (byes)."""

    round: int = Field(ge=1, le=MAX_ROUNDS)
    paired: str
    """When the round was paired (the organiser's clock, UTC)."""
    tables: list[Table]
    byes: list[str]
    seed: str | None = None
    """The round seed that ordered the pairing's exact ties (format 2)."""
    deals: list[Deal] = Field(default_factory=list)
    """A duplicate tournament's groups, one per table size (empty otherwise)."""


class Tournament(Strict):
    """The whole of ``tournament.json``."""

    format: Literal["arbiter.tournament/2", "arbiter.tournament/1"]
    id: str = Field(pattern=TOURNAMENT_ID)
    engine: str
    """Engine name (see ``arbiter games``)."""
    options: dict[str, str]
    """Engine options as given (``--option K=V``), passed to every game."""
    pairing: Literal["round-robin", "swiss"]
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    """How many rounds the tournament has."""
    table_size: int = Field(ge=2, le=16)
    """The usual table size; tables of one more or one less when the field does not divide."""
    players: list[Entrant] = Field(min_length=2)
    terms: Terms
    created: str
    organiser: str | None = None
    """The organiser's public key, which signs ``record.jsonl`` (format 2)."""
    schedule: list[Round] = Field(default_factory=list)
    """The rounds paired so far, in order."""
    finished: bool = False
    """The last round's results are recorded (``tournament finish``)."""
    duplicate: bool = False
    """Every round's tables of one size play the same deal, scored by matchpoints
    (``tournament new --duplicate``, docs/duplicate.md)."""
    tiebreaks: list[str] = Field(default_factory=lambda: ["opponents-points", "game-score"])
    """The standings' tie-breaks after points, in order (format 2 chooses them;
    ``arbiter.tournament.tiebreaks``)."""

    @property
    def recorded(self) -> bool:
        """Format 2: the organiser signs every decision in ``record.jsonl``."""
        return self.format == TOURNAMENT_FORMAT

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def table_folder(self, root: Path, table: Table) -> Path:
        return root / table.folder


def game_folder(round_number: int, table: int) -> str:
    return f"{GAMES}/r{round_number}-t{table}"


def game_id(tournament_id: str, round_number: int, table: int) -> str:
    return f"{tournament_id}-r{round_number}-t{table}"


def slug(name: str) -> str:
    """Return a tournament id made from a folder name."""
    made = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")[:48].strip("-")
    return made or "tournament"


def check_id(text: str) -> str:
    if not re.fullmatch(TOURNAMENT_ID, text) or text.endswith("\n"):
        raise UsageError(
            f"tournament id {text[:60]!r} must be lower-case letters, digits and '-', "
            "at most 48 characters: pass --id"
        )
    return text


def load(root: Path) -> Tournament:
    """Read and check ``root/tournament.json``."""
    from arbiter.core.ledger import read_json
    from arbiter.core.safeio import shown

    path = root / FILE
    if not path.exists() and not path.is_symlink():
        raise NotReady(
            f"{shown(root)} is not a tournament folder (no {FILE}): "
            "create one with `arbiter tournament new`"
        )
    data = read_json(path, FILE)
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        found = data.get("format") if isinstance(data, dict) else None
        raise SchemaViolation(
            f"{shown(path)} has format {str(found)[:40]!r}, not {TOURNAMENT_FORMAT}: "
            "use a tournament folder made by `arbiter tournament new`"
        )
    try:
        return Tournament.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the file"
        raise SchemaViolation(f"{shown(path)}: {where}: {first['msg']}") from None


def save(root: Path, tournament: Tournament) -> None:
    """Replace ``root/tournament.json`` atomically."""
    from arbiter.core.canonical import pretty
    from arbiter.core.gamedir import atomic_write

    data = tournament.model_dump(mode="json")
    if not tournament.duplicate:
        # Written only by duplicate tournaments: the others' files stay as they were.
        data.pop("duplicate")
        for played in data["schedule"]:
            played.pop("deals")
    if not tournament.recorded:
        # A format-1 folder keeps the fields it always had (an older arbiter reads it).
        for key in ("organiser", "finished", "tiebreaks"):
            data.pop(key)
        for player in data["players"]:
            player.pop("entered")
            player.pop("dropped")
        for played in data["schedule"]:
            played.pop("seed")
            for table in played["tables"]:
                table.pop("manifest")
    atomic_write(root / FILE, pretty(data))


@contextlib.contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold the organiser's exclusive lock on the tournament folder."""
    if not (root / FILE).exists():
        load(root)  # says, in one line, that this is no tournament folder
    fd = os.open(root / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
