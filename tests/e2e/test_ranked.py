"""Ranked play as people see it: two players press "Play ranked" in two browsers, land in
the same round, and see their rating change on the results."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import hunt
from games.hunts.models import HuntRound, HuntTable
from lexicon.services import get_lexicon
from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e


def test_two_players_press_play_ranked_and_land_in_the_same_round(new_page, make_user):
    """Both wait with a live count, are matched into one ranked table whose round starts by
    itself, and after it the winner's rating goes up and the loser's down."""
    make_user("ann")
    make_user("bob")
    pages = {}
    for name in ("ann", "bob"):
        page = new_page()
        log_in(page, name)
        page.goto("/hunts/")
        page.get_by_role("button", name="Play ranked: Word Rampage").click()
        expect(page.get_by_text("Looking for Word Rampage opponents")).to_be_visible()
        pages[name] = page
    expect(pages["ann"].locator('[data-pool-count="rampage"]').first).to_have_text("2")
    expect(pages["ann"].locator("[data-ranked-elapsed]")).not_to_have_text("0:00")

    # The matcher holds a pair a few seconds for a fuller table, then seats them.
    for page in pages.values():
        expect(page).to_have_url(re.compile(r"/hunts/\d+/$"), timeout=30000)
    assert pages["ann"].url == pages["bob"].url
    table = HuntTable.objects.get(pk=int(pages["ann"].url.rstrip("/").rsplit("/", 1)[1]))
    assert table.ranked and table.seat_count == 2
    ann = pages["ann"]
    expect(ann.locator("[data-seats] li")).to_have_count(2)
    expect(ann.locator("[data-clock]")).to_have_text(re.compile(r"^\d:\d\d$"), timeout=10000)

    game_round = HuntRound.objects.get(table=table)
    board = hunt.Board.from_text(game_round.board)
    words = hunt.solve(board, get_lexicon(game_round.lexicon_code, game_round.lexicon_version), game_round.min_length)
    word = max(words, key=lambda w: (len(w), w))
    ann.get_by_placeholder(re.compile("type a word")).fill(word)
    ann.keyboard.press("Enter")
    expect(ann.locator("[data-word-display]")).to_have_attribute("data-outcome", "accepted")
    expect(pages["bob"].locator(f'[data-found] li[data-word="{word}"]')).to_be_visible()

    # A Rampage round lasts minutes: bring its deadline to now; the server ends it.
    HuntRound.objects.filter(pk=game_round.pk).update(deadline=timezone.now())
    for name, sign in (("ann", "+"), ("bob", "−")):
        results = pages[name].locator("[data-results] .results")
        expect(results).to_be_visible(timeout=30000)
        change = results.locator("[data-rating-change]:not([data-rating-change=pending])")
        expect(change).to_have_count(2, timeout=20000)
        mine = results.locator("tr", has_text=name).locator("[data-rating-change]")
        expect(mine).to_have_text(re.compile("^" + re.escape(sign) + r"\d+$"))
