"""Rough edges found in play (issue 14, item 8), as a person sees them in the browser."""

from __future__ import annotations

import re

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


@pytest.mark.parametrize("answer", ["as it comes", "after the socket's reload"])
def test_a_play_typed_and_sent_with_enter_leaves_the_focus_on_the_board(page, make_user, answer):
    """After a keyboard move the board has the focus again, so the next one needs no Tab.

    The socket's "moved" may reach the page before the move's own answer; its reload then
    lands first and the answer replaces the board once more, which must not take the focus.
    """
    from games.crosswords import selectors, services
    from games.crosswords.models import Move

    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    play = deal_with_play(game, lambda p: not any(blank for *_, blank in p.placement), name="polish-play")
    assert selectors.engine_state(game).to_move == 0
    log_in(page, "ann")
    page.goto(f"/games/{game.pk}/")
    tiles = sorted(play.placement)
    start = page.locator(f'[data-square="{tiles[0][0]},{tiles[0][1]}"]')
    start.click()
    if not play.across and len(tiles) > 1:
        start.click()  # a second click turns the cursor downwards
    page.keyboard.type("".join(tile[2] for tile in tiles))
    expect(page.locator("[data-submit]")).to_have_text(f"Submit {play.score}")
    held = []
    if answer != "as it comes":
        page.route(f"**/games/{game.pk}/play/", lambda route: held.append((route, route.fetch())))
    page.keyboard.press("Enter")
    expect(page.locator("[data-status-line]")).to_contain_text("bob to move")
    if answer != "as it comes":
        for _ in range(200):  # the route handler may still be fetching the answer
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the move's answer was not held back"
        expect(page.locator("[data-board]")).to_be_focused()
        page.evaluate("document.getElementById('play-area').dataset.reloaded = '1'")
        route, response = held[0]
        route.fulfill(response=response)
        expect(page.locator("#play-area[data-reloaded]")).to_have_count(0)
    expect(page.locator("[data-board]")).to_be_focused()
    assert Move.objects.filter(game=game).count() == 1


def test_sound_is_off_until_switched_on_and_the_switch_is_remembered(page, make_user):
    """The header's sound switch starts off; switched on, it survives a reload and sounds play."""
    page.goto("/")
    switch = page.locator("[data-sound-toggle]")
    expect(switch).to_have_text("Sound off")
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("Wordfall.sound('found')") is False
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("[data-sound-toggle]")).to_have_text("Sound on")
    for kind in ("found", "taken", "invalid", "turn", "end"):
        assert page.evaluate(f"Wordfall.sound('{kind}')") is True
    assert page.evaluate("Wordfall.lastSound") == "end"
    page.locator("[data-sound-toggle]").click()
    assert page.evaluate("Wordfall.sound('found')") is False


def test_the_dark_theme_follows_the_system_and_passes_axe(browser, live_site, transactional_db, make_user):
    """With a dark system setting the page is dark, and the home and sign-up pages keep their contrast."""
    from tests.e2e.test_lexicon import axe_violations

    context = browser.new_context(base_url=live_site.url, color_scheme="dark", reduced_motion="reduce")
    page = context.new_page()
    try:
        page.goto("/")
        assert background(page.locator("body")) == "rgb(18, 20, 24)"
        assert axe_violations(page) == []
        page.goto("/signup/")
        assert axe_violations(page) == []
        # Reduced motion: the pop animation is not applied.
        assert (
            page.locator("body").evaluate(
                "() => { const d = document.createElement('div'); d.className = 'word-display ok';"
                " document.body.appendChild(d); return getComputedStyle(d).animationName; }"
            )
            == "none"
        )
    finally:
        context.close()


def test_the_service_worker_shows_the_offline_page_when_the_network_is_down(browser, live_site, transactional_db):
    """Once the worker is running, a page asked for offline is the site's offline page, styled from the cache."""
    context = browser.new_context(base_url=live_site.url)
    page = context.new_page()
    try:
        page.goto("/")
        assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.state)") in ("activated", "activating")
        page.reload()  # now controlled by the worker
        context.set_offline(True)
        page.goto("/hunts/")
        expect(page.get_by_role("heading", name="You are offline.")).to_be_visible()
        assert background(page.locator("body")) == "rgb(246, 243, 236)"  # site.css from the cache
    finally:
        context.close()


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


def test_a_first_time_player_sees_the_drag_hint_until_their_first_word(page, make_user):
    """An empty table shows "drag across tiles" to a new player; the first accepted word puts it away for good."""
    make_user("ann")
    log_in(page, "ann")
    table = open_table(page, "classic", "easy")
    hint = page.locator("[data-hunt-hint]")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Drag across neighbouring tiles")
    page.get_by_role("button", name="Start round").click()
    expect(page.locator("[data-clock]")).to_have_text(re.compile(r"^\d:\d\d$"), timeout=10000)
    game_round = HuntRound.objects.filter(table=table).latest("pk")
    board = hunt.Board.from_text(game_round.board)
    words = hunt.solve(board, get_lexicon(game_round.lexicon_code, game_round.lexicon_version), game_round.min_length)
    page.locator("[data-type-input]").fill(max(words, key=lambda w: (len(w), w)))
    page.locator("[data-type-input]").press("Enter")
    expect(page.locator("[data-word-display]")).to_have_attribute("data-outcome", "accepted")
    expect(hint).to_be_hidden()
    page.reload()
    expect(page.locator("[data-connection]")).to_have_text("live")
    expect(page.locator("[data-hunt-hint]")).to_be_hidden()


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
