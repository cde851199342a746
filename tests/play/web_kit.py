"""The web page tests' kit: a real 2-player game folder and a test-only transport over it.

``FolderTransport`` is a stand-in used only by these tests until the product's
``arbiter.play.transports.desk.DeskTransport`` lands on main: it is kept deliberately
small. Fetch reads the seat's own ``players/<seat>/state.json`` and ``log.md`` from the
real folder; deliver judges the signed bytes with the real referee
(``arbiter.core.referee.submit``), exactly as ``arbiter submit`` does. Nothing here
reads the referee's secret or another seat's files.
"""

from __future__ import annotations

import atexit
import hashlib
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arbiter.core.errors import NotReady
from arbiter.core.gamedir import GameDir
from arbiter.play.transports.base import Fetched, Transport

CREATED = "2026-01-01T00:00:00Z"
ENGINE = "momiji"
"""The shortest 2-player engine here (Mot Coin seats 3 to 5)."""


class FolderTransport(Transport):
    """Test-only: the seat's files from a game folder on this machine; delivery is
    ``arbiter submit`` in process. Counts deliveries so tests can tell none happened."""

    name = "test-folder"

    def __init__(self, root: Path, seat: str):
        self.root, self.seat = Path(root), seat
        self.delivered: list[str] = []

    def fetch(self) -> Fetched:
        gd = GameDir(self.root)
        state_path, log_path = gd.seat_state(self.seat), gd.seat_log(self.seat)
        try:
            state = state_path.read_bytes()
        except FileNotFoundError:
            raise NotReady(f"{state_path} does not exist yet") from None
        log = log_path.read_text(encoding="utf-8") if log_path.exists() else None
        return Fetched(state, log, None, str(state_path.relative_to(self.root.parent)))

    def deliver(self, name: str, data: bytes) -> str:
        from arbiter.core.referee import submit

        accepted = submit(self.root, data, name)
        self.delivered.append(name)
        return f"submitted to {self.root.name} as entry #{accepted.seq}"


@dataclass
class Game:
    """A started game: its folder and each seat's private key."""

    root: Path
    keys: dict[str, Path]

    @property
    def seats(self) -> list[str]:
        return list(self.keys)

    def transport(self, seat: str) -> FolderTransport:
        return FolderTransport(self.root, seat)


_MADE: dict[tuple[str, str], Path] = {}
"""Games already made in this test process (their folders are copied, not made again)."""


def started_game(folder: Path, seed: str = "web-tests", engine: str = ENGINE) -> Game:
    """A 2-player game under ``folder`` (keys in ``folder/keys``, the game in
    ``folder/game``) with both joins accepted; the same seed deals the same game."""
    made = _MADE.get((seed, engine))
    if made is None or not made.is_dir():
        made = Path(tempfile.mkdtemp(prefix="arbiter-web-kit-"))
        atexit.register(shutil.rmtree, made, True)
        _make(made, seed, engine)
        _MADE[(seed, engine)] = made
    shutil.copytree(made, folder, dirs_exist_ok=True)
    return Game(folder / "game", {s: folder / "keys" / s for s in SEATS})


SEATS = ("alice", "bob")


def _make(folder: Path, seed: str, engine: str) -> None:
    from arbiter.core.canonical import pretty
    from arbiter.core.player import make_join
    from arbiter.core.referee import new_game, submit
    from arbiter.core.signing import keygen

    def derive(label: str) -> bytes:
        return hashlib.sha256(f"arbiter-web-tests\x00{seed}\x00{label}".encode()).digest()

    seats = list(SEATS)
    keys = {s: keygen(s, folder / "keys", seed=derive(f"key:{s}"))[0] for s in seats}
    root = folder / "game"
    new_game(
        root,
        engine,
        [(s, str(folder / "keys" / f"{s}.pub")) for s in seats],
        {},
        join=True,
        created=CREATED,
        game_id="web-" + hashlib.sha256(seed.encode()).hexdigest()[:8],
        secret=derive("secret"),
        referee_seed=derive("referee"),
    )
    gd = GameDir(root)
    for seat in seats:
        submit(root, pretty(make_join(gd.manifest, seat, keys[seat])), f"join-{seat}.json")
