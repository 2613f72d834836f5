"""Playing on a phone, as a person does: a word typed during the countdown, rack tiles dragged by touch."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import hunt
from games.hunts import services as hunt_services
from games.hunts.models import FoundWord, HuntRound
from lexicon.services import get_lexicon
from tests.e2e.flows import deal_with_play, log_in
from tests.e2e.test_hunt import open_table

pytestmark = pytest.mark.e2e


ACCENT = "rgb(194, 65, 12)"


CLEAR = "rgba(0, 0, 0, 0)"


@pytest.fixture
def phone(browser, live_site, transactional_db):
    context = browser.new_context(
        base_url=live_site.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
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


def touch_drag_to(page, start, end) -> None:
    """A finger on ``start`` (x, y), sliding to ``end`` in small steps, lifted there."""
    touch = page.context.new_cdp_session(page)
    (x, y), (tx, ty) = start, end
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 9):
        point = {"x": x + (tx - x) * step / 8, "y": y + (ty - y) * step / 8}
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def centre(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_on_a_phone_rack_tiles_are_dragged_onto_the_board_by_touch(phone, make_user):
    """A finger drags each tile of a real play onto its square and the play is made; a square
    that is not offered says why; the edges carry A–O and 1–15."""
    from games.crosswords import selectors, services
    from games.crosswords.models import Move

    page = phone
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    play = deal_with_play(game, lambda p: not any(blank for *_, blank in p.placement), name="polish-rack")
    assert selectors.engine_state(game).to_move == 0  # ann, seat 1, moves first
    log_in(page, "ann")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".cw-cols span")).to_have_count(15)
    expect(page.locator(".cw-cols span").first).to_have_text("A")
    expect(page.locator(".cw-rows span").last).to_have_text("15")

    first = page.locator("[data-rack] .rt:not(.used)").first
    touch_drag_to(page, centre(first), centre(page.locator('[data-square="0,0"]')))
    expect(page.locator("[data-error]")).to_contain_text("A1 does not take a tile now")
    expect(page.locator('[data-square="0,0"] .t')).to_have_count(0)

    for row, col, letter, _ in play.placement:
        tile = page.locator(f'[data-rack] .rt:not(.used)[data-letter="{letter}"]').first
        touch_drag_to(page, centre(tile), centre(page.locator(f'[data-square="{row},{col}"]')))
        expect(page.locator(f'[data-square="{row},{col}"] .t.pending')).to_be_visible()
    expect(page.locator("[data-submit]")).to_have_text(f"Submit {play.score}")
    page.locator("[data-submit]").click()
    expect(page.locator("[data-status-line]")).to_contain_text("bob to move")
    move = Move.objects.get(game=game)
    assert sorted(map(tuple, move.placement)) == sorted(tuple(t) for t in play.placement)
