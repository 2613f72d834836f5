"""A player starts a game against a bot from the home page and sees the bot answer live."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.crosswords.models import Game, Move
from tests.e2e.flows import deal_with_play
from tests.e2e.test_crossword import place, signed_in

pytestmark = pytest.mark.e2e


def test_a_game_against_a_bot_from_the_home_page(new_page, live_site, make_user):
    """Choose Word Grid, a club bot and live play on the home page: the game starts at
    once; after the person's play the bot's reply appears without a reload."""
    ann = make_user("ann")
    page = signed_in(new_page, live_site, ann)
    page.goto("/")
    form = page.locator("[data-play-bot]")
    form.get_by_label("Variant").select_option("wordgrid")
    form.get_by_label("Bot").select_option("club")
    form.get_by_label("Time per move").select_option(str(5 * 60))
    form.get_by_role("button", name="Start the game").click()
    expect(page.locator("#crossword")).to_have_attribute("data-socket", "open")
    game = Game.objects.get()
    expect(page.locator(".cw-scores")).to_contain_text("Club bot (Word Grid)")
    expect(page.locator("[data-status-line]")).to_contain_text("Your turn")

    # The home page dealt at random; a fixed deal (before any move) is sure to have a play.
    play = deal_with_play(game, lambda p: not any(t[3] for t in p.placement), name="bot-home")
    page.reload()
    expect(page.locator("#crossword")).to_have_attribute("data-socket", "open")
    expect(page.locator("[data-status-line]")).to_contain_text("Your turn")
    place(page, play)
    page.locator("[data-submit]").click()
    expect(page.locator("#play-area")).to_have_attribute("data-move-count", "1")
    # The bot thinks for a few seconds (live game), then its move arrives over the socket.
    expect(page.locator("#play-area")).to_have_attribute("data-move-count", "2", timeout=30_000)
    expect(page.locator("[data-status-line]")).to_contain_text("Your turn")
    bot_move = Move.objects.get(game=game, number=1)
    # A play's word is in capitals with its blanks in lower case ("IcEBERGS").
    expect(page.locator("[data-history]")).to_contain_text(
        "passed" if bot_move.kind == "pass" else bot_move.words[0][0] if bot_move.kind == "place" else "swapped",
        ignore_case=True,
    )
