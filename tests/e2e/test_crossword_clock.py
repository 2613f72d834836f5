"""A clocked live crossword game in the browser: both players' clocks beside the scores,
the running one ticking down, and a player whose time runs out losing on time (the
server's deadline task, with no page asking)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db.models import F
from playwright.sync_api import expect

from games.crosswords import services
from games.crosswords.models import Game
from games.engine.clock import Clock
from tests.conftest import session_cookie_for
from tests.e2e.test_lexicon import axe_violations

pytestmark = pytest.mark.e2e

SCREENS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
}


@pytest.mark.parametrize("screen", SCREENS)
def test_the_clocks_tick_on_the_first_screen_and_time_up_loses_the_game(new_page, live_site, make_user, screen):
    """Two minutes each; Ann is told when her own clock passes a minute, and Bob has only
    20 seconds left when she passes to him, so his time runs out while she watches."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(
        creator=ann, variant="wordgrid", seconds_per_move=3600, invitees=[bob], clock=Clock(120)
    )
    services.game_accept(game_id=game.pk, player=bob)
    # Ann opens with 75 seconds, Bob has 20: as if both had used the rest already.
    Game.objects.filter(pk=game.pk).update(
        clock_left=[75_000, 20_000], deadline=F("turn_started_at") + timedelta(seconds=75)
    )
    page = new_page(**SCREENS[screen])
    name, value = session_cookie_for(ann).split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("[data-status-line]")).to_contain_text("Your turn")
    expect(page.locator("[data-status-line]")).to_contain_text("clock: 2 min")

    # Both clocks, on the first screen (a phone's score strip above the board, the scores
    # beside it on a laptop); the player to move's runs, the other's stands.
    scores = page.locator(".cw-strip" if screen == "phone" else ".cw-scores")
    expect(scores.locator("[data-clock]")).to_have_count(2)
    mine = scores.get_by_role("timer", name=re.compile(r"^Ann.*clock, running$", re.I))
    theirs = scores.get_by_role("timer", name=re.compile(r"^Bob.*clock$", re.I))
    expect(mine).to_be_in_viewport(ratio=1)
    expect(theirs).to_be_in_viewport(ratio=1)
    expect(theirs).to_have_text(re.compile(r"0:20$"))
    expect(mine).to_have_text(re.compile(r"[01]:\d\d$"))
    ticking = mine.inner_text()
    expect(mine).not_to_have_text(ticking)  # a second later it reads a second less
    expect(theirs).to_have_text(re.compile(r"0:20$"))
    expect(page.locator("[data-rack]")).to_be_in_viewport(ratio=1)
    assert axe_violations(page) == []
    expect(page.locator("[data-clock-news]")).to_have_text("One minute left on your clock.", timeout=30000)
    expect(mine).to_have_text(re.compile(r"0:[0-5]\d$"))

    # Ann passes: her clock stops with what she has left, and Bob's starts.
    page.locator("[data-pass-open]").click()
    page.locator("[data-pass-confirm]").click()
    running = scores.get_by_role("timer", name=re.compile(r"^Bob.*clock, running$", re.I))
    expect(running).to_be_visible()
    stopped = scores.get_by_role("timer", name=re.compile(r"^Ann.*clock$", re.I))
    left = stopped.inner_text()
    expect(running).not_to_have_text(re.compile(r"0:20$"))
    assert stopped.inner_text() == left

    # Bob never moves: when his time is up the server ends the game, and Ann's page says so.
    status = page.locator("[data-status-line]")
    expect(status).to_contain_text("Finished", timeout=40000)
    expect(status).to_contain_text("ann wins")
    expect(status).to_contain_text("bob forfeited")
    expect(page.locator("[data-history]")).to_contain_text("lost on time")
    expect(scores.locator("[data-clock]").filter(has_text="0:00")).to_have_count(1)
    assert not scores.locator("[data-clock][data-running]").count()
    assert page.evaluate("window.scrollY") == 0
