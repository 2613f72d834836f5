"""The public read API: shapes, pagination, caching, the per-address limit and 404s."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from games.ratings import services
from games.ratings.models import Rating
from games.ratings.selectors import pool_codes
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
    assert set(body["ratings"]) == set(pool_codes())
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


def test_each_address_is_rate_limited_and_told_so_in_json(client, make_user, settings, rate_window_held):
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


def test_a_crossword_games_clock_as_the_server_reads_it(client, make_user):
    """A clocked game's settings and each seat's time left at the request, the running
    one charged from the stored turn start; once over, the overtime penalty each seat
    lost; a game without a clock says so, an unknown game or kind is a JSON 404."""
    from games.crosswords import services as crosswords
    from games.crosswords.models import Game, Status
    from games.engine.clock import Clock

    ann, bob = make_user("ann"), make_user("bob")
    game = crosswords.game_create(
        creator=ann, variant="wordgrid", seconds_per_move=3600, invitees=[bob], clock=Clock(300, overtime=300)
    )
    crosswords.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    # The player to move has used five and a half minutes: half a minute over.
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=330))
    body = client.get(f"/api/games/crossword/{game.pk}/clock").json()
    assert body["id"] == game.pk and body["kind"] == "crossword" and body["status"] == "active"
    clock = body["clock"]
    assert {k: clock[k] for k in ("seconds", "increment", "overtime", "penalty_per_minute")} == {
        "seconds": 300,
        "increment": 0,
        "overtime": 300,
        "penalty_per_minute": 10,
    }
    assert clock["label"] == "5 min + 5 min overtime"
    running = next(seat for seat in clock["seats"] if seat["running"])
    waiting = next(seat for seat in clock["seats"] if not seat["running"])
    assert running["seat"] == game.to_move and len(clock["seats"]) == 2
    assert -40_000 < running["left_ms"] <= -30_000 and running["penalty"] == 10
    assert waiting == {
        "seat": 1 - game.to_move,
        "username": waiting["username"],
        "left_ms": 300_000,
        "running": False,
        "penalty": 0,
    }
    assert {running["username"], waiting["username"]} == {"ann", "bob"}

    # At the end: the time each finished on and the points it cost (61 s over: two minutes).
    Game.objects.filter(pk=game.pk).update(status=Status.FINISHED, clock_left=[-61_000, 12_000])
    cache.clear()
    seats = client.get(f"/api/games/crossword/{game.pk}/clock").json()["clock"]["seats"]
    assert [(s["left_ms"], s["running"], s["penalty"]) for s in seats] == [(-61_000, False, 20), (12_000, False, 0)]

    plain = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=3600, invitees=[bob])
    assert client.get(f"/api/games/crossword/{plain.pk}/clock").json()["clock"] is None
    for url in ("/api/games/crossword/999999/clock", "/api/games/chess/1/clock", "/api/games/hunt/1/clock"):
        response = client.get(url)
        assert response.status_code == 404 and "error" in response.json(), url
