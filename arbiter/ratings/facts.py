"""What the ratings know of each game folder: a rated game's seats, or why it is left out."""

from __future__ import annotations

from dataclasses import dataclass

INTERNAL = "internal"
"""The code of a game whose examination hit an unexpected exception (a bug in arbiter met
on one game must not stop the others; the game is left out and says so)."""


@dataclass(frozen=True)
class Seated:
    """One seat of a rated game: who held it (by key) and the place it finished in."""

    seat: str
    key: str
    place: int
    """1 is first; seats that share a place share its number, and the next place counts
    them (1, 1, 3), as the outcome's ranking groups them."""


@dataclass(frozen=True)
class Rated:
    """A verified game that counts."""

    folder: str
    game: str
    time: str | None
    """The time the order sorts it by (``order.game_time``); ``None``: no time."""
    time_from: str | None
    """``"chain"`` (its last entry's time), ``"created"`` (game.json) or ``None``."""
    seats: tuple[Seated, ...]
    """In game.json's seat order."""


@dataclass(frozen=True)
class LeftOut:
    """A game folder the ratings do not count, and why."""

    folder: str
    game: str | None
    """The game id (the manifest's claim, unverified, when verification failed)."""
    code: str
    """An error code of ``arbiter.core.errors`` for a failed verification, else one of
    ``not-revealed``, ``not-over``, ``no-result``, ``one-seat``, ``shared-key``,
    ``changed-hands``, ``duplicate``, ``internal``."""
    reason: str
    """One line."""
