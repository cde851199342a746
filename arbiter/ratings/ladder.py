"""The players, by key, rated game by game in the published order; then ranked.

A player is a public key: the same person plays under different seat names in different
games, and a seat name proves nothing (anyone may take it), while a key signs every move.
A player's row is named by the seat names seen with its key, in the order first seen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arbiter.core.life import fingerprint
from arbiter.ratings.facts import Rated
from arbiter.ratings.order import in_order
from arbiter.ratings.plackett_luce import Model, Skill

PLACES = 6
"""Decimal places of the published mu, sigma and display rating: far below a rating's
meaning, and the ranking is made from the published numbers, so the file explains its own
order."""


def published(value: float) -> float:
    """``value`` as ratings.json gives it: rounded to ``PLACES``, and never ``-0.0``."""
    return round(value, PLACES) + 0.0


@dataclass
class Player:
    """A player (a key), the seat ids seen with it, and its skill after the games so far."""

    key: str
    fingerprint: str
    skill: Skill
    names: list[str] = field(default_factory=list)
    games: int = 0
    rank: int = 0
    """1 is the best; players with the same published display rating share a rank."""

    @property
    def shown(self) -> float:
        """The published display rating (rounded: see ``PLACES``)."""
        return published(self.skill.ordinal)


@dataclass(frozen=True)
class Step:
    """One rated game and each seat's skill after it (in game.json's seat order)."""

    game: Rated
    after: tuple[Skill, ...]


@dataclass(frozen=True)
class Ladder:
    players: list[Player]
    """Best first: by display rating, then by key fingerprint."""
    steps: list[Step]
    """In the order rated."""


def rate(model: Model, games: Sequence[Rated]) -> Ladder:
    """Rate ``games`` in the published order (``order``), every player from the prior."""
    # Insertion order is the order first seen in the rating order: fixed by the files.
    players: dict[str, Player] = {}
    steps: list[Step] = []
    for game in in_order(games):
        for seated in game.seats:
            player = players.get(seated.key)
            if player is None:
                player = Player(seated.key, fingerprint(seated.key), model.new())
                players[seated.key] = player
            if seated.seat not in player.names:
                player.names.append(seated.seat)
        before = [players[seated.key].skill for seated in game.seats]
        after = model.update(before, [seated.place for seated in game.seats])
        for seated, skill in zip(game.seats, after, strict=True):
            players[seated.key].skill = skill
            players[seated.key].games += 1
        steps.append(Step(game, tuple(after)))
    return Ladder(ranked(players.values()), steps)


def ranked(players: Iterable[Player]) -> list[Player]:
    """Sort by published display rating, best first, then by fingerprint (a fixed order
    that favours no one); equal ratings share a rank (1, 1, 3)."""
    out = sorted(players, key=lambda p: (-p.shown, p.fingerprint))
    for index, player in enumerate(out):
        same = index > 0 and out[index - 1].shown == player.shown
        player.rank = out[index - 1].rank if same else index + 1
    return out
