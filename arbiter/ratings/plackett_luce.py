"""The rating model: OpenSkill's Plackett–Luce, with the library's default parameters.

Weng & Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12 (2011),
Algorithm 4, as the ``openskill`` package implements it (``openskill.models.PlackettLuce``;
docs/ratings.md says what each parameter does). Each seat is a team of one player; the
outcome's places are the ranks (lower is better, equal is a tie).

``openskill`` is an optional extra (``pip install 'arbiter[ratings]'``): it is imported
here when ratings are computed, never when arbiter starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arbiter.core.errors import UsageError

INSTALL = "pip install 'arbiter[ratings]'"
NAME = "plackett-luce"
DISPLAY = "mu - 3*sigma"
"""The display rating (openskill's ``ordinal()`` with its default z = 3): a player's skill
is, by the model, 99.7% likely to be above it, so a newcomer starts at 0 and rises as
games make the model surer."""
Z = 3.0


@dataclass(frozen=True)
class Skill:
    """A player's belief: skill ~ Normal(mu, sigma²)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma


class Model:
    """One ``openskill.models.PlackettLuce`` with its defaults, and what it rates with."""

    def __init__(self) -> None:
        try:
            from openskill.models import PlackettLuce
        except ImportError:
            raise UsageError(f"arbiter ratings needs the openskill package: {INSTALL}") from None
        # The library's defaults, on purpose: the published, reviewed parameters (mu 25,
        # sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001) rather than numbers of our own.
        self._model: Any = PlackettLuce()

    @property
    def library(self) -> str:
        from importlib.metadata import version

        return f"openskill {version('openskill')}"

    @property
    def parameters(self) -> dict[str, float]:
        """The parameters as the library holds them (what ratings.json records)."""
        m = self._model
        return {
            "mu": float(m.mu),
            "sigma": float(m.sigma),
            "beta": float(m.beta),
            "tau": float(m.tau),
            "kappa": float(m.kappa),
        }

    def new(self) -> Skill:
        """A player's skill before their first rated game: the model's prior."""
        return Skill(float(self._model.mu), float(self._model.sigma))

    def update(self, before: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
        """Return each seat's skill after one game, from the skills before and the places."""
        teams = [[self._model.rating(mu=s.mu, sigma=s.sigma)] for s in before]
        # ranks: lower is better, equal values share a place (openskill's convention).
        rated = self._model.rate(teams, ranks=[float(place) for place in places])
        return [Skill(float(team[0].mu), float(team[0].sigma)) for team in rated]
