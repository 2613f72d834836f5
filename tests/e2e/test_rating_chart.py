"""A profile's rating chart, read as a player reads Lichess's: rating labels and dates on
its axes, each point's game named on hover, tap or keyboard focus, and why the first
games moved the rating so much."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils.formats import date_format
from playwright.sync_api import expect

from games.ratings import scale
from games.ratings import services as ratings
from games.ratings.models import RatedPlayer
from games.ratings.services import Finish
from tests.e2e.flows import log_in
from tests.e2e.test_lexicon import axe_violations

pytestmark = pytest.mark.e2e
GAMES = scale.PROVISIONAL_GAMES + 3
FIRST_DAY = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _history(ann, opponents) -> list[RatedPlayer]:
    """Ann plays one rated round a day against each opponent in turn, winning all but every
    third, each result with its round's address."""
    for n in range(GAMES):
        places = (2, 1) if n % 3 == 2 else (1, 2)
        ratings.result_record(
            pool="rampage",
            kind="hunt",
            object_id=n + 1,
            url=f"/hunts/rounds/{n + 1}/",
            finished_at=FIRST_DAY + timedelta(days=n),
            finishes=[
                Finish(ann.pk, places[0], 0, False),
                Finish(opponents[n % len(opponents)].pk, places[1], 0, False),
            ],
        )
        ratings.ratings_apply(pool="rampage")
    return list(RatedPlayer.objects.filter(user=ann, pool="rampage").order_by("result_id"))


def _day(when) -> str:
    return date_format(when, "j M Y")


def test_the_rating_chart_has_axes_and_names_each_points_game(page, make_user):
    """Rating labels and the first, middle and last games' dates are on the chart; hovering,
    tapping or focusing a point (then the arrow keys) names its game and links to it;
    provisional points are hollow and their size explained; axe finds nothing."""
    ann = make_user("ann")
    opponents = [make_user(name) for name in ("bob", "cat", "dan", "eve", "fay")]
    played = _history(ann, opponents)
    assert len(played) == GAMES and all(p.rating_after is not None for p in played)

    log_in(page, "ann")
    page.goto("/u/ann/")
    chart = page.locator("[data-chart-pool=rampage] [data-rating-chart]")
    # Axes: rating labels spanning the history, dates under the points.
    ticks = [int(t) for t in chart.locator(".tick-label").all_text_contents()]
    history = [played[0].rating_before] + [p.rating_after for p in played]
    assert len(ticks) >= 2 and min(ticks) <= min(history) and max(ticks) >= max(history)
    dates = chart.locator(".date-label").all_text_contents()
    assert dates[0] == _day(played[0].finished_at) and dates[-1] == _day(played[-1].finished_at)

    points = chart.locator(".pt")
    expect(points).to_have_count(GAMES + 1)  # the start, then each game
    expect(chart.locator(".pt.provisional")).to_have_count(scale.PROVISIONAL_GAMES)
    detail = chart.locator("[data-chart-detail]")

    # Hover names the game.
    third = played[2]
    points.nth(3).hover()
    expect(detail).to_contain_text(f"Game 3, {_day(third.finished_at)}: {third.rating_after}")
    expect(detail).to_contain_text("provisional")
    expect(detail.get_by_role("link", name="the game")).to_have_attribute("href", "/hunts/rounds/3/")

    # Keyboard: one tab stop (the latest game), then the arrow keys.
    points.last.focus()
    expect(detail).to_contain_text(f"Game {GAMES}, {_day(played[-1].finished_at)}: {played[-1].rating_after}")
    page.keyboard.press("ArrowLeft")
    expect(points.nth(GAMES - 1)).to_be_focused()
    change = played[-2].rating_after - played[-2].rating_before
    shown = f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"
    expect(detail).to_contain_text(
        f"Game {GAMES - 1}, {_day(played[-2].finished_at)}: {played[-2].rating_after} ({shown})"
    )
    expect(points.nth(GAMES - 1)).to_have_attribute("tabindex", "0")
    expect(points.last).to_have_attribute("tabindex", "-1")
    page.keyboard.press("Home")
    expect(detail).to_contain_text(f"Start: {played[0].rating_before}")

    # A tap (a click) selects too.
    points.nth(5).click()
    expect(detail).to_contain_text(f"Game 5, {_day(played[4].finished_at)}")
    expect(points.nth(5)).to_have_class(re.compile(r"\bselected\b"))

    first = [abs(p.rating_after - p.rating_before) for p in played[: scale.PROVISIONAL_GAMES]]
    later = [abs(p.rating_after - p.rating_before) for p in played[scale.PROVISIONAL_GAMES :]]
    note = chart.locator("[data-provisional-note]")
    expect(note).to_contain_text(f"first {scale.PROVISIONAL_GAMES} rated games")
    expect(note).to_contain_text(f"{round(sum(first) / len(first))} points a game on average")
    expect(note).to_contain_text(f"and {round(sum(later) / len(later))} since")
    assert axe_violations(page) == []
