"""The rating model and the number people see.

Skill is openskill's Plackett–Luce model: a mean ``mu`` and an uncertainty ``sigma`` per
player and pool, updated from the finishing order of a free-for-all of 2–4 players with
ties. The shown rating is the mean on the familiar Elo-like scale: 1500 for a new player,
and a 200-point gap means the stronger player wins a two-player game about 76 % of the
time (the Elo logistic), so one mean unit is ``SCALE`` points. A rating is provisional
until ``PROVISIONAL_GAMES`` rated games in the pool.
"""

from __future__ import annotations

import math
from functools import cache

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
BASE = 1500
#: Elo points per unit of mu: in a two-player Plackett–Luce game between settled players
#: the win chance is 1/(1+exp(-Δmu/c)) with c = √2·β; Elo's is 1/(1+10^(-Δ/400)).
SCALE = 400 / math.log(10) / (math.sqrt(2) * BETA)
PROVISIONAL_GAMES = 10


@cache
def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)


def shown(mu: float) -> int:
    """The rating people see for a mean of ``mu``."""
    return round(BASE + SCALE * (mu - MU))


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def rate(skills: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each player of one game; ``ranks``: 1 is first, equal ranks tie."""
    ols = model()
    teams = [[ols.rating(mu=mu, sigma=sigma)] for mu, sigma in skills]
    rated = ols.rate(teams, ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in rated]
