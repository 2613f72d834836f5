"""The TOW status line (a polite live region) is written only when its text changes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.tow import services
from tests.conftest import session_cookie_for

pytestmark = pytest.mark.e2e
DAY = 86400


def test_status_line_is_not_rewritten_every_second(new_page, live_site, make_user):
    """In a day-long turn the time left reads "23 h 59 min" for a minute: the screen reader's
    live region sees no rewrite while the clock ticks."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    page = new_page()
    name, value = session_cookie_for(ann).split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
    page.goto(f"/tow/{game.pk}/")
    status = page.locator("[data-status]")
    expect(status).to_contain_text(" left")
    status.evaluate("""line => {
        window.statusWrites = 0;
        new MutationObserver(records => { window.statusWrites += records.length; })
            .observe(line, {childList: true, characterData: true, subtree: true});
        // Each tick of the clock reads the time left: counted, so the test sees ticks pass.
        window.statusTicks = 0;
        const timeLeft = window.Wordfall.timeLeft;
        window.Wordfall.timeLeft = (seconds) => { window.statusTicks += 1; return timeLeft(seconds); };
    }""")
    page.wait_for_function("() => window.statusTicks >= 2")
    # A minute boundary may fall between the ticks: at most one real change (one record).
    assert page.evaluate("window.statusWrites") <= 1
    expect(status).to_contain_text(" left")
