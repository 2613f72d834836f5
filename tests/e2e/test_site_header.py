"""The site's header as a player sees it, before and after the site socket connects."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e


def test_the_players_online_are_counted_in_the_page_itself(page, new_page, make_user):
    """The header's count of players online is written by the server, so a page shows it
    before its socket connects (here, with no script at all): never a placeholder."""
    make_user("ann")
    log_in(page, "ann")
    expect(page.locator("[data-presence-count]")).to_have_text("1")
    quiet = new_page(java_script_enabled=False)
    quiet.goto("/")
    expect(quiet.locator(".online-pill")).to_have_text(re.compile(r"^\d+ online$"))


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def test_on_a_phone_the_header_is_one_row_and_its_links_are_behind_menu(new_page, make_user):
    """On a 390×844 phone a Word Grid game's board starts in the top seventh of the screen: the
    site's header is one row (brand, players online, bell, Menu) of at most 56 px. Menu
    opens the links, which lead on; Escape closes them. On a laptop there is no Menu. The
    game's number is long (a busy site's), which must not push the board down."""
    from django.db import connection

    from games.crosswords import services
    from games.crosswords.models import Game

    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [Game._meta.db_table, 9_876_543])
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    page = new_page(**PHONE)
    log_in(page, "ann")
    page.goto(f"/games/{game.pk}/")
    header = page.locator(".site-header").bounding_box()
    board = page.locator("[data-frame]").bounding_box()
    assert header["height"] <= 56, header
    assert board["y"] < 844 / 7, board
    my_games = page.get_by_role("link", name="My games")
    expect(my_games).to_be_hidden()
    menu = page.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu.locator("[data-menu-awaiting]")).to_have_text("1")  # ann's turn in this game
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(my_games).to_be_visible()
    page.keyboard.press("Escape")
    expect(my_games).to_be_hidden()
    expect(menu).to_be_focused()
    menu.click()
    my_games.click()
    expect(page.get_by_role("heading", name="My games")).to_be_visible()

    laptop = new_page(viewport={"width": 1366, "height": 768})
    log_in(laptop, "ann")
    expect(laptop.get_by_role("button", name="Menu")).to_be_hidden()
    expect(laptop.get_by_role("link", name="My games")).to_be_visible()


def test_on_a_phone_a_tow_games_chat_is_one_tap_away(new_page, make_user):
    """The game's head, on the first screen, links to the chat far below the table; the chat
    links back to the game."""
    from games.tow import services

    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=86400, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    page = new_page(**PHONE)
    log_in(page, "ann")
    page.goto(f"/tow/{game.pk}/")
    chat = page.get_by_role("region", name="Chat")
    expect(chat).to_be_visible()
    expect(chat).not_to_be_in_viewport()
    jump = page.get_by_role("link", name="Chat", exact=True)
    expect(jump).to_be_in_viewport()
    jump.click()
    expect(chat.get_by_role("textbox", name="Message")).to_be_in_viewport()
    chat.get_by_role("link", name="Back to the game").click()
    expect(jump).to_be_in_viewport()
