"""The heaviest pages (profiles, leaderboards, replays) are limited per player and per address."""

from __future__ import annotations

import itertools

import pytest

from games.crosswords import services as crosswords

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rate_window_held")]

_addresses = (f"198.51.100.{n}" for n in itertools.count(100))


@pytest.fixture(autouse=True)
def tight_limits(settings):
    """Small limits; each test asks from addresses of its own and new players, so counts
    left in the cache by another test never meet it."""
    settings.HEAVY_PAGES_PER_USER = "3/m"
    settings.HEAVY_PAGES_PER_ADDRESS = "5/m"


def test_a_player_opening_profiles_in_a_loop_gets_a_friendly_429(client, make_user):
    """Past the limit the player sees a page that says to wait, with Retry-After; others are still served."""
    ann = make_user("ann")
    client.force_login(ann)
    answers = [client.get("/u/ann/", REMOTE_ADDR=next(_addresses)) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    refused = answers[-1]
    assert refused["Retry-After"] == "60"
    assert "wait a minute and try again" in refused.content.decode()
    assert 'class="error-code">429' in refused.content.decode()
    make_user("bob")
    client.force_login(make_user("cat"))
    assert client.get("/u/bob/", REMOTE_ADDR=next(_addresses)).status_code == 200


def test_the_limit_is_shared_by_the_heavy_pages(client, make_user):
    """A player switching between profiles and leaderboards is counted once across them."""
    client.force_login(make_user("ann"))
    address = next(_addresses)
    answers = [
        client.get(path, REMOTE_ADDR=address).status_code for path in ("/u/ann/", "/ratings/", "/ratings/wordgame/")
    ]
    assert answers == [200, 200, 200]
    assert client.get("/ratings/rampage/", REMOTE_ADDR=address).status_code == 429


def test_one_address_is_limited_whoever_asks(client, make_user):
    """Anonymous visitors, or many accounts, from one address share its limit; another address is served."""
    make_user("ann")
    address = next(_addresses)
    answers = [client.get("/u/ann/", REMOTE_ADDR=address).status_code for _ in range(6)]
    assert answers == [200] * 5 + [429]
    assert client.get("/u/ann/", REMOTE_ADDR=next(_addresses)).status_code == 200


def test_a_replay_over_the_limit_answers_json(client, make_user):
    """The replay's frames are fetched by a script: its refusal is JSON with the reason."""
    ann, bob = make_user("ann"), make_user("bob")
    game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    crosswords.game_accept(game_id=game.pk, player=bob)
    client.force_login(ann)
    address = next(_addresses)
    answers = [client.get(f"/games/{game.pk}/replay/", REMOTE_ADDR=address) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1].json()["ok"] is False and "wait a minute" in answers[-1].json()["reason"]
