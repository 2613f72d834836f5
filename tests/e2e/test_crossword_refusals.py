"""Where a crossword player reads why the board refused a tile: on the first screen, beside
the rack, at every size the site is played at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.crosswords import services
from tests.conftest import session_cookie_for

pytestmark = pytest.mark.e2e
DAY = 86400

SCREENS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
    "desktop": {"viewport": {"width": 1920, "height": 1080}},
}


@pytest.mark.parametrize("screen", SCREENS)
def test_a_tile_refused_by_a_square_says_why_on_the_first_screen(new_page, live_site, make_user, screen):
    """A rack tile tapped onto a square that is not ringed is refused, and the reason is in
    view without scrolling, next to the rack the player is looking at."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    page = new_page(**SCREENS[screen])
    name, value = session_cookie_for(ann).split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("[data-status-line]")).to_contain_text("Your turn")

    page.locator("[data-rack] .rt").first.click()
    page.locator('[data-square="0,0"]').click()
    error = page.locator("[data-error]")
    expect(error).to_contain_text("A1 does not take a tile now")
    expect(error).to_be_in_viewport(ratio=1)
    expect(page.locator("[data-rack]")).to_be_in_viewport(ratio=1)
    assert page.evaluate("window.scrollY") == 0
