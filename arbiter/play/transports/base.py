"""What every transport gives the player's session: the seat's newest files, and delivery.

A transport never decides anything about the game: it fetches bytes (the seat's state
file, opened if sealed, and its log) and delivers a signed file's bytes. Failures are one
``ArbiterError`` line that says what to do (``NotReady`` for a server or remote that is
down or refuses, ``UsageError`` for a setting that is wrong); nothing is half-sent.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass(frozen=True)
class Fetched:
    """The seat's newest files as the transport holds them.

    ``state``: the state file's bytes (decrypted when sealed; the session validates them).
    ``log``: the seat's ``log.md`` text, or ``None`` when the transport has none.
    ``time``: the referee's clock reading of the last entry (``YYYY-MM-DDTHH:MM:SSZ``) when
    the transport knows it (the chain's last entry, or the state mail's date), else ``None``.
    ``where``: a few words for messages ("g1/players/alice/state.json", "mail of …").
    """

    state: bytes
    log: str | None
    time: str | None
    where: str


class Transport(ABC):
    """One game's way in and out for one seat."""

    name: str = ""
    sealed: bool = False
    """Whether a signed file travels sealed to the referee (a shared repository: nobody
    else may read it). The outbox keeps it plain; it is sealed on its way out."""

    @abstractmethod
    def fetch(self) -> Fetched:
        """Return the seat's newest state file (and log); raise ``NotReady`` when there is
        none yet (the game waits for joins the referee has not received) or the transport
        cannot be reached."""

    @abstractmethod
    def deliver(self, name: str, data: bytes) -> str:
        """Deliver a signed file (a move or a join) as ``name``; return one line saying
        where it went ("submitted to g1 as entry #7", "mailed to referee@…", "pushed to
        origin/main as games/g1/inbox/…"). Raises, having delivered nothing, on failure."""

    def close(self) -> None:  # noqa: B027 (optional: transports holding a connection)
        """Release connections; the session calls it when it ends."""


def plain_name(name: str) -> str:
    """Return ``name`` if it is a plain file name a transport may write (no folder, not
    hidden, printable, at most 200 characters), else raise ``UsageError``.

    Every transport writes the name it is given into a folder (the drop folder, the
    repository's inbox, the outbox): a name that climbs out or hides itself is refused.
    """
    import re

    from arbiter.core.errors import UsageError
    from arbiter.core.safeio import visible

    if not re.fullmatch(r"[A-Za-z0-9_@+=,-][A-Za-z0-9._@+=,-]{0,199}", name):
        raise UsageError(
            f"{visible(name)[:80]!r} is not a plain file name: use letters, digits, '.', '-', '_'"
        )
    return name
