"""Read the players file: one ``name ssh-ed25519 AAAA... [comment]`` per line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from arbiter.core.errors import UsageError
from arbiter.core.formats import SEAT_ID
from arbiter.core.safeio import read_input, shown

MAX_PLAYERS = 1000


@dataclass(frozen=True)
class Player:
    """A player: a seat name, the public key that signs for it, a free comment."""

    name: str
    key: str
    comment: str = ""


def parse(text: str, where: str = "players file") -> list[Player]:
    """Return the players listed in ``text``; refuse bad names, bad keys and duplicates.

    ``#`` starts a comment line; blank lines are ignored. Names become seat ids, so they
    follow the seat id rule (lower-case letter first, then a-z, 0-9, '_' or '-').
    """
    from arbiter.core.signing import read_public_key

    players: list[Player] = []
    names: dict[str, int] = {}
    keys: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        at = f"{where} line {number}"
        parts = line.split(None, 3)
        if len(parts) < 3:
            raise UsageError(f"{at}: expected 'NAME ssh-ed25519 AAAA... [comment]'")
        name, algo, blob = parts[:3]
        if not re.fullmatch(SEAT_ID, name) or name.endswith("\n"):
            raise UsageError(
                f"{at}: name {name[:40]!r} must start with a-z and use a-z, 0-9, '_' or '-' "
                "(at most 32 characters)"
            )
        if name in names:
            raise UsageError(f"{at}: {name} is already listed on line {names[name]}: rename one")
        if not re.fullmatch(r"(ssh|ecdsa|sk)-[a-z0-9@.-]+", algo):
            # Never a path: read_public_key would read a file named by the line.
            raise UsageError(
                f"{at}: {algo[:30]!r} is not a key type: expected 'NAME ssh-ed25519 AAAA...'"
            )
        try:
            key = read_public_key(f"{algo} {blob}")
        except UsageError as exc:
            raise UsageError(f"{at}: {exc.message}") from None
        if key in keys:
            raise UsageError(
                f"{at}: {name} has the same key as line {keys[key]}: each player needs their own key"
            )
        names[name], keys[key] = number, number
        players.append(Player(name, key, parts[3].strip() if len(parts) > 3 else ""))
        if len(players) > MAX_PLAYERS:
            raise UsageError(f"{where}: more than {MAX_PLAYERS} players: split the field")
    return players


def read(path: Path) -> list[Player]:
    """Read and parse a players file (a regular file of at most 1 MiB)."""
    data = read_input(path, f"players file {shown(path)}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(
            f"players file {shown(path)} is not UTF-8 text: save it as UTF-8"
        ) from None
    return parse(text.removeprefix("\ufeff"), f"players file {shown(path)}")
