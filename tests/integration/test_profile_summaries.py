"""A profile's statistics are read once, then kept until a game of the player finishes or ratings move."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.player_data import account_delete
from games.ratings import services
from tests.integration.test_ratings_views import ranked_round, ranked_table

pytestmark = pytest.mark.django_db


def view(client, username: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("profile", args=[username]))
    assert response.status_code == 200
    # Each answer has a token of its own for its forms; the rest is the page.
    page = re.sub(r'"X-CSRFToken": "\w+"|name="csrfmiddlewaretoken" value="\w+"', "", response.content.decode())
    # The header's count of players online is read when its 10 s in the cache run out,
    # whichever view that falls on: it is no part of the statistics.
    return sum("accounts_onlineconnection" not in query["sql"] for query in queries.captured_queries), page


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what is done inside as its own committed transactions would (their after-commit work too)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_the_statistics_are_read_once_and_again_after_the_next_game(client, make_user, committed):
    """A second view reads no game table; a finished game and its rating update show at the next view."""
    ann, bob = make_user("ann"), make_user("bob")
    table = ranked_table(ann, bob)
    with committed():
        ranked_round(ann, bob, ann_words=("cats", "cat"), bob_words=("ore",), table=table)
        services.ratings_apply(pool="rampage")
    first, page = view(client, "ann")
    assert "1 won" in page
    second, again = view(client, "ann")
    assert second <= first - 6, (first, second)
    assert again == page

    with committed():
        ranked_round(ann, bob, ann_words=("ding",), bob_words=("ore", "cat", "cats"), table=table)
    after_game, page = view(client, "ann")
    assert after_game == first and "1 lost" in page, "the finished game's players are read afresh"
    view(client, "ann")
    with committed():
        services.ratings_apply(pool="rampage")
    after_rating, _ = view(client, "ann")
    assert after_rating == first, "applied ratings are read afresh"
    assert view(client, "bob")[0] == first


def test_a_rebuild_of_the_ratings_forgets_every_players_statistics(client, make_user, committed):
    """After ratings_rebuild every profile is read afresh, players of no game in it too."""
    ann, bob = make_user("ann"), make_user("bob")
    make_user("cy")  # in no game
    with committed():
        ranked_round(ann, bob)
        services.ratings_apply(pool="rampage")
    counts = {name: view(client, name)[0] for name in ("ann", "cy")}
    assert all(view(client, name)[0] < counts[name] for name in counts)
    with committed():
        services.ratings_rebuild(pools=["rampage"])
    assert {name: view(client, name)[0] for name in counts} == counts


def test_an_opponents_new_name_shows_at_once_on_kept_statistics(client, make_user, committed):
    """bob's kept record against ann names her as she is now: renamed, then deleted."""
    ann, bob = make_user("ann", display_name="Ann Old"), make_user("bob")
    with committed():
        ranked_round(ann, bob)
        services.ratings_apply(pool="rampage")
    assert "Ann Old" in view(client, "bob")[1]
    ann.display_name = "Ann Renamed"
    ann.save()
    page = view(client, "bob")[1]
    assert "Ann Renamed" in page and "Ann Old" not in page
    with committed():
        account_delete(user=ann)
    page = view(client, "bob")[1]
    assert "deleted player" in page and "Ann Renamed" not in page


def test_a_kept_profile_draws_no_chart_again(client, make_user, committed):
    """The rating charts are drawn with the statistics they show and kept with them: a
    second view renders no chart, and shows the same ones."""
    ann, bob = make_user("ann"), make_user("bob")
    with committed():
        ranked_round(ann, bob, ann_words=("cats", "cat"), bob_words=("ore",), table=ranked_table(ann, bob))
        services.ratings_apply(pool="rampage")
    url = reverse("profile", args=["ann"])
    first = client.get(url)
    assert "ratings/_chart.html" in [t.name for t in first.templates]
    second = client.get(url)
    assert "ratings/_chart.html" not in [t.name for t in second.templates]
    chart = re.search(r'<figure class="rating-chart".*?</figure>', first.content.decode(), re.S).group(0)
    assert "<circle" in chart and chart in second.content.decode()
