"""How a player's files travel: ``desk`` (a folder on this machine), ``mail``, ``git``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.play.transports.base import Fetched, Transport

if TYPE_CHECKING:
    from arbiter.play.profile import GameEntry

__all__ = ["Fetched", "Transport", "open_transport"]


def open_transport(entry: GameEntry, key: Path | None = None) -> Transport:
    """The transport of a game in the player's profile (``key``: instead of the entry's).

    Each module is imported only when its game needs it: a desk game loads no mail code.
    """
    settings = entry.settings
    key = key if key is not None else entry.key
    if entry.via == "desk":
        from arbiter.play.transports.desk import DeskTransport

        drop = settings.get("drop")
        return DeskTransport(Path(settings["folder"]), entry.seat, key, Path(drop) if drop else None)
    if entry.via == "mail":
        from arbiter.play.profile import state_dir
        from arbiter.play.transports.mail import MailTransport

        return MailTransport(
            Path(settings["config"]), settings["to"], entry.game, entry.seat, state_dir(entry.game)
        )
    if entry.via == "git":
        from arbiter.play.transports.git import GitTransport

        return GitTransport(Path(settings["clone"]), settings["path"], entry.seat, key)
    from arbiter.core.errors import UsageError

    raise UsageError(f"game {entry.game} is played via {entry.via!r}, which arbiter does not know: use desk, mail or git")
