"""What two crossword players see: moves placed by tapping, live updates, refusals, blanks."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.crosswords import selectors, services
from games.crosswords.models import Game
from games.engine import crossword, crossword_game, movegen
from lexicon.services import get_lexicon
from tests.conftest import session_cookie_for
from tests.e2e.flows import deal_with_play, until

pytestmark = pytest.mark.e2e
DAY = 86400


def signed_in(new_page, live_site, user):
    page = new_page()
    name, value = session_cookie_for(user).split("=", 1)
    page.context.add_cookies([{"name": name, "value": value, "url": live_site.url}])
    return page


def seed_with_blank_opening() -> tuple[str, object]:
    """A seed whose opener holds a blank and has a best play using it."""
    lex = get_lexicon("common")
    variant = crossword.VARIANTS["wordgrid"]
    for n in range(500):
        seed = f"e2e-{n}"
        game = crossword_game.new_game(variant, 2, seed, lex)
        rack = game.racks[game.to_move]
        if "?" not in rack:
            continue
        plays = [
            p
            for p in movegen.generate(game.board, rack, variant, lex)
            if any(t[3] for t in p.placement) and len(p.placement) <= 4
        ]
        if plays:
            return seed, max(plays, key=lambda p: p.score)
    raise AssertionError("no seed with a blank opening")


def place(page, play):
    """Tap each rack tile, then its square; declare blanks in the dialog."""
    for row, col, letter, blank in play.placement:
        page.locator(f'[data-rack] .rt:not(.used)[data-letter="{"?" if blank else letter}"]').first.click()
        square = page.locator(f'[data-square="{row},{col}"]')
        if blank:
            square.click()
            dialog = page.locator("[data-blank-dialog]")
            expect(dialog).to_be_visible()
            with page.expect_response(lambda r: "/preview/" in r.url):
                dialog.locator(f'[data-blank-letter="{letter}"]').click()
        else:
            with page.expect_response(lambda r: "/preview/" in r.url):
                square.click()


def two_pages_on_a_game(new_page, live_site, ann, bob, seed):
    """Ann's Word Grid game against Bob from ``seed``, open in both players' browsers."""
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    Game.objects.filter(pk=game.pk).update(seed=seed)
    services.game_accept(game_id=game.pk, player=bob)
    ann_page = signed_in(new_page, live_site, ann)
    bob_page = signed_in(new_page, live_site, bob)
    for page in (ann_page, bob_page):
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#crossword")).to_have_attribute("data-socket", "open")
    return game, ann_page, bob_page


def test_two_players_play_against_each_other_live(new_page, live_site, make_user):
    """Ann sees Submit refused with the reason, declares a blank, plays; Bob sees it live and answers."""
    ann, bob = make_user("ann"), make_user("bob")
    seed, opening = seed_with_blank_opening()
    game, ann_page, bob_page = two_pages_on_a_game(new_page, live_site, ann, bob, seed)
    expect(ann_page.locator("[data-status-line]")).to_contain_text("Your turn")
    expect(bob_page.locator("[data-status-line]")).to_contain_text("ann to move")
    expect(ann_page.locator("[data-submit]")).to_be_disabled()
    expect(ann_page.locator("[data-deadline]")).to_have_attribute("title", re.compile("^Deadline: "))

    # An illegal placement: one tile off the star. Submit stays disabled with the reason.
    first = ann_page.locator('[data-rack] .rt:not([data-letter="?"])').first
    first.click()
    with ann_page.expect_response(lambda r: "/preview/" in r.url):
        ann_page.locator('[data-square="7,2"]').click()
    expect(ann_page.locator("[data-submit]")).to_be_disabled()
    expect(ann_page.locator("[data-preview-reason]")).to_contain_text("centre")
    expect(ann_page.locator("[data-submit]")).to_have_attribute("title", "The first word must cover the centre.")
    with ann_page.expect_response(lambda r: "/preview/" in r.url):
        ann_page.locator('[data-square="7,2"]').click()  # tap a placed tile: it goes back
    expect(ann_page.locator('[data-square="7,2"] .t')).to_have_count(0)

    # The legal opening, with a blank declared in the dialog.
    place(ann_page, opening)
    submit = ann_page.locator("[data-submit]")
    expect(submit).to_be_enabled()
    expect(submit).to_have_text(f"Submit {opening.score}")
    shown = "".join(
        letter if blank else letter.upper() for _, _, letter, blank in sorted(opening.placement)
    )  # the opening's tiles, in reading order
    expect(ann_page.locator("[data-preview-words]")).to_contain_text(shown)  # blank in lower case
    submit.click()
    expect(ann_page.locator("#play-area")).to_have_attribute("data-move-count", "1")
    expect(ann_page.locator("[data-status-line]")).to_contain_text("bob to move")

    # Bob's page updates live: the tiles, the blank tinted, the history, his turn.
    expect(bob_page.locator("#play-area")).to_have_attribute("data-move-count", "1")
    expect(bob_page.locator("[data-status-line]")).to_contain_text("Your turn")
    expect(bob_page.locator(".sq .t.blank")).to_have_count(sum(1 for t in opening.placement if t[3]))
    expect(bob_page.locator("[data-history]")).to_contain_text(shown)
    expect(bob_page.locator("[data-games-awaiting]")).to_have_text("1")  # the header badge, live
    expect(bob_page.locator("[data-toasts] .toast")).to_have_count(0)  # no toast over the board
    # The invitation and the turn are news of the page Bob is on: read, the bell stays quiet.
    expect(bob_page.locator("[data-notification-count]")).to_be_hidden()
    for row, col, letter, _ in opening.placement:
        expect(bob_page.locator(f'[data-square="{row},{col}"] .t')).to_contain_text(letter.upper())

    # Bob answers; Ann sees it live.
    game.refresh_from_db()
    state = selectors.engine_state(game)
    reply = movegen.best(state.board, state.racks[1], state.variant, state.lexicon)
    place(bob_page, reply)
    expect(bob_page.locator("[data-submit]")).to_have_text(f"Submit {reply.score}")
    bob_page.locator("[data-submit]").click()
    expect(bob_page.locator("[data-games-awaiting]")).to_be_hidden()
    expect(ann_page.locator("#play-area")).to_have_attribute("data-move-count", "2")
    expect(ann_page.locator("[data-status-line]")).to_contain_text("Your turn")
    expect(ann_page.locator(".cw-scores [data-seat='1'] [data-score]")).to_have_text(str(reply.score))

    # Bob resigns while Ann is to move: her badge no longer counts the game.
    expect(ann_page.locator("[data-games-awaiting]")).to_have_text("1")
    bob_page.locator("[data-resign-open]").click()
    bob_page.locator("[data-resign-confirm]").click()
    expect(ann_page.locator("[data-status-line]")).to_contain_text("Finished: ann wins")
    expect(ann_page.locator("[data-games-awaiting]")).to_be_hidden()

    # After the game, the replay steps back to the empty board: premium labels come back
    # on squares that hold tiles at the end.
    expect(bob_page.locator("[data-status-line]")).to_contain_text("Finished: ann wins")
    star = bob_page.locator('[data-square="7,7"]')
    expect(star.locator(".t")).to_be_visible()
    bob_page.locator('[data-replay-step="first"]').click()
    expect(bob_page.locator("[data-replay-text]")).to_contain_text("0/3")
    for scores in (".cw-scores", ".cw-strip"):  # both show the scores of the step
        expect(bob_page.locator(f"{scores} [data-seat='0'] [data-score]")).to_have_text("0")
    expect(star.locator(".t")).to_have_count(0)
    expect(star.locator(".lbl")).to_be_visible()
    expect(star.locator(".lbl")).to_have_text("★")
    bob_page.keyboard.press("ArrowRight")  # the arrow keys step too
    expect(bob_page.locator("[data-replay-text]")).to_contain_text("1/3")
    expect(star.locator(".t")).to_be_visible()
    expect(star.locator(".lbl")).to_be_hidden()
    bob_page.keyboard.press("End")
    expect(bob_page.locator("[data-replay-text]")).to_contain_text("3/3")


def test_a_change_made_while_the_page_loads_the_one_before_is_shown_too(new_page, live_site, make_user):
    """Ann plays and Bob resigns at once: the page is still loading the play area the move
    asked for, whose answer was made before the resignation. The page loads it again once
    that answer is in, and shows the game finished, with no later message to prompt it."""
    ann, bob = make_user("ann"), make_user("bob")
    seed, _ = seed_with_blank_opening()
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    Game.objects.filter(pk=game.pk).update(seed=seed)
    services.game_accept(game_id=game.pk, player=bob)
    page = signed_in(new_page, live_site, ann)
    held, hold, finished = [], [False], []

    def play_area(route):
        # While held, the play area is answered as the server has it now and handed to
        # the page later, as a slow answer would be.
        if hold[0] and route.request.headers.get("hx-request"):
            held.append((route, route.fetch()))
        else:
            route.continue_()

    def game_socket(socket):
        # Each of the page's sockets on the game (the board's and the chat's) as the server
        # sends it, up to the resignation's news: later news of the same finished game (the
        # post-game work tells pages too) would make the page load again whatever it did.
        server = socket.connect_to_server()
        told = []

        def from_server(message):
            if told and '"type":"moved"' in message:
                return
            if '"status":"finished"' in message:
                told.append(message)
                finished.append(message)
            socket.send(message)

        server.on_message(from_server)

    # Routed before the page loads (a route added to a drawn page can miss a request).
    page.route(f"**/games/{game.pk}/", play_area)
    page.route_web_socket(f"**/ws/games/{game.pk}/", game_socket)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#crossword")).to_have_attribute("data-socket", "open")
    expect(page.locator("[data-status-line]")).to_contain_text("Your turn")
    hold[0] = True
    game.refresh_from_db()
    state = selectors.engine_state(game)
    opening = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    services.game_play(game_id=game.pk, player=ann, placement=opening.placement, move_count=0)
    until(page, lambda: held, "the move's reload was not asked for")
    services.game_resign(game_id=game.pk, player=bob)
    until(page, lambda: len(finished) == 2, "the resignation did not reach both sockets")
    hold[0] = False
    route, answer = held.pop()
    route.fulfill(response=answer)  # the answer made before the resignation
    expect(page.locator("[data-status-line]")).to_contain_text("Finished: ann wins")


def test_blank_recall_swap_pass_resign_and_replay(new_page, live_site, make_user):
    """A recalled blank is blank again; swap, pass and a confirmed resignation reach both pages."""
    ann, bob = make_user("ann"), make_user("bob")
    seed, _ = seed_with_blank_opening()
    game, ann_page, bob_page = two_pages_on_a_game(new_page, live_site, ann, bob, seed)

    blank = ann_page.locator('[data-rack] .rt[data-letter="?"]').first
    star = ann_page.locator('[data-square="7,7"]')
    board = ann_page.locator("[data-board]")
    expect(board).not_to_have_class(re.compile("placing"))  # no rings until a tile is chosen
    blank.click()
    expect(board).to_have_class(re.compile("placing"))
    expect(star).to_have_class(re.compile("offered"))
    star.click()
    dialog = ann_page.locator("[data-blank-dialog]")
    expect(dialog).to_be_visible()
    expect(ann_page.locator("[data-submit]")).to_be_disabled()
    dialog.locator("[data-blank-cancel]").click()
    expect(dialog).to_be_hidden()
    expect(star.locator(".t")).to_have_count(0)
    expect(blank).to_be_visible()
    blank.click()
    star.click()
    with ann_page.expect_response(lambda r: "/preview/" in r.url):
        dialog.locator('[data-blank-letter="e"]').click()
    expect(star.locator(".t.blank")).to_have_text("E")
    with ann_page.expect_response(lambda r: "/preview/" in r.url):
        star.click()  # recalled: the blank is blank again on the rack
    expect(star.locator(".t")).to_have_count(0)
    expect(blank).to_be_visible()
    expect(blank).to_have_text("")

    # Typed, a letter missing from the rack takes the blank, declared without asking.
    game.refresh_from_db()  # the seed was changed in the database
    rack = selectors.engine_state(game).racks[0]
    missing = next(letter for letter in "zqxjkvwyfbhmpcgudlnrtsoiae" if letter not in rack)
    star.click()
    with ann_page.expect_response(lambda r: "/preview/" in r.url):
        ann_page.keyboard.press(missing)
    expect(star.locator(".t.blank")).to_have_text(missing.upper())
    expect(ann_page.locator("[data-blank-dialog]")).to_be_hidden()
    with ann_page.expect_response(lambda r: "/preview/" in r.url):
        ann_page.keyboard.press("Escape")
    expect(star.locator(".t")).to_have_count(0)

    ann_page.locator("[data-swap-open]").click()
    swap_tiles = ann_page.locator("[data-swap-tiles] .rt")
    swap_tiles.nth(0).click()
    swap_tiles.nth(1).click()
    ann_page.locator("[data-swap-confirm]").click()
    expect(ann_page.locator("#play-area")).to_have_attribute("data-move-count", "1")
    expect(bob_page.locator("[data-history]")).to_contain_text("swapped 2 tiles")

    expect(bob_page.locator("[data-pass-open]")).to_be_enabled()
    bob_page.locator("[data-pass-open]").click()  # a pass asks first: a mis-tap costs a turn
    expect(bob_page.locator("[data-pass-dialog]")).to_be_visible()
    expect(bob_page.locator("[data-pass-ends]")).to_have_count(0)
    bob_page.locator("[data-pass-confirm]").click()
    expect(ann_page.locator("[data-history]")).to_contain_text("bob passed")

    ann_page.locator("[data-resign-open]").click()
    ann_page.locator("[data-resign-confirm]").click()
    expect(bob_page.locator("[data-status-line]")).to_contain_text("Finished: bob wins")
    expect(ann_page.locator("[data-status-line]")).to_contain_text("Finished: bob wins")
    bob_page.locator('[data-replay-step="first"]').click()
    expect(bob_page.locator("[data-replay-text]")).to_contain_text("0/3")
    bob_page.locator('[data-replay-step="forward"]').click()
    expect(bob_page.locator("[data-replay-text]")).to_contain_text("1/3")
    expect(bob_page.get_by_role("button", name="Rematch")).to_be_visible()
    ann_page.get_by_role("button", name="Rematch").click()  # Bob's finished page offers it live
    expect(bob_page.get_by_role("link", name="Go to the rematch")).to_be_visible()
    bob_page.get_by_role("link", name="Go to the rematch").click()
    bob_page.get_by_role("button", name="Accept").click()
    expect(bob_page.locator("[data-status-line]")).to_contain_text("Your turn")  # seat 2 opens game 2
    expect(ann_page.locator("[data-status-line]")).to_contain_text("bob to move")


def test_invite_accept_and_the_game_starts_live(new_page, live_site, make_user):
    """Ann invites Bob from the new-game form; Bob accepts; Ann's waiting page turns into the board."""
    ann, bob = make_user("ann"), make_user("bob")
    ann_page = signed_in(new_page, live_site, ann)
    ann_page.goto("/")
    ann_page.locator('[data-entry="wordgrid"]').click()
    ann_page.get_by_label("Word Grid").check()
    ann_page.get_by_label("Time per move").select_option(label="2 days")
    ann_page.get_by_label("Invite players").fill("bob")
    ann_page.get_by_role("button", name="Create the game").click()
    expect(ann_page.locator("[data-status-line]")).to_contain_text("Waiting for players")
    expect(ann_page.locator("#crossword")).to_have_attribute("data-socket", "open")

    bob_page = signed_in(new_page, live_site, bob)
    bob_page.goto("/games/")
    expect(bob_page.get_by_role("heading", name="Invitations")).to_be_visible()
    bob_page.get_by_role("link", name="Word Grid #").first.click()
    bob_page.get_by_role("button", name="Accept").click()
    expect(bob_page.locator("[data-status-line]")).to_contain_text("ann to move")
    expect(ann_page.locator("[data-status-line]")).to_contain_text("Your turn")
    expect(ann_page.locator("[data-rack] .rt")).to_have_count(7)
    ann_page.goto("/games/")
    expect(ann_page.locator("[data-games-awaiting]")).to_have_text("1")


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800), (1366, 768)])
def test_the_board_rack_and_submit_fit_the_screen(new_page, live_site, make_user, width, height):
    """On a phone and a laptop the board, the rack and Submit are in view without scrolling
    sideways or down; on a phone the scores sit above the board."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    page = signed_in(new_page, live_site, ann)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/games/{game.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.locator("[data-board]").bounding_box()
    submit = page.locator("[data-submit]").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= width
    assert board["width"] >= min(width - 40, 480)  # as large as the screen allows
    assert submit["y"] + submit["height"] <= height
    resign = page.locator("[data-resign-open]").bounding_box()
    assert resign["y"] + resign["height"] <= height  # all six controls are in view
    strip = page.locator(".cw-strip")
    if width < 900:
        expect(strip).to_be_visible()
        expect(strip.locator("li.to-move")).to_contain_text("ann 0")
    else:
        expect(strip).to_be_hidden()
        expect(page.locator(".cw-scores")).to_be_in_viewport()


def test_a_word_is_typed_from_a_clicked_square(new_page, live_site, make_user):
    """Click a square, type the word: tiles go down along the row; Backspace takes the last back."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    # A rack that can spell a word across without a blank (a random one sometimes cannot).
    play = deal_with_play(
        game, lambda p: not any(t[3] for t in p.placement) and len({t[0] for t in p.placement}) == 1, name="typed-word"
    )
    assert selectors.engine_state(game).to_move == 0, "ann opens the first game of a series"
    tiles = sorted(play.placement, key=lambda t: t[1])
    page = signed_in(new_page, live_site, ann)
    page.goto(f"/games/{game.pk}/")
    page.locator("[data-board]").focus()  # from the keyboard the cursor starts on the star
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    expect(page.locator('[data-square="7,7"]')).to_have_class(re.compile("cursor"))
    page.keyboard.press("ArrowDown")
    expect(page.locator('[data-square="8,7"]')).to_have_class(re.compile("cursor down"))
    first = page.locator(f'[data-square="{tiles[0][0]},{tiles[0][1]}"]')
    first.click()
    first.click()
    first.click()  # across, down, across again
    expect(first).to_have_class(re.compile("cursor"))
    expect(first).not_to_have_class(re.compile("down"))
    word = "".join(t[2] for t in tiles)
    page.keyboard.type(word[:-1])
    with page.expect_response(lambda r: "/preview/" in r.url):
        page.keyboard.press(word[-1])
    expect(page.locator("[data-submit]")).to_have_text(f"Submit {play.score}")
    for row, col, letter, _ in tiles:
        expect(page.locator(f'[data-square="{row},{col}"] .t')).to_contain_text(letter.upper())
    with page.expect_response(lambda r: "/preview/" in r.url):
        page.keyboard.press("Backspace")
    last = tiles[-1]
    expect(page.locator(f'[data-square="{last[0]},{last[1]}"] .t')).to_have_count(0)
    expect(page.locator(f'[data-square="{last[0]},{last[1]}"]')).to_have_class(re.compile("cursor"))
    with page.expect_response(lambda r: "/preview/" in r.url):
        page.keyboard.press(last[2])
    expect(page.locator("[data-submit]")).to_be_enabled()
    page.keyboard.press("Enter")
    expect(page.locator("#play-area")).to_have_attribute("data-move-count", "1")
