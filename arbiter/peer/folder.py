"""A peer game as files (docs/peer.md §5.3, §6): the folder every player shares, and the
one secret each keeps to itself.

    GAME/game.json                     the terms (arbiter.peer-game/1)
    GAME/messages/<round>-<seat>.json  each message, signed by its seat (arbiter-peer)

A shared folder (a synced directory, a network share) is the simplest transport: every
player reads all messages and writes only its own. A seat's per-game secret never goes
there: it lives in the player's own folder (``secret_home``), mode 0600, and is written
before the key it stands behind is published.

Loading a game replays every message through a fresh ``PeerGame``: each file's signature
by its seat's key, then the protocol's checks. A file that fails is refused with a
one-line reason naming it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core import registry, schemas, signing
from arbiter.core.canonical import canonical, digest
from arbiter.core.errors import ArbiterError, Tampered, UsageError
from arbiter.core.gamedir import atomic_write, ensure_dir
from arbiter.core.peer import fresh, group
from arbiter.peer import timeouts
from arbiter.peer.protocol import PeerGame
from arbiter.peer.seat import PeerSeat

NAMESPACE = "arbiter-peer"
FORMAT = "arbiter.peer-game/2"
EARLIER = {"arbiter.peer-game/1": "arbiter 0.4.0"}
"""Terms of earlier protocols, by the last release that plays them: their messages are
owed in other rounds (version 2 defers the openings to a seat that does not decide next,
docs/peer-mottainai.md §3.5), so this release can neither continue nor verify them."""
MESSAGE = re.compile(r"(\d{6})-([a-z][a-z0-9_-]{0,31})\.json")


def secret_home() -> Path:
    """Where a player keeps its per-game secrets: $ARBITER_PEER_HOME, else
    $XDG_CONFIG_HOME/arbiter/peer, else ~/.config/arbiter/peer."""
    if os.environ.get("ARBITER_PEER_HOME"):
        return Path(os.environ["ARBITER_PEER_HOME"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "arbiter" / "peer"


def create(
    root: Path,
    game: str,
    engine_name: str,
    raw: dict[str, str],
    seats: dict[str, str],
    dropout: dict[str, Any] | None = None,
    notary: str | None = None,
    addresses: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Write a new peer game's terms into ``root`` (which must not hold a game):
    ``dropout`` ({seconds, remedy}) and the ``notary``'s public key when given."""
    if (root / "game.json").exists():
        raise UsageError(f"{root} already holds a game: choose a new folder")
    engine = registry.get(engine_name)
    if not engine.peer:
        able = ", ".join(n for n in registry.names() if registry.get(n).peer)
        raise UsageError(f"{engine.info.title} cannot be played with no referee yet: choose {able}")
    low, high = engine.info.min_seats, engine.info.max_seats
    if not low <= len(seats) <= high:
        title = engine.info.title
        raise UsageError(
            f"{title} needs {low} to {high} seats, not {len(seats)}: name each with --seat"
        )
    if "notary" in seats:
        raise UsageError("a seat cannot be named notary (the notary is named by --notary)")
    if dropout and dropout["remedy"] == "escrow" and len(seats) == 2 and notary is None:
        raise UsageError(
            "escrow with two seats and no notary would give the other player your whole key: "
            "name a notary (--notary), or use --remedy forfeit"
        )
    if notary is not None and dropout is None:
        raise UsageError("a notary runs deadlines: give --deadline (and --remedy) with --notary")
    terms: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        "nonce": fresh.scalar().hex(),
        "engine": {"name": engine.info.name, "version": engine.info.version},
        "options": engine.parse_options(raw),
        "seats": [{"seat": s, "key": signing.read_public_key(k)} for s, k in seats.items()],
    }
    keys = [entry["key"] for entry in terms["seats"]] + (
        [signing.read_public_key(notary)] if notary is not None else []
    )
    if len(set(keys)) != len(keys):
        # One key for two seats would let one player sign for both (and, under escrow,
        # hold two of the shares of every other seat's secret).
        raise UsageError("two seats (or a seat and the notary) have one key: give each its own")
    given = addresses or {}  # a seat's mail address (--via mail), only when given
    for entry in terms["seats"]:
        if entry["seat"] in given:
            entry["address"] = given[entry["seat"]]
    if notary is not None:
        terms["notary"] = {"key": signing.read_public_key(notary)}
    if dropout is not None:
        terms["dropout"] = dropout
    schemas.validate("peer-game", terms, "game.json")
    atomic_write(root / "game.json", canonical(terms) + b"\n")
    ensure_dir(root / "messages")
    return terms


@dataclass
class Folder:
    """A loaded peer game: its terms, the game its messages made, and one seat's side."""

    root: Path
    terms: dict[str, Any]
    game: PeerGame
    players: dict[str, PeerSeat]
    """The seats whose side this machine holds (one player's own; every seat for verify)."""
    messages: int = 0
    reader: str | None = None
    """The seat reading the folder: it keeps a ledger of every file it has read."""
    ledger: dict[str, str] | None = None
    pending: list[str] = field(default_factory=list)
    """Messages of a later round than the game is at (they came early: they wait)."""
    void: list[str] = field(default_factory=list)
    """Messages a seat sent after its complete timeout (skipped, docs/peer.md §7)."""

    @property
    def player(self) -> PeerSeat | None:
        return next(iter(self.players.values()), None) if len(self.players) == 1 else None

    @property
    def keys(self) -> dict[str, str]:
        return {s["seat"]: s["key"] for s in self.terms["seats"]}

    def check_key(self, seat: str, key: Path) -> None:
        """Refuse a key that is not the seat's, before anything is drawn or written."""
        if signing.public_key_of(key) != self.keys[seat]:
            raise UsageError(
                f"{key} is not {seat}'s key in game.json: sign with the seat's own key"
            )

    def write(
        self,
        message: dict[str, Any],
        key: Path,
        deliver: Callable[[Path, bytes], None] | None = None,
    ) -> Path:
        """Sign ``message`` with the seat's SSH key, have the game take it, and write it
        (atomically, or through ``deliver``: a transport that also sends it, and leaves
        nothing behind if it cannot). Nothing is written if the game refuses it."""
        seat = message["seat"]
        self.check_key(seat, key)
        signed = {**message, "signature": signing.sign(message, key, NAMESPACE)}
        self.game.receive(signed)
        path = self.root / "messages" / f"{signed['round']:06d}-{seat}.json"
        data = canonical(signed) + b"\n"
        if deliver is None:
            atomic_write(path, data)
        else:
            deliver(path, data)
        if self.ledger is not None:
            self.ledger[path.name] = hashlib.sha256(data).hexdigest()
            self.save_ledger()
        return path

    def save_ledger(self) -> None:
        if self.reader is not None and self.ledger is not None:
            body = "".join(f"{name} {sha}\n" for name, sha in self.ledger.items())
            atomic_write(ledger_path(self.terms, self.reader), body.encode(), mode=0o600)


def secret_path(terms: dict[str, Any], seat: str) -> Path:
    return secret_home() / f"{terms['game']}.{seat}.secret"


def ledger_path(terms: dict[str, Any], seat: str) -> Path:
    """The files a seat has read, with their digests (kept beside its secret)."""
    return secret_home() / f"{terms['game']}.{seat}.seen"


def _read_ledger(terms: dict[str, Any], seat: str) -> dict[str, str]:
    path = ledger_path(terms, seat)
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        name, _, sha = line.partition(" ")
        out[name] = sha
    return out


def new_secret(terms: dict[str, Any], seat: str) -> bytes:
    """Draw the seat's per-game secret and save it (0600) before anything publishes it."""
    path = secret_path(terms, seat)
    if path.exists():
        raise UsageError(f"{path} already holds {seat}'s secret for this game")
    secret = fresh.scalar()
    ensure_dir(path.parent, mode=0o700)
    atomic_write(path, secret.hex().encode() + b"\n", mode=0o600)
    return secret


def read_secret(terms: dict[str, Any], seat: str) -> bytes | None:
    path = secret_path(terms, seat)
    if not path.exists():
        return None
    try:
        return group.scalar(bytes.fromhex(path.read_text().strip()), "the saved secret")
    except (ValueError, ArbiterError):
        raise UsageError(f"{path} is not a per-game secret: it was damaged") from None


def is_peer(root: Path) -> bool:
    """Whether ``root`` holds a peer game (its game.json says so)."""
    try:
        terms = json.loads((root / "game.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(terms, dict) and (terms.get("format") == FORMAT or _earlier(terms))


def _earlier(terms: dict[str, Any]) -> bool:
    """Whether ``terms`` are those of an earlier protocol (``format`` may be anything)."""
    found = terms.get("format")
    return isinstance(found, str) and found in EARLIER


def load_terms(root: Path) -> dict[str, Any]:
    """A peer game's game.json, checked against its schema."""
    path = root / "game.json"
    if not path.is_file():
        raise UsageError(
            f"{root} holds no peer game (no game.json): make one with arbiter peer new"
        )
    try:
        terms = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UsageError(f"{path} is not JSON") from None
    if isinstance(terms, dict) and _earlier(terms):
        raise UsageError(
            f"{path} is a game of an earlier peer protocol ({terms['format']}), whose rounds "
            f"differ from this release's: play and verify it with {EARLIER[terms['format']]}"
        )
    if not isinstance(terms, dict) or terms.get("format") != FORMAT:
        raise UsageError(f"{path} is not a peer game's terms")
    schemas.validate("peer-game", terms, str(path))
    return terms


def load(
    root: Path,
    seat: str | None = None,
    secrets: dict[str, bytes] | None = None,
    watch: Callable[[Folder], None] | None = None,
) -> Folder:
    """Read the terms, attach ``seat``'s side (its saved secret) or the sides of every seat
    in ``secrets``, let ``watch`` hook onto the game, and replay every message."""
    terms = load_terms(root)
    path = root / "game.json"
    engine = registry.get(terms["engine"]["name"])
    if engine.info.version != terms["engine"]["version"]:
        raise UsageError(
            f"{path} was made with {engine.info.name} {terms['engine']['version']}, this arbiter "
            f"has {engine.info.version}: use the release the game began with"
        )
    seats = [s["seat"] for s in terms["seats"]]
    if seat is not None and seat not in seats:
        raise UsageError(f"{seat!r} is not a seat of this game ({', '.join(seats)})")
    remedy = (terms.get("dropout") or {}).get("remedy")
    game = PeerGame(
        engine, terms["options"], seats, terms["game"], digest(terms), remedy, "notary" in terms
    )
    # Every seat's side (a stranger's check): each records its views to compare.
    players = {s: PeerSeat(game, s, secret=x, record=True) for s, x in (secrets or {}).items()}
    if seat is not None:
        players = {seat: PeerSeat(game, seat, secret=read_secret(terms, seat))}
    folder = Folder(root, terms, game, players, reader=seat)
    seen = _read_ledger(terms, seat) if seat is not None else {}
    if watch is not None:
        watch(folder)
    read: dict[str, str] = {}
    signed = timeouts.read(root, terms)
    for file, sender in _messages(root, seats):
        timeouts.settle(game, signed)
        data = file.read_bytes()
        read[file.name] = hashlib.sha256(data).hexdigest()
        if file.name in seen and seen[file.name] != read[file.name]:
            raise Tampered(
                f"messages/{file.name} changed since {seat} read it: {sender} sent two "
                "different messages for one round (keep both copies to show it)"
            )
        if int(file.name[:6]) > game.round and not game.over:
            # A later round's message came before the rest of this round (mail, a sync):
            # it waits, unread, until they are in (a forgery is caught then, at its turn).
            folder.pending.append(file.name)
            continue
        if sender in game.out and int(file.name[:6]) >= game.out[sender]:
            folder.void.append(file.name)  # sent after its complete timeout: void (§7)
            continue
        if game.forfeit is not None:
            # The rest of the round a forfeit ended (the others' answers): void too.
            folder.void.append(file.name)
            continue
        try:
            message = json.loads(data.decode("utf-8"))
            if not isinstance(message, dict) or message.get("seat") != sender:
                raise Tampered(f"it is not {sender}'s message, as its name says")
            signing.verify(message, folder.keys[message["seat"]], NAMESPACE)
            game.receive(message)
        except (ValueError, ArbiterError) as error:
            raise Tampered(f"{file.relative_to(root)}: {error}") from None
        folder.messages += 1
    timeouts.settle(game, signed)
    gone = sorted(set(seen) - set(read))
    if gone:
        raise Tampered(
            f"messages/{gone[0]} is gone since {seat} read it: a message is never withdrawn"
        )
    if seat is not None:
        folder.ledger = read
        if read != seen:
            folder.save_ledger()
        if terms.get("dropout") and not game.over:
            # Its clock for deadlines: when it first saw this round open (§7).
            timeouts.opened(secret_home(), terms, seat, game)
    return folder


def _messages(root: Path, seats: list[str]) -> list[tuple[Path, str]]:
    """Every message file with its sender, in round then seat order (the chain's order)."""
    found = []
    for file in (root / "messages").glob("*.json"):
        match = MESSAGE.fullmatch(file.name)
        if match is None or match[2] not in seats:
            raise Tampered(f"messages/{file.name} is no message of this game's seats")
        found.append((int(match[1]), seats.index(match[2]), file, match[2]))
    return [(file, sender) for _, _, file, sender in sorted(found)]
