"""The rating model and the shown number (no database)."""

from __future__ import annotations

import math

import pytest

from games.crosswords.models import pool_of as crossword_pool
from games.hunts.pools import hunt_pool
from games.ratings import scale
from games.ratings.pools import pool_codes, pool_info
from games.ratings.services.recording import Finish, ranks_of


def test_a_new_player_shows_1500_and_is_provisional():
    """μ = 25 is 1500; under ten games a rating is provisional."""
    assert scale.shown(scale.MU) == 1500
    assert scale.is_provisional(9) and not scale.is_provisional(10)


def test_a_200_point_gap_is_the_elo_three_in_four():
    """Plackett–Luce's two-player win chance for a 200-point gap between settled players is Elo's 76 %."""
    gap = 200 / scale.SCALE
    c = math.sqrt(2 * scale.BETA**2)  # the model's spread for two players with σ → 0
    plackett_luce = math.exp(gap / c) / (math.exp(gap / c) + 1)
    assert plackett_luce == pytest.approx(1 / (1 + 10 ** (-200 / 400)))


def test_updates_follow_the_finishing_order_with_ties():
    """First gains, last loses, tied players between equals move alike."""
    new = (scale.MU, scale.SIGMA)
    after = scale.rate([new, new, new, new], [1, 2, 2, 4])
    means = [mu for mu, _ in after]
    assert means[0] > means[1] == means[2] > means[3]
    assert all(sigma < scale.SIGMA for _, sigma in after)
    (mu_a, sigma_a), (mu_b, sigma_b) = scale.rate([new, new], [1, 1])
    assert mu_a == mu_b == pytest.approx(scale.MU) and sigma_a == sigma_b


def test_an_upset_moves_more_than_an_expected_win():
    """Beating a stronger player gains more than beating a weaker one."""
    strong, weak = (30.0, 3.0), (20.0, 3.0)
    upset = scale.rate([weak, strong], [1, 2])[0][0] - weak[0]
    expected = scale.rate([strong, weak], [1, 2])[0][0] - strong[0]
    assert upset > expected > 0


def test_leavers_rank_last_and_tie_among_themselves():
    """Ranks keep the stayers' order and ties; every leaver shares the last rank."""
    assert ranks_of([Finish(1, 2), Finish(2, 1, left=True), Finish(3, 2)]) == [1, 2, 1]
    assert ranks_of([Finish(1, 4), Finish(2, 1), Finish(3, 1), Finish(4, 3)]) == [3, 1, 1, 2]


def test_pools_are_named_from_the_engine_tables():
    """Hunt pools per rules and grid, crossword pools per variant, TOW last."""
    assert pool_codes() == ("rampage", "classic4", "classic5", "wordgrid", "wordgame", "tow")
    assert hunt_pool("rampage", 4) == "rampage" and hunt_pool("classic", 5) == "classic5"
    assert crossword_pool("wordgame") == "wordgame"
    assert pool_info("classic4").family == "hunt" and pool_info("wordgrid").family == "crossword"
    with pytest.raises(ValueError):
        hunt_pool("classic", 6)
