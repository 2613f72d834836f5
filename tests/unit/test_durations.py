"""The one way the site writes a length of time."""

from datetime import timedelta

import pytest

from config.durations import short, spoken


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "0 seconds"),
        (1, "1 second"),
        (40, "40 seconds"),
        (60, "1 minute"),
        (90, "90 seconds"),
        (150, "2 minutes"),
        (3600, "1 hour"),
        (7199, "119 minutes"),
        (7200, "2 hours"),
        (86400, "1 day"),
        (90000, "25 hours"),
        (3 * 86400 + 5, "3 days"),
        (-5, "0 seconds"),
    ],
)
def test_spoken_says_a_whole_unit_or_at_least_two_of_the_largest(seconds, text):
    """A whole number of a unit is said in it; otherwise the largest unit with at least two."""
    assert spoken(seconds) == text
    assert spoken(timedelta(seconds=seconds)) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (5, "5 s"),
        (245, "4 min 5 s"),
        (11400, "3 h 10 min"),
        (2 * 86400 + 5 * 3600 + 7, "2 d 5 h"),
        (-1, "0 s"),
    ],
)
def test_short_shows_at_most_two_units(seconds, text):
    """The short form keeps the two largest units."""
    assert short(seconds) == text
