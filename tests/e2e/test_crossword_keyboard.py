"""A crossword play typed and sent with Enter, as a keyboard player sees it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import deal_with_play, log_in, until

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("answer", ["as it comes", "after the socket's reload"])
def test_a_play_typed_and_sent_with_enter_leaves_the_focus_on_the_board(new_page, make_user, answer):
    """After a keyboard move the board has the focus again, so the next one needs no Tab.

    The socket's "moved" may reach the page before the move's own answer; its reload then
    lands first and the answer replaces the board once more, which must not take the focus.
    """
    from games.crosswords import selectors, services
    from games.crosswords.models import Move

    # No service worker: once one controls the page, its requests pass by page.route.
    page = new_page(service_workers="block")
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    play = deal_with_play(game, lambda p: not any(blank for *_, blank in p.placement), name="polish-play")
    assert selectors.engine_state(game).to_move == 0
    held = []
    if answer != "as it comes":
        # Routed before the game page loads: a page already drawn is routed only once the
        # browser has handed it new loaders, which page.route does not wait for, so the
        # move sent by the Enter right after it could reach the server past the route.
        page.route(f"**/games/{game.pk}/play/", lambda route: held.append(route))
    log_in(page, "ann")
    page.goto(f"/games/{game.pk}/")
    tiles = sorted(play.placement)
    start = page.locator(f'[data-square="{tiles[0][0]},{tiles[0][1]}"]')
    start.click()
    if not play.across and len(tiles) > 1:
        start.click()  # a second click turns the cursor downwards
    page.keyboard.type("".join(tile[2] for tile in tiles))
    expect(page.locator("[data-submit]")).to_have_text(f"Submit {play.score}")
    page.keyboard.press("Enter")
    if answer != "as it comes":
        # The move reaches the server through the test, which keeps the answer from the
        # page until the socket's reload has drawn the board.
        until(page, lambda: held, "the move was not sent")  # handed over as the browser makes it
        route = held[0]
        response = route.fetch()
        expect(page.locator("[data-status-line]")).to_contain_text("bob to move")
        expect(page.locator("[data-board]")).to_be_focused()
        page.evaluate("document.getElementById('play-area').dataset.reloaded = '1'")
        route.fulfill(response=response)
        expect(page.locator("#play-area[data-reloaded]")).to_have_count(0)
    else:
        expect(page.locator("[data-status-line]")).to_contain_text("bob to move")
    expect(page.locator("[data-board]")).to_be_focused()
    assert Move.objects.filter(game=game).count() == 1
