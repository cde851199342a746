"""Build tally games for tests: keys, a game folder, joins, signed moves, snapshots.

The referee secret, the keys (and so the join entropies) and the creation time are
fixed, so the same seats and options always get the same deal. ``started`` builds each kind of game once
per test process and copies it (keys included) into the test's folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arbiter.core.canonical import pretty
from arbiter.core.gamedir import GameDir
from arbiter.core.player import load_state, make_join, make_move
from arbiter.core.referee import Accepted, new_game, submit
from arbiter.core.signing import keygen

CREATED = "2026-01-01T00:00:00Z"
SECRET = bytes(range(32))
SEATS = ("alice", "bob", "carol", "dave")


REFEREE_SEED = b"tests: the referee"


def make_keys(directory: Path, seats: list[str] | tuple[str, ...]) -> dict[str, Path]:
    """Write one Ed25519 key pair per seat, the same on every run (joins derive their
    entropy from the key, so fixed keys give a fixed deal); return seat -> private key."""
    return {seat: keygen(seat, directory, seed=f"tests: {seat}".encode())[0] for seat in seats}


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
    def join_file(self, seat: str) -> dict[str, Any]:
        """Return ``seat``'s signed join file (its entropy follows from its key)."""
        return make_join(self.gd.manifest, seat, self.keys[seat])

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
    new_game(
        root,
        "tally",
        pairs,
        options or {},
        join=join,
        game_id=game_id,
        created=CREATED,
        secret=secret,
        referee_seed=REFEREE_SEED,
    )
    return Table(root, keys, names, tmp / "out")


def started(tmp: Path, seats: int | list[str] = 2, **kwargs: Any) -> Table:
    """Create a tally game and submit every seat's join: the game is being played.

    The folder is built once per set of arguments and copied (keys included), so tests
    do not pay for key generation and the referee's fsyncs each time.
    """
    if kwargs.get("keys") is None:
        names = list(SEATS[:seats]) if isinstance(seats, int) else list(seats)
        opts = tuple(sorted((kwargs.get("options") or {}).items()))
        cache_key = (
            "started",
            tuple(names),
            opts,
            tuple(sorted((k, v) for k, v in kwargs.items() if k not in ("options", "keys"))),
        )

        def build(base: Path) -> None:
            _started(base, names, **kwargs)

        from_template(cache_key, tmp, build)
        keys = {seat: tmp / "keys" / seat for seat in names}
        table = Table(tmp / "game", keys, names, tmp / "out")
        assert table.state()["status"] == "playing"
        return table
    return _started(tmp, seats, **kwargs)


def _started(tmp: Path, seats: int | list[str] = 2, **kwargs: Any) -> Table:
    table = create(tmp, seats, **kwargs)
    for seat in table.seats:
        table.submit_obj(table.join_file(seat))
    assert table.state()["status"] == "playing"
    return table


_TEMPLATES: dict[Any, Path] = {}
_TEMPLATE_ROOT: list[Path] = []


def from_template(key: Any, dest: Path, build: Callable[[Path], None]) -> None:
    """Copy into ``dest`` what ``build(folder)`` made in an empty folder (once per ``key``).

    Templates live in a temporary folder removed when the test process exits.
    """
    import atexit
    import shutil
    import tempfile

    if key not in _TEMPLATES:
        if not _TEMPLATE_ROOT:
            root = Path(tempfile.mkdtemp(prefix="arbiter-templates-"))
            atexit.register(shutil.rmtree, root, True)
            _TEMPLATE_ROOT.append(root)
        folder = _TEMPLATE_ROOT[0] / f"t{len(_TEMPLATES)}"
        folder.mkdir()
        build(folder)
        _TEMPLATES[key] = folder
    shutil.copytree(_TEMPLATES[key], dest, dirs_exist_ok=True, symlinks=True)


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
