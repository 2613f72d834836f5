"""Bot ratings: the fit from selfplay results, and the stored table of every pool's levels."""

from __future__ import annotations

import pytest

from games.engine import bot_ratings
from games.hunts import bot_profiles


def test_a_76_percent_score_is_about_200_points():
    """Elo's scale, the players' scale: 76 % of the points is 200 points (less the one
    extra draw the fit adds, which pulls a result toward even)."""
    ratings = bot_ratings.fit([("weak", "strong", 240, 1000)], anchor="weak")
    assert ratings["weak"] == 1500
    assert 195 <= ratings["strong"] - 1500 <= 205


def test_ratings_chain_through_the_levels_between_and_are_reproducible():
    results = [("a", "b", 30, 100), ("b", "c", 30, 100), ("a", "c", 15, 100)]
    first = bot_ratings.fit(results, anchor="b")
    assert first == bot_ratings.fit(list(results), anchor="b")
    assert first["a"] < first["b"] == 1500 < first["c"]
    # A clean sweep is still a finite gap: one draw is added to every pair.
    swept = bot_ratings.fit([("a", "b", 0, 20)], anchor="a")
    assert 1500 < swept["b"] < 1500 + 800


@pytest.mark.parametrize(
    ("results", "anchor", "message"),
    [
        ([("a", "b", 3, 2)], "a", "0 <= points <= games"),
        ([("a", "a", 1, 2)], "a", "two levels"),
        ([("a", "b", 1, 2)], "z", "played no game"),
        ([("a", "b", 1, 2), ("c", "d", 1, 2)], "a", "no games link"),
    ],
)
def test_results_that_cannot_be_rated_are_refused(results, anchor, message):
    with pytest.raises(ValueError, match=message):
        bot_ratings.fit(results, anchor=anchor)


def test_the_stored_table_rates_every_level_of_every_pool_stronger_above_weaker():
    """Every hunt pool rates all five hunt levels in order of strength, every crossword pool its five levels."""
    # The crossword levels from club up are within the noise of the games they were
    # rated from (club and expert drew 20 of 40 Word Grid games), so only the levels
    # below them are held to an order there.
    orders = {
        "rampage": (bot_profiles.STRENGTHS, bot_profiles.STRENGTHS),
        "classic4": (bot_profiles.STRENGTHS, bot_profiles.STRENGTHS),
        "classic5": (bot_profiles.STRENGTHS, bot_profiles.STRENGTHS),
        "wordgrid": (("beginner", "casual", "club", "expert", "champion"), ("beginner", "casual", "club")),
        "wordgame": (("beginner", "casual", "club", "expert", "champion"), ("beginner", "casual", "club")),
    }
    for pool, (levels, ordered) in orders.items():
        ratings = [bot_ratings.rating(pool, level) for level in levels]
        assert None not in ratings, pool
        ranks = [bot_ratings.rating(pool, level) for level in ordered]
        assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks), (pool, ratings)
        assert min(ratings[len(ordered) - 1 :]) > ranks[-2], pool
        entry = bot_ratings.table()["pools"][pool]
        assert bot_ratings.rating(pool, entry["anchor"]) == bot_ratings.ANCHOR_RATING
        assert entry["command"].startswith("manage.py ")
    assert bot_ratings.rating("classic5", "no-such-level") is None


def test_store_keeps_the_other_pools(tmp_path):
    path = tmp_path / "ratings.json"
    bot_ratings.store("b", {"levels": {"x": {"rating": 1}}}, path)
    bot_ratings.store("a", {"levels": {"y": {"rating": 2}}}, path)
    stored = __import__("json").loads(path.read_text())
    assert list(stored["pools"]) == ["a", "b"]
