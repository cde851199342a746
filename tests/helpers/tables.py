"""Build tally games for tests: keys, a game folder, joins, signed moves, snapshots.

Everything is deterministic except the Ed25519 keys (``keygen`` draws them fresh): the
referee secret, the join entropies and the creation time are fixed, so the same seats
always get the same deal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.canonical import canonical, pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_join, make_move
from arbiter.core.referee import Accepted, new_game, submit
from arbiter.core.signing import keygen

CREATED = "2026-01-01T00:00:00Z"
SECRET = bytes(range(32))
SEATS = ("alice", "bob", "carol", "dave")


def entropy(seat: str) -> bytes:
    """Fixed join entropy for ``seat``."""
    return (seat.encode() * 32)[:32]


def make_keys(directory: Path, seats: list[str] | tuple[str, ...]) -> dict[str, Path]:
    """Write one Ed25519 key pair per seat; return seat -> private key path."""
    return {seat: keygen(seat, directory)[0] for seat in seats}


@dataclass
class Table:
    """A tally game folder plus the keys of its seats."""

    root: Path
    keys: dict[str, Path]
    seats: list[str]
    files: Path
    counter: int = field(default=0)

    @property
    def gd(self) -> GameDir:
        return GameDir(self.root)

    # -- reading ------------------------------------------------------------------
    def state(self, seat: str | None = None) -> dict[str, Any]:
        """Return a seat's state file (``None``: the public one)."""
        path = self.gd.public_state if seat is None else self.gd.seat_state(seat)
        return load_state(path)

    def turn(self) -> str:
        """Return the seat whose turn it is."""
        return str(self.state()["prompt"]["seat"])

    def hand(self, seat: str) -> list[int]:
        return list(self.state(seat)["view"]["hand"])

    def manifest(self) -> dict[str, Any]:
        return dict(json.loads(self.gd.manifest.read_text()))

    # -- building -----------------------------------------------------------------
    def join_file(self, seat: str, key: str | None = None) -> dict[str, Any]:
        """Return a signed join file for ``seat`` (signed with ``key``'s key if given)."""
        signer = self.keys[key or seat]
        if key is not None and key != seat:
            # make_join refuses a key that is not the seat's; sign the same object by hand.
            from arbiter.core.signing import NAMESPACE_JOIN, sign

            join = make_join(self.gd.manifest, seat, self.keys[seat], entropy=entropy(seat))
            join["signature"] = sign(join, signer, NAMESPACE_JOIN)
            return join
        return make_join(self.gd.manifest, seat, signer, entropy=entropy(seat))

    def move_file(
        self, seat: str, actions: list[dict[str, Any]], *, state: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Return a move signed by ``seat`` against its current state file's head."""
        return make_move(state if state is not None else self.state(seat), self.keys[seat], actions)

    # -- submitting ---------------------------------------------------------------
    def submit_obj(self, obj: dict[str, Any], what: str | None = None) -> Accepted:
        return self.submit_bytes(pretty(obj), what)

    def submit_bytes(self, data: bytes, what: str | None = None) -> Accepted:
        self.counter += 1
        return submit(self.root, data, what or f"file-{self.counter}.json")

    def play(self, seat: str, *actions: dict[str, Any]) -> Accepted:
        """Build, sign and submit a move by ``seat``."""
        return self.submit_obj(self.move_file(seat, list(actions)))

    def write(self, name: str, obj: dict[str, Any]) -> Path:
        """Write a file outside the game folder (as a player would) and return its path."""
        self.files.mkdir(parents=True, exist_ok=True)
        path = self.files / name
        path.write_bytes(pretty(obj))
        return path

    def snapshot(self) -> dict[str, bytes]:
        return snapshot(self.root)

    # -- playing ------------------------------------------------------------------
    def step(self) -> Accepted:
        """Let the seat on turn take a simple legal decision (play a card, else draw/end)."""
        seat = self.turn()
        legal = self.state(seat)["legal"]
        plays = [a for a in legal if a["kind"] == "play"]
        ends = [a for a in legal if a["kind"] in ("draw", "end")]
        choice = plays[0] if plays and not self.state()["view"]["deck"] else (ends or plays)[0]
        return self.play(seat, choice)

    def play_to_end(self, limit: int = 500) -> None:
        """Play simple legal decisions until the game is over."""
        for _ in range(limit):
            if self.state()["status"] != "playing":
                return
            self.step()
        raise AssertionError("the game did not end")


def snapshot(root: Path) -> dict[str, bytes]:
    """Return {relative path: bytes} of every file under ``root`` (the lock file included)."""
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(Path(root).rglob("*"))
        if path.is_file()
    }


def create(
    tmp: Path,
    seats: int | list[str] = 2,
    *,
    join: bool = True,
    options: dict[str, str] | None = None,
    keys: dict[str, Path] | None = None,
    game_id: str = "tally-test",
    secret: bytes = SECRET,
) -> Table:
    """Create a tally game under ``tmp/game`` with keys under ``tmp/keys`` (no joins yet)."""
    names = list(SEATS[:seats]) if isinstance(seats, int) else list(seats)
    keys = keys if keys is not None else make_keys(tmp / "keys", names)
    pairs = [(seat, str(keys[seat]) + ".pub") for seat in names]
    root = tmp / "game"
    new_game(root, "tally", pairs, options or {}, join=join, game_id=game_id,
             created=CREATED, secret=secret)
    return Table(root, keys, names, tmp / "out")


def started(tmp: Path, seats: int | list[str] = 2, **kwargs: Any) -> Table:
    """Create a tally game and submit every seat's join: the game is being played."""
    table = create(tmp, seats, **kwargs)
    for seat in table.seats:
        table.submit_obj(table.join_file(seat))
    assert table.state()["status"] == "playing"
    return table


def canonical_bytes(obj: dict[str, Any]) -> bytes:
    """The canonical bytes of a file (what the referee stores)."""
    return canonical(obj)


def expect_rejection(
    table: Table, error: type[BaseException], exit_code: int, action: Any, *args: Any
) -> Any:
    """Run ``action(*args)``, expect ``error`` with ``exit_code``, a one-line message and
    an unchanged game folder; return the exception."""
    import pytest

    before = table.snapshot()
    with pytest.raises(error) as info:
        action(*args)
    exc = info.value
    assert type(exc) is error, f"expected {error.__name__}, got {type(exc).__name__}: {exc}"
    assert exc.exit_code == exit_code
    message = exc.message
    assert message and "\n" not in message and "\r" not in message, repr(message)
    assert len(message) < 400, message
    after = table.snapshot()
    assert after.keys() == before.keys(), "files were added or removed by a rejected submission"
    changed = [name for name in before if before[name] != after[name]]
    assert not changed, f"a rejected submission changed {changed}"
    return exc
