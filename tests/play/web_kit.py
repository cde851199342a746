"""The web page tests' kit: a real 2-player game folder and a test-only transport over it.

``FolderTransport`` is a stand-in used only by these tests until the product's
``arbiter.play.transports.desk.DeskTransport`` lands on main: it is kept deliberately
small. Fetch reads the seat's own ``players/<seat>/state.json`` and ``log.md`` from the
real folder; deliver judges the signed bytes with the real referee
(``arbiter.core.referee.submit``), exactly as ``arbiter submit`` does. Nothing here
reads the referee's secret or another seat's files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arbiter.core.errors import NotReady
from arbiter.core.gamedir import GameDir
from arbiter.play.transports.base import Fetched, Transport

from .kit import real_game

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


def started_game(folder: Path, game_id: str = "play-web") -> Game:
    """A 2-player game under ``folder`` (keys in ``folder/keys``, the game in
    ``folder/game``), both seats joined (``kit.real_game``: the same id deals the same)."""
    table = real_game(folder, ENGINE, 2, game_id=game_id)
    return Game(table.root, dict(table.keys))
