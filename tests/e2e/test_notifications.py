"""The bell and the toasts while a player is on a game's page: what that page shows is not
announced again; news about anything else still is."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import Notification
from accounts.services import notify
from games.crosswords import services as crossword_services
from games.tow import services as tow_services
from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e
DAY = 86400


def unread(user) -> int:
    return Notification.objects.filter(user=user, read_at=None).count()


@pytest.mark.parametrize("kind", ["crossword", "tow"])
def test_moves_on_the_game_in_front_of_the_player_ring_no_bell(page, make_user, kind):
    """Bob's moves and the game's end while Ann watches the game leave her bell empty and
    her page free of toasts; news of another page still rings the bell and shows a toast.
    Notifications about the game that came while she was away are read as she opens it."""
    ann, bob = make_user("ann"), make_user("bob")
    services = crossword_services if kind == "crossword" else tow_services
    if kind == "crossword":
        game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    else:
        game = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    if game.to_move == 0:  # Bob moves first on the page, so his moves come as news
        services.game_pass(game_id=game.pk, player=ann, move_count=0)
        game.refresh_from_db()
    notify(user=ann, kind="test", text="Bob said hello in the game.", url=game.get_absolute_url())
    log_in(page, "ann")
    page.goto(game.get_absolute_url())
    badge = page.locator("[data-notification-count]")
    expect(badge).to_be_hidden()
    assert unread(ann) == 0

    # Passes to the end of the game: every player's two scoreless turns.
    status = page.locator("[data-status-line], [data-status]").first
    while game.status == "active":
        services.game_pass(game_id=game.pk, player=bob if game.to_move == 1 else ann, move_count=game.move_count)
        game.refresh_from_db()
        expect(status).to_contain_text(
            "Finished" if game.status == "finished" else "Your turn" if game.to_move == 0 else "to move"
        )
    expect(page.locator("[data-toasts] .toast")).to_have_count(0)
    expect(badge).to_be_hidden()
    kinds = Notification.objects.filter(user=ann, url=game.get_absolute_url()).values_list("kind", flat=True)
    assert {f"{kind}.turn", f"{kind}.over"} <= set(kinds)
    assert unread(ann) == 0

    notify(user=ann, kind="test", text="Cy invites you to a game.", url="/games/new/")
    expect(page.locator("[data-toasts] .toast")).to_contain_text("Cy invites you")
    expect(badge).to_have_text("1")
    assert unread(ann) == 1


def test_a_fresh_notification_is_listed_as_just_now(page, make_user):
    """Written a moment ago, a notification says so, not "0 minutes ago"."""
    ann = make_user("ann")
    log_in(page, "ann")
    notify(user=ann, kind="test", text="Bob invites you to a game.", url="/games/new/")
    page.goto("/notifications/")
    when = page.locator(".notification-list time")
    expect(when).to_have_text(re.compile(r"^(now|\d+\s+seconds?\s+ago)$"))
