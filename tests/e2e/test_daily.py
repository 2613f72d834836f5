"""The daily challenge as a player sees it: play today's board once, then the leaderboard,
every word of the board and the rarest finds."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import hunt
from games.hunts.models import HuntRound
from lexicon.services import get_lexicon
from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e


def test_play_the_daily_rampage_then_see_the_words(page, make_user):
    """One solo round on the day's board; afterwards the score and rank, the board's words
    and the rarest finds show, and the board cannot be played again."""
    make_user("ann")
    log_in(page, "ann")
    page.goto("/hunts/")
    page.get_by_role("link", name="Daily challenge").click()
    expect(page.get_by_role("heading", name=re.compile("Daily challenge"))).to_be_visible()
    page.get_by_role("button", name="Play today's Word Rampage").click()
    expect(page).to_have_url(re.compile(r"/hunts/\d+/$"))
    expect(page.locator("[data-seats] li")).to_have_count(1)
    expect(page.locator("[data-clock]")).to_have_text(re.compile(r"^\d:\d\d$"), timeout=10000)

    game_round = HuntRound.objects.get(table__host__username="ann")
    board = hunt.Board.from_text(game_round.board)
    words = hunt.solve(board, get_lexicon(game_round.lexicon_code, game_round.lexicon_version), game_round.min_length)
    word = max(words, key=lambda w: (len(w), w))
    page.get_by_placeholder(re.compile("type a word")).fill(word)
    page.keyboard.press("Enter")
    expect(page.locator("[data-word-display]")).to_have_attribute("data-outcome", "accepted")
    expect(page.locator("[data-start]")).to_be_hidden()

    HuntRound.objects.filter(pk=game_round.pk).update(deadline=timezone.now())
    expect(page.locator("[data-results] .results")).to_be_visible(timeout=30000)
    expect(page.locator("[data-start]")).to_be_hidden()  # no "Play again" at a daily table

    page.goto("/hunts/daily/")
    card = page.locator('[data-daily="rampage"]')
    expect(card.locator("[data-daily-mine]")).to_contain_text("rank 1 of 1")
    expect(card.get_by_role("button", name=re.compile("Play today's"))).to_have_count(0)
    card.get_by_role("link", name=re.compile("Full leaderboard")).click()
    expect(page.locator("[data-rarest] li").first).to_contain_text(f"{word.upper()}")
    expect(page.locator("[data-rarest] li").first).to_contain_text("found by ann")
    expect(page.locator("[data-daily-words] tbody tr")).to_have_count(len(words))
