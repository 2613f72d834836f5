"""My games in the browser: an open page lists a new TOW game and a hunt table by itself,
and the header badge follows turns of every kind from the live message alone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.my_games import awaiting_count
from games.hunts import services as hunts
from games.tow import services as tow
from tests.e2e.flows import log_in, until

pytestmark = pytest.mark.e2e


def test_my_games_and_the_badge_follow_every_kind_live(page, make_user):
    """Bob's open My games page shows a TOW game and a hunt table as they start, and the
    badge shows his turns, without a reload and without asking the server for the count."""
    ann, bob = make_user("ann"), make_user("bob")
    log_in(page, "bob")
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "awaiting" in request.url else None)
    page.goto("/games/")
    expect(page.locator('[data-my-games="my-turn"]')).to_contain_text("No game is waiting for you.")

    game = tow.game_create(creator=ann, seconds_per_move=86400, invitees=[bob])
    tow.game_accept(game_id=game.pk, player=bob)
    expect(page.locator(f'#my-games-lists a[href="/tow/{game.pk}/"]')).to_be_visible()
    badge = page.locator("[data-games-awaiting]")
    if awaiting_count(bob):
        expect(badge).to_have_text("1")
        turn = page.locator('[data-my-games="my-turn"]')
    else:
        expect(badge).to_have_count(0)
        turn = page.locator('[data-my-games="their-turn"]')
    expect(turn.locator(f'a[href="/tow/{game.pk}/"]')).to_be_visible()

    table = hunts.table_create(host=ann, game="rampage")
    hunts.table_join(table_id=table.pk, user=bob)
    expect(page.locator(f'[data-my-games="hunts"] a[href="/hunts/{table.pk}/"]')).to_be_visible()
    hunts.table_leave(table_id=table.pk, user=bob)
    expect(page.locator(f'[data-my-games="hunts"] a[href="/hunts/{table.pk}/"]')).to_have_count(0)
    assert asked == []


def test_a_game_begun_before_the_page_socket_joined_reaches_the_lists(page, make_user):
    """A change made after the page was drawn but before its socket joined was sent to
    no one: the socket's first counts reload the lists, so the page shows it anyway."""
    ann, bob = make_user("ann"), make_user("bob")
    log_in(page, "bob")
    held = []
    # Routed before the page loads; the page's socket reaches the server only when let through.
    page.route_web_socket("**/ws/presence/", lambda socket: held.append(socket))
    page.goto("/games/")
    expect(page.locator('[data-my-games="my-turn"]')).to_contain_text("No game is waiting for you.")
    until(page, lambda: held, "the page did not open its socket")

    game = tow.game_create(creator=ann, seconds_per_move=86400, invitees=[bob])
    tow.game_accept(game_id=game.pk, player=bob)
    held[0].connect_to_server()
    expect(page.locator(f'#my-games-lists a[href="/tow/{game.pk}/"]')).to_be_visible()
