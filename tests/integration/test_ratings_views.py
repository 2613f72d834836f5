"""Leaderboards, rating changes on result screens and lists, and the profile statistics."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.hunts import services as hunts
from games.ratings import selectors, services, stats
from games.ratings.models import Rating
from tests.integration.test_crossword_bots import human_move

pytestmark = pytest.mark.django_db


def settle(user, pool, rating, games=20, days_ago=1):
    return Rating.objects.create(
        user=user, pool=pool, rating=rating, games=games, last_played_at=timezone.now() - timedelta(days=days_ago)
    )


def test_leaderboard_orders_best_first_and_leaves_out_provisional_and_inactive(make_user):
    """Best first, ties by account age; provisional, long-inactive and other pools left out."""
    users = [make_user(f"p{i}") for i in range(6)]
    settle(users[0], "rampage", 1600)
    settle(users[1], "rampage", 1700)
    settle(users[2], "rampage", 1600)
    settle(users[3], "rampage", 1900, games=9)  # provisional
    settle(users[4], "rampage", 2000, days_ago=selectors.ACTIVE_DAYS + 1)
    settle(users[5], "classic4", 2100)
    page, standings = selectors.leaderboard("rampage")
    assert [(s.place, s.username, s.rating) for s in standings] == [(1, "p1", 1700), (2, "p0", 1600), (3, "p2", 1600)]
    assert page.paginator.count == 3


def test_own_place_is_shown_when_off_the_first_page(client, make_user):
    """A signed-in player ranked 53rd sees their place and page on page 1, highlighted on page 2."""
    users = [make_user(f"p{i:02}") for i in range(60)]
    for index, user in enumerate(users):
        settle(user, "wordgrid", 2000 - index)
    me = users[52]
    assert selectors.leaderboard_place(me, "wordgrid").place == 53
    client.force_login(me)
    first = client.get(reverse("ratings:leaderboard", args=["wordgrid"])).content.decode()
    assert 'data-own-place="53"' in first and "?page=2" in first and first.count("<tr") == 51
    second = client.get(reverse("ratings:leaderboard", args=["wordgrid"]), {"page": 2}).content.decode()
    assert 'class="me"' in second and "p52" in second and "data-own-place" not in second


def test_leaderboard_pages_and_bad_input(client, make_user):
    """Every pool has a page; an unknown pool is 404; a silly page number shows a real page."""
    for pool in selectors.pool_codes():
        assert client.get(reverse("ratings:leaderboard", args=[pool])).status_code == 200
    assert client.get(reverse("ratings:leaderboards")).status_code == 200
    assert client.get("/ratings/chess/").status_code == 404
    assert client.get(reverse("ratings:leaderboard", args=["tow"]), {"page": "x"}).status_code == 200


def ranked_table(ann, bob):
    table = hunts.table_create(host=ann, game="rampage", seat_count=2, ranked=True)
    hunts.table_join(table_id=table.pk, user=bob)
    return table


def ranked_round(ann, bob, ann_words=("cats",), bob_words=("ore",), table=None):
    from games.engine import hunt
    from games.hunts.models import HuntRound

    table = table or ranked_table(ann, bob)
    game_round = hunts.round_start(table_id=table.pk, by=ann)
    board = hunt.Board([list("cats"), list("orex"), list("ding"), list("plum")])
    HuntRound.objects.filter(pk=game_round.pk).update(board=board.to_text())
    during = game_round.starts_at + timedelta(seconds=1)
    for user, words in ((ann, ann_words), (bob, bob_words)):
        for word in words:
            hunts.round_submit(round_id=game_round.pk, user=user, word=word, now=during)
    return hunts.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))


def test_hunt_results_show_the_rating_change_and_pending_polls(client, make_user):
    """Before the update the results poll for the change; after it they show +N and −N."""
    ann, bob = make_user("ann"), make_user("bob")
    game_round = ranked_round(ann, bob)
    url = reverse("hunts:round", args=[game_round.pk])
    pending = client.get(url).content.decode()
    assert 'data-rating-change="pending"' in pending
    assert reverse("ratings:change", args=["hunt", game_round.pk, ann.pk]) in pending
    services.ratings_apply(pool="rampage")
    change = selectors.player_rating(ann, "rampage").rating - 1500
    page = client.get(url).content.decode()
    assert f'data-rating-change="{change}"' in page and f"+{change}" in page and f"−{change}" in page
    fragment = client.get(reverse("ratings:change", args=["hunt", game_round.pk, bob.pk])).content.decode()
    assert f'data-rating-change="-{change}"' in fragment and "hx-get" not in fragment


def test_profile_shows_ratings_chart_opponents_best_words_and_streak(client, make_user):
    """The profile lists each pool's rating and record, an SVG chart, opponents and best words."""
    ann, bob = make_user("ann"), make_user("bob")
    table = ranked_table(ann, bob)
    ranked_round(ann, bob, ann_words=("cats", "cat"), bob_words=("ore",), table=table)
    ranked_round(ann, bob, ann_words=("ding", "cat"), bob_words=("at",), table=table)
    services.ratings_apply(pool="rampage")
    page = client.get(reverse("profile", args=["ann"])).content.decode()
    assert 'data-pool="rampage"' in page and "2 won" in page and "100 %" in page
    assert "<svg" in page and "<polyline" in page and 'data-chart-pool="rampage"' in page
    assert "Against other players" in page and ">bob<" in page
    assert "Highest-scoring hunt word" in page and "Longest hunt word" in page
    pools = {p.pool: p for p in stats.pool_stats(ann)}
    assert pools["rampage"].games == 2 and pools["rampage"].wins == 2 and pools["rampage"].streak == ("won", 2)
    assert [point.rating for point in pools["rampage"].history][0] == 1500 and len(pools["rampage"].history) == 3


def test_a_solo_daily_round_is_no_game_in_the_pool_record(make_user):
    """The daily challenge (a solo round, never a win) neither counts as a game played
    nor breaks a winning streak in the profile's pool record."""
    from tests.integration.test_daily import play

    ann, bob = make_user("ann"), make_user("bob")
    table = ranked_table(ann, bob)
    ranked_round(ann, bob, ann_words=("cats", "cat"), bob_words=("ore",), table=table)
    ranked_round(ann, bob, ann_words=("ding", "cat"), bob_words=("at",), table=table)
    play(ann, "rampage", now=timezone.now() + timedelta(minutes=10))
    rampage = {p.pool: p for p in stats.pool_stats(ann)}["rampage"]
    assert (rampage.games, rampage.wins, rampage.streak) == (2, 2, ("won", 2))


def test_crossword_game_over_and_lists_show_the_change(client, make_user):
    """A finished ranked crossword shows each player's change on the game and in My games."""
    from games.crosswords import services as crosswords

    ann, bob = make_user("ann"), make_user("bob")
    game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob], ranked=True)
    crosswords.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    first = game.seats.get(index=game.to_move).user
    second = ann if first == bob else bob
    for _ in range(2):  # two moves each: a game both players began
        human_move(game, first)
        human_move(game, second)
    crosswords.game_resign(game_id=game.pk, player=first)
    services.ratings_apply(pool="wordgrid")
    client.force_login(ann)
    change = selectors.player_rating(ann, "wordgrid").rating - 1500
    game_page = client.get(reverse("crosswords:game", args=[game.pk])).content.decode()
    assert f'data-rating-change="{change}"' in game_page and f'data-rating-change="{-change}"' in game_page
    assert f'data-rating-change="{change}"' in client.get(reverse("my_games")).content.decode()


def test_change_fragment_for_an_unrated_game_is_empty(client, make_user):
    """An unrated game has no change to show."""
    ann = make_user("ann")
    response = client.get(reverse("ratings:change", args=["hunt", 999, ann.pk]))
    assert response.status_code == 200 and response.content.strip() == b""


def test_change_fragment_stops_polling_for_a_result_left_unrated(client, make_user):
    """A result applied without a change for the player (the opponent's account was deleted
    before the update) shows nothing, instead of polling every second for ever."""
    ann, bob = make_user("ann"), make_user("bob")
    services.result_record(
        pool="rampage", kind="hunt", object_id=998, finishes=[services.Finish(ann.pk, 1), services.Finish(bob.pk, 2)]
    )
    bob.delete()
    services.ratings_apply(pool="rampage")
    response = client.get(reverse("ratings:change", args=["hunt", 998, ann.pk]))
    assert response.status_code == 200 and response.content.strip() == b""


def test_profile_of_a_new_player_says_no_games(client, make_user):
    """A player with no finished game sees the section say so."""
    make_user("newbie")
    page = client.get(reverse("profile", args=["newbie"])).content.decode()
    assert "Ratings and statistics" in page and "No finished games yet." in page


def test_the_admin_lists_ratings_and_results_read_only(client, make_user):
    """Staff see ratings and results in the admin but cannot change them there."""
    admin = make_user("boss", is_staff=True, is_superuser=True)
    ann, bob = make_user("ann"), make_user("bob")
    result = services.result_record(
        pool="rampage", kind="hunt", object_id=5, finishes=[services.Finish(ann.pk, 1), services.Finish(bob.pk, 2)]
    )
    services.ratings_apply(pool="rampage")
    client.force_login(admin)
    assert ">ann<" in client.get("/admin/ratings/rating/").content.decode()
    page = client.get(f"/admin/ratings/ratedresult/{result.pk}/change/")
    assert page.status_code == 200 and "bob" in page.content.decode()
    assert client.post(f"/admin/ratings/ratedresult/{result.pk}/delete/", {"post": "yes"}).status_code == 403
