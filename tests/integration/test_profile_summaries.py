"""A profile's statistics and game sections are read once, then kept until a game of the player
finishes or ratings move; names, and what a viewer may see, are read at each view."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.contrib.humanize.templatetags import humanize
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.player_data import account_delete
from games.crosswords import selectors as crossword_selectors
from games.crosswords import services as crosswords
from games.crosswords.models import Game as CrosswordGame
from games.engine import movegen
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


# --------------------------------------------------------------------------- the game sections

DAY = 86400


def section(page: str, heading: str) -> str:
    """The profile section whose heading has the id ``heading``."""
    return re.search(rf'<section[^>]*aria-labelledby="{heading}".*?</section>', page, re.S).group(0)


def crossword_duel(ann, bob):
    """A Word Grid game of ann's against bob, started: ann to move."""
    game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    # A fixed deal with a word in the first rack: a random one sometimes has none.
    CrosswordGame.objects.filter(pk=game.pk).update(seed="queries-short")
    crosswords.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    return game


def test_the_recent_hunts_are_kept_until_the_next_round_ends(client, make_user, committed):
    """A second view reads no round; a round that ends shows at the next view, with the
    totals, and its rating change once the update is applied."""
    ann, bob = make_user("ann"), make_user("bob")
    table = ranked_table(ann, bob)
    with committed():
        ranked_round(ann, bob, ann_words=("cats", "cat"), bob_words=("ore",), table=table)
        services.ratings_apply(pool="rampage")
    first, page = view(client, "ann")
    assert "1 round, 1 win" in section(page, "hunts-heading")
    with CaptureQueriesContext(connection) as kept:
        view(client, "ann")
    assert not [query for query in kept.captured_queries if "hunts_roundplayer" in query["sql"]]

    with committed():
        second = ranked_round(ann, bob, ann_words=("ding",), bob_words=("ore", "cat", "cats"), table=table)
    hunts = section(view(client, "ann")[1], "hunts-heading")
    assert "2 rounds, 1 win" in hunts and reverse("hunts:round", args=[second.pk]) in hunts
    assert 'data-rating-change="pending"' in hunts
    with committed():
        services.ratings_apply(pool="rampage")
    assert 'data-rating-change="pending"' not in section(view(client, "ann")[1], "hunts-heading")


def test_a_kept_recent_hunts_section_says_how_long_ago_as_of_each_view(client, make_user, committed, monkeypatch):
    """The section is kept as HTML, but how long ago each round ended is worked out at
    each view: three hours on, it says so without reading a round."""
    ann, bob = make_user("ann"), make_user("bob")
    with committed():
        played = ranked_round(ann, bob, table=ranked_table(ann, bob))
    played.refresh_from_db()
    now = humanize.naturaltime(played.ended_at)
    assert f"· {now}<" in section(view(client, "ann")[1], "hunts-heading")

    class Later(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime.now(tz) + timedelta(hours=3)

    monkeypatch.setattr(humanize, "datetime", Later)
    later = humanize.naturaltime(played.ended_at)
    assert later != now
    with CaptureQueriesContext(connection) as kept:
        hunts = section(view(client, "ann")[1], "hunts-heading")
    assert f"· {later}<" in hunts and now not in hunts
    assert not [query for query in kept.captured_queries if "hunts_roundplayer" in query["sql"]]


def test_the_crossword_games_are_kept_until_the_next_ends_with_names_as_they_are_now(client, make_user, committed):
    """ann's kept list of finished games names bob as he is now (renamed, then deleted),
    and shows her next finished game at the next view."""
    ann, bob = make_user("ann"), make_user("bob", display_name="Bob Old")
    with committed():
        first = crossword_duel(ann, bob)
        crosswords.game_resign(game_id=first.pk, player=bob)
    games = section(view(client, "ann")[1], "crossword-games-heading")
    assert f"/games/{first.pk}/" in games and "Bob Old" in games
    with CaptureQueriesContext(connection) as kept:
        view(client, "ann")
    assert not [query for query in kept.captured_queries if "crosswords_seat" in query["sql"]]

    bob.display_name = "Bob New"
    bob.save()
    games = section(view(client, "ann")[1], "crossword-games-heading")
    assert "Bob New" in games and "Bob Old" not in games

    with committed():
        second = crossword_duel(ann, bob)
        crosswords.game_resign(game_id=second.pk, player=ann)
    games = section(view(client, "ann")[1], "crossword-games-heading")
    assert f"/games/{second.pk}/" in games and f"/games/{first.pk}/" in games

    with committed():
        account_delete(user=bob)
    games = section(view(client, "ann")[1], "crossword-games-heading")
    assert "deleted player" in games and "Bob New" not in games


def test_a_move_in_a_game_still_in_play_is_the_kept_best_play_at_the_next_view(client, make_user, committed):
    """The best crossword play counts games in play: ann's first play shows at the next
    view of her kept profile, before the game ends."""
    ann, bob = make_user("ann"), make_user("bob")
    game = crossword_duel(ann, bob)
    assert "Highest crossword play" not in view(client, "ann")[1]
    state = crossword_selectors.engine_state(game)
    assert state.to_move == game.seats.get(user=ann).index
    play = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    with committed():
        crosswords.game_play(game_id=game.pk, player=ann, placement=play.placement, move_count=0)
    page = view(client, "ann")[1]
    assert "Highest crossword play" in page and f"{play.score} points" in page
