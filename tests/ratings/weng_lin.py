"""The Plackett–Luce update, written out by hand from the published formulas.

Weng, R. C. and Lin, C.-J. (2011), "A Bayesian Approximation Method for Online Ranking",
Journal of Machine Learning Research 12, 267–300: Algorithm 4 (the Plackett–Luce model),
with one player per team. For a game of k players, player i with skill N(mu_i, sigma_i²)
finishing at rank r(i) (lower is better, equal ranks tie):

    c     = sqrt( sum_i (sigma_i² + beta²) )
    S_q   = sum over s with r(s) >= r(q) of exp(mu_s / c)
    A_q   = number of players s with r(s) = r(q)
    p_iq  = exp(mu_i / c) / S_q
    Omega_i = sigma_i² / c  · sum over q with r(q) <= r(i) of ([q = i] - p_iq) / A_q
    Delta_i = gamma_i · sigma_i² / c² · sum over q with r(q) <= r(i) of p_iq (1 - p_iq) / A_q
    gamma_i = sigma_i / c                              (the paper's suggested gamma)
    mu_i    <- mu_i + Omega_i
    sigma_i² <- sigma_i² · max(1 - Delta_i, kappa)

The variant the openskill package (6.x, ``openskill.models.PlackettLuce``) implements,
with its defaults, which ``arbiter ratings`` uses:

- beta = 25/6, kappa = 0.0001, gamma as above, prior mu = 25, sigma = 25/3;
- before each game every player's sigma² grows by tau² (tau = 25/300): the "additive
  dynamics" factor of TrueSkill, not part of Algorithm 4, so that sigma never shrinks to
  nothing and skills may drift;
- no margin, no weights, no limit on sigma growing, no "balance" (its options, off).

(openskill 6.2.0's source also averages the mu changes of tied players after the update,
but it compares each updated rating with itself, so that step changes nothing; the tie
in the tests' archive checks that the library's numbers are the formula's.)

Nothing here imports openskill or arbiter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001


def update(
    players: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """Return each player's (mu, sigma) after one game, from (mu, sigma) before and ranks."""
    k = len(players)
    mu = [m for m, _ in players]
    var = [s * s + TAU * TAU for _, s in players]  # the additive dynamics, before the game
    c = math.sqrt(sum(v + BETA * BETA for v in var))
    e = [math.exp(m / c) for m in mu]
    big_s = [sum(e[s] for s in range(k) if ranks[s] >= ranks[q]) for q in range(k)]
    big_a = [sum(1 for s in range(k) if ranks[s] == ranks[q]) for q in range(k)]
    after = []
    for i in range(k):
        omega = delta = 0.0
        for q in range(k):
            if ranks[q] <= ranks[i]:
                p = e[i] / big_s[q]
                omega += ((1.0 if q == i else 0.0) - p) / big_a[q]
                delta += p * (1.0 - p) / big_a[q]
        omega *= var[i] / c
        gamma = math.sqrt(var[i]) / c
        delta *= gamma * var[i] / (c * c)
        after.append((mu[i] + omega, math.sqrt(var[i] * max(1.0 - delta, KAPPA))))
    return after
