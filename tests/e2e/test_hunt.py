"""What a person sees in a live hunt: a table with a bot, a dragged word, the results."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import hunt
from games.hunts.models import FoundWord, HuntRound, HuntTable
from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e

ROUND_SECONDS = 30  # the shortest round a table allows, so a test waits for the end


def open_table(page, game: str, bot: str) -> HuntTable:
    page.goto("/")
    page.get_by_role("link", name="Play a word hunt").click()
    expect(page.get_by_role("heading", name="Word hunts")).to_be_visible()
    page.get_by_label("Game").select_option(game)
    page.get_by_label("Bot", exact=True).select_option(bot)
    page.get_by_role("button", name="Open table").click()
    expect(page).to_have_url(re.compile(r"/hunts/\d+/$"))
    table = HuntTable.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    HuntTable.objects.filter(pk=table.pk).update(round_seconds=ROUND_SECONDS)
    expect(page.locator("[data-connection]")).to_have_text("live")
    return table


def start_round(page, table) -> tuple[HuntRound, hunt.Board]:
    page.get_by_role("button", name="Start round").click()
    expect(page.locator("[data-countdown]")).to_be_visible()
    expect(page.locator("[data-clock]")).to_have_text(re.compile(r"^0:\d\d$"), timeout=10000)
    game_round = HuntRound.objects.filter(table=table).latest("pk")
    return game_round, hunt.Board.from_text(game_round.board)


def a_word_the_bot_will_not_take(game_round: HuntRound, board: hunt.Board) -> tuple[str, hunt.Path]:
    from lexicon.services import get_lexicon

    lex = get_lexicon(game_round.lexicon_code, game_round.lexicon_version)
    found = hunt.solve(board, lex, game_round.min_length)
    taken = set(FoundWord.objects.filter(round=game_round).values_list("word", flat=True))
    # The longest words are the least likely to be an easy bot's pick.
    word = max((w for w in found if w not in taken), key=lambda w: (len(w), w))
    return word, found[word]


def drag(page, path: hunt.Path) -> None:
    """Press on the first tile, move through the centres of the others, release."""

    def centre(square):
        box = page.locator(f'.hunt-tile[data-r="{square[0]}"][data-c="{square[1]}"]').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    x, y = centre(path[0])
    page.mouse.move(x, y)
    page.mouse.down()
    for square in path[1:]:
        tx, ty = centre(square)
        page.mouse.move(tx, ty, steps=6)
    page.mouse.up()


def test_rampage_with_a_bot_drag_a_word_and_see_the_results(page, make_user):
    """Drag a real word: it turns green, joins the found list; at the end the breakdown shows."""
    make_user("ann")
    log_in(page, "ann")
    table = open_table(page, "rampage", "easy")
    expect(page.locator("[data-seats] li")).to_have_count(2)
    game_round, board = start_round(page, table)
    word, path = a_word_the_bot_will_not_take(game_round, board)

    drag(page, path)
    display = page.locator("[data-word-display]")
    expect(display).to_have_attribute("data-outcome", "accepted")
    expect(display).to_have_class(re.compile(r"\bok\b"))
    # The dragged path's points: another path of the same word may cross other bonus tiles.
    points = hunt.score_rampage(board, path)
    expect(display).to_have_text(f"{word.upper()} +{points}")
    expect(page.locator(f'[data-found] li[data-word="{word}"]')).to_be_visible()

    # Dragging the same word again: amber, taken, with the reason; the board stays put.
    board_top = page.locator("[data-board]").bounding_box()["y"]
    drag(page, path)
    expect(display).to_have_attribute("data-outcome", "taken")
    expect(display).to_have_class(re.compile(r"\btaken\b"))
    expect(display.locator(".detail")).to_have_text(f"You already found {word.upper()}.")
    assert page.locator("[data-board]").bounding_box()["y"] == board_top

    # The bot plays too; its finds appear live.
    expect(page.locator("[data-found] li:not(.mine)").first).to_be_visible(timeout=25000)

    # The round ends on the server's clock and the results breakdown appears.
    results = page.locator("[data-results] .results")
    expect(results).to_be_visible(timeout=(ROUND_SECONDS + 15) * 1000)
    expect(results.get_by_text("Words nobody found")).to_be_visible()
    expect(results.locator(f'tr[data-word="{word}"]')).to_contain_text(str(points))

    # Play again: a new round with a new board at the same table; the old results go.
    page.get_by_role("button", name="Play again").click()
    expect(page.locator("[data-round-label]")).to_have_text("Round 2")
    expect(page.locator("[data-clock]")).to_have_text(re.compile(r"^0:\d\d$"), timeout=10000)
    expect(page.locator("[data-results] .results")).to_have_count(0)
    expect(page.locator("[data-found] li.mine")).to_have_count(0)
    assert HuntRound.objects.filter(table=table).count() == 2


def test_classic_type_a_word_and_see_the_comparison(page, make_user):
    """Classic: type a word and Enter; only own words are listed; the results compare two ways."""
    make_user("ann")
    log_in(page, "ann")
    table = open_table(page, "classic", "medium")
    game_round, board = start_round(page, table)
    word, _ = a_word_the_bot_will_not_take(game_round, board)

    page.get_by_placeholder(re.compile("type a word")).fill(word)
    page.keyboard.press("Enter")
    display = page.locator("[data-word-display]")
    expect(display).to_have_attribute("data-outcome", "accepted")
    expect(page.locator(f'[data-found] li[data-word="{word}"]')).to_be_visible()

    page.get_by_placeholder(re.compile("type a word")).fill("qzxv")
    page.keyboard.press("Enter")
    expect(display).to_have_attribute("data-outcome", "invalid")
    expect(display).to_have_class(re.compile(r"\bbad\b"))

    # The bot's words stay hidden; its count shows beside its seat.
    expect(page.locator("[data-seats] li").nth(1)).to_contain_text(
        re.compile(r"1 word\b|([2-9]|[1-9]\d+) words"), timeout=20000
    )
    expect(page.locator("[data-found] li")).to_have_count(1)

    results = page.locator("[data-results] .results")
    expect(results).to_be_visible(timeout=(ROUND_SECONDS + 15) * 1000)
    expect(results.get_by_text("By number of words")).to_be_visible()
    expect(results.get_by_text("Words nobody found")).to_be_visible()


def test_a_watcher_sees_finds_but_cannot_play(page, new_page, make_user):
    """An anonymous watcher sees the board and live finds, and has no way to submit."""
    make_user("ann")
    log_in(page, "ann")
    table = open_table(page, "rampage", "hard")
    watcher = new_page()
    watcher.goto(f"/hunts/{table.pk}/")
    expect(watcher.locator("[data-connection]")).to_have_text("live")
    expect(page.locator("[data-watchers]")).to_have_text("1")
    start_round(page, table)
    expect(watcher.locator(".hunt-tile")).to_have_count(16)
    expect(watcher.locator("[data-found] li").first).to_be_visible(timeout=20000)
    expect(watcher.locator("[data-type-form]")).to_be_hidden()
    expect(watcher.get_by_text("You are watching.")).to_be_visible()


def touch_drag(page, path: hunt.Path) -> None:
    """A finger on the first tile, sliding through the centres of the others, lifted."""
    touch = page.context.new_cdp_session(page)

    def centre(square):
        box = page.locator(f'.hunt-tile[data-r="{square[0]}"][data-c="{square[1]}"]').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    x, y = centre(path[0])
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for square in path[1:]:
        tx, ty = centre(square)
        for step in range(1, 6):
            point = {"x": x + (tx - x) * step / 5, "y": y + (ty - y) * step / 5}
            touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        x, y = tx, ty
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_phone_the_whole_board_shows_and_a_finger_drag_submits(browser, live_site, transactional_db, make_user):
    """At phone width the board is fully on screen during play, and a touch drag is accepted."""
    make_user("ann")
    context = browser.new_context(
        base_url=live_site.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(15000)
    page = context.new_page()
    try:
        log_in(page, "ann")
        table = open_table(page, "rampage", "easy")
        game_round, board = start_round(page, table)
        # Measured from the top of the page: the grid fits the first screen, no scrolling.
        bottom = page.locator("[data-board]").evaluate("el => el.getBoundingClientRect().bottom + window.scrollY")
        assert bottom <= 844
        word, path = a_word_the_bot_will_not_take(game_round, board)
        touch_drag(page, path)
        expect(page.locator("[data-word-display]")).to_have_attribute("data-outcome", "accepted")
        expect(page.locator(f'[data-found] li[data-word="{word}"]')).to_be_visible()
    finally:
        context.close()
