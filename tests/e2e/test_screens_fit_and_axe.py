"""Every game's main screen and How to play page fits a phone and a laptop without sideways scrolling and passes axe."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import log_in
from tests.e2e.test_hunt import open_table

pytestmark = pytest.mark.e2e


def test_how_to_play_pages_pass_axe_and_fit_a_phone(browser, live_site, transactional_db):
    """Every How to play page has no axe-core violations and no sideways scrolling at 390 px."""
    from tests.e2e.test_lexicon import axe_violations

    context = browser.new_context(base_url=live_site.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        found = {}
        for path in (
            "/how-to-play/",
            "/how-to-play/rampage/",
            "/how-to-play/classic/",
            "/how-to-play/wordgrid/",
            "/how-to-play/wordgame/",
            "/how-to-play/tow/",
            "/offline/",
        ):
            page.goto(path)
            found[path] = axe_violations(page)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
            if path.endswith("wordgrid/"):
                page.screenshot(path="/tmp/polish/howto_wordgrid.png", full_page=True)
        assert found == {path: [] for path in found}
    finally:
        context.close()


@pytest.mark.parametrize("width, height", [(390, 844), (1366, 768)])
def test_each_games_main_screen_fits_and_passes_axe(browser, live_site, transactional_db, make_user, width, height):
    """A hunt in play, a crossword game and a TOW game: no sideways scrolling, the whole board on the
    first screen, no axe-core violations; a screenshot of each is kept for a person to look at."""
    from games.crosswords import services as crossword_services
    from games.tow import services as tow_services
    from tests.e2e.test_lexicon import axe_violations

    ann, bob = make_user("ann"), make_user("bob")
    crossword = crossword_services.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    crossword_services.game_accept(game_id=crossword.pk, player=bob)
    tow = tow_services.game_create(creator=ann, seconds_per_move=86400, invitees=[bob])
    tow_services.game_accept(game_id=tow.pk, player=bob)
    context = browser.new_context(
        base_url=live_site.url,
        viewport={"width": width, "height": height},
        has_touch=width < 600,
        is_mobile=width < 600,
    )
    context.set_default_timeout(15000)
    page = context.new_page()
    found = {}
    try:
        log_in(page, "ann")
        table = open_table(page, "rampage", "easy")
        page.get_by_role("button", name="Start round").click()
        expect(page.locator("[data-clock]")).to_have_text(re.compile(r"^\d:\d\d$"), timeout=10000)
        screens = [
            ("hunt", None, "[data-board]"),
            ("crossword", f"/games/{crossword.pk}/", "[data-board]"),
            ("tow", f"/tow/{tow.pk}/", "[data-viewport]"),
        ]
        for name, path, board in screens:
            if path:
                page.goto(path)
            page.evaluate("window.scrollTo(0, 0)")
            assert page.evaluate("document.documentElement.scrollWidth") <= width, name
            box = page.locator(board).first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, name
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, name
            page.screenshot(path=f"/tmp/wordfall-{name}-{width}x{height}.png")
            found[name] = axe_violations(page)
        assert found == {name: [] for name in found}
        assert table.pk
    finally:
        context.close()
