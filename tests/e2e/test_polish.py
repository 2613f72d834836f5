"""Rough edges found in play (issue 14, item 8), as a person sees them in the browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import hunt
from games.hunts import services as hunt_services
from games.hunts.models import FoundWord, HuntRound
from lexicon.services import get_lexicon
from tests.e2e.flows import log_in
from tests.e2e.test_hunt import open_table

pytestmark = pytest.mark.e2e

ACCENT = "rgb(194, 65, 12)"
CLEAR = "rgba(0, 0, 0, 0)"


@pytest.fixture
def phone(browser, live_site, transactional_db):
    context = browser.new_context(base_url=live_site.url, viewport={"width": 390, "height": 844},
                                  has_touch=True, is_mobile=True)
    context.set_default_timeout(15000)
    yield context.new_page()
    context.close()


def background(locator) -> str:
    return locator.evaluate("el => getComputedStyle(el).backgroundColor")


def test_on_a_phone_a_word_typed_in_the_countdown_is_sent_and_play_again_shows_the_clock(phone, make_user):
    """A word typed during 3-2-1 is held and sent at the start; after "Play again" the clock and word line are on screen.

    The quiet Leave button is drawn as a quiet (ghost) button, the Start button as a primary one.
    """
    page = phone
    ann = make_user("ann")
    log_in(page, "ann")
    table = open_table(page, "classic", "easy")
    assert background(page.locator("[data-leave] button")) == CLEAR
    assert background(page.locator("[data-start-button]")) == ACCENT

    page.get_by_role("button", name="Start round").click()
    expect(page.locator("[data-countdown]")).to_be_visible()
    game_round = HuntRound.objects.filter(table=table).latest("pk")
    board = hunt.Board.from_text(game_round.board)
    words = hunt.solve(board, get_lexicon(game_round.lexicon_code, game_round.lexicon_version), game_round.min_length)
    word = max(words, key=lambda w: (len(w), w))
    page.locator("[data-type-input]").fill(word)
    page.locator("[data-type-input]").press("Enter")
    expect(page.locator("[data-word-display]")).to_contain_text("Sent when the round starts")
    expect(page.locator("[data-word-display]")).to_have_attribute("data-outcome", "accepted", timeout=10000)
    assert FoundWord.objects.filter(round=game_round, user=ann, word=word).exists()

    hunt_services.round_end(round_id=game_round.pk, now=game_round.deadline)
    expect(page.locator("[data-results] .results")).to_be_visible()
    again = page.get_by_role("button", name="Play again")
    again.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    again.click()
    expect(page.locator("[data-countdown]")).to_be_visible()
    expect(page.locator(".hunt-status")).to_be_in_viewport(ratio=1)
    expect(page.locator("[data-word-display]")).to_be_in_viewport()
    expect(page.locator("[data-clock]")).to_be_in_viewport(timeout=10000)
