"""The public read API: shapes, pagination, caching, the per-address limit and 404s."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from games.ratings import services
from games.ratings.models import Rating
from games.ratings.selectors import POOLS
from games.ratings.services import Finish

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_player_shape_with_every_pool(client, make_user):
    """A player's ratings in every pool; new pools show the provisional default."""
    ann = make_user("ann")
    Rating.objects.create(user=ann, pool="wordgame", rating=1612, games=14, last_played_at=timezone.now())
    response = client.get("/api/players/ann")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["username"] == "ann" and body["bot"] is False
    assert set(body["ratings"]) == set(POOLS)
    assert body["ratings"]["wordgame"] == {"rating": 1612, "provisional": False, "games": 14}
    assert body["ratings"]["rampage"] == {"rating": 1500, "provisional": True, "games": 0}
    assert "max-age=" in response["Cache-Control"]


def test_unknown_player_and_pool_are_404_with_a_json_error(client):
    """Unknown names answer 404 with {"error": ...}, never an HTML page."""
    for url in (
        "/api/players/nobody",
        "/api/players/nobody/games",
        "/api/leaderboards/chess",
        "/api/players/%00",
        "/api/players/" + "a" * 151,
        "/api/players/ann/games/x",
        "/api/nothing",
    ):
        response = client.get(url)
        assert response.status_code == 404 and "error" in response.json(), url


def test_leaderboard_shape_best_first(client, make_user):
    """Ranked players best first with rating and games; provisional players left out."""
    now = timezone.now()
    for name, rating, games in (("ann", 1650, 12), ("bob", 1720, 30), ("cy", 1900, 3)):
        Rating.objects.create(user=make_user(name), pool="classic5", rating=rating, games=games, last_played_at=now)
    body = client.get("/api/leaderboards/classic5").json()
    assert body == {
        "pool": "classic5",
        "players": [{"username": "bob", "rating": 1720, "games": 30}, {"username": "ann", "rating": 1650, "games": 12}],
    }


def test_games_newest_first_paginated_with_changes_and_links(client, make_user):
    """Rated games newest first, 20 a page, each with players, scores, changes and a link."""
    ann, bob = make_user("ann"), make_user("bob")
    for number in range(23):
        services.result_record(
            pool="rampage",
            kind="hunt",
            object_id=number + 1,
            url=f"/hunts/rounds/{number + 1}/",
            finishes=[Finish(ann.pk, 1, 40 + number), Finish(bob.pk, 2, 10)],
            finished_at=timezone.now() - timedelta(minutes=5) + timedelta(seconds=number),
        )
    services.result_record(
        pool="wordgrid",
        kind="crossword",
        object_id=1,
        url="/games/1/",
        finishes=[Finish(ann.pk, 2, 300, left=True), Finish(bob.pk, 1, 280)],
    )
    services.ratings_sweep(grace=timedelta(0))
    body = client.get("/api/players/ann/games", {"pool": "rampage"}).json()
    assert body["count"] == 23 and body["pages"] == 2 and len(body["games"]) == 20
    assert body["next"].endswith("page=2") and body["previous"] is None
    newest = body["games"][0]
    assert newest["pool"] == "rampage" and newest["url"] == "http://testserver/hunts/rounds/23/"
    assert [p["username"] for p in newest["players"]] == ["ann", "bob"]
    first = newest["players"][0]
    assert (
        first["score"] == 62
        and first["place"] == 1
        and first["change"] == first["rating_after"] - first["rating_before"]
    )
    page_two = client.get(body["next"]).json()
    assert len(page_two["games"]) == 3 and page_two["games"][-1]["players"][0]["score"] == 40
    everything = client.get("/api/players/ann/games").json()
    assert everything["count"] == 24 and everything["games"][0]["pool"] == "wordgrid"
    assert everything["games"][0]["players"][1] == {**everything["games"][0]["players"][1], "left": True}
    assert client.get("/api/players/ann/games", {"page": "0"}).status_code == 404
    assert client.get("/api/players/ann/games", {"page": "x"}).status_code == 400
    assert client.get("/api/players/ann/games", {"page": "9"}).status_code == 404
    assert client.get("/api/players/ann/games", {"pool": "chess"}).status_code == 404
    empty = client.get("/api/players/bob/games", {"pool": "tow"}).json()
    assert empty["count"] == 0 and empty["games"] == []


def test_answers_are_cached(client, make_user, settings):
    """A second request within the cache time gets the cached answer, not a new reading."""
    settings.API_CACHE_SECONDS = 30
    ann = make_user("ann")
    first = client.get("/api/players/ann").json()
    Rating.objects.create(user=ann, pool="rampage", rating=1800, games=20, last_played_at=timezone.now())
    assert client.get("/api/players/ann").json() == first
    cache.clear()
    assert client.get("/api/players/ann").json()["ratings"]["rampage"]["rating"] == 1800


def test_each_address_is_rate_limited_and_told_so_in_json(client, make_user, settings):
    """Past the limit an address gets 429 with a JSON error; another address is still served."""
    settings.API_RATE_LIMIT = "3/m"
    make_user("ann")
    codes = [client.get("/api/players/ann").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    limited = client.get("/api/leaderboards/rampage")
    assert limited.status_code == 429 and "error" in limited.json() and limited["Retry-After"]
    assert client.get("/api/players/ann", REMOTE_ADDR="10.9.9.9").status_code == 200


def test_only_get_is_allowed(client, make_user):
    """The API is read-only."""
    make_user("ann")
    assert client.post("/api/players/ann").status_code == 405
