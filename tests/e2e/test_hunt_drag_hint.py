"""The hint a first-time hunt player sees: how to drag a word, until their first word."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import hunt
from games.hunts.models import HuntRound
from lexicon.services import get_lexicon
from tests.e2e.flows import log_in
from tests.e2e.test_hunt import open_table

pytestmark = pytest.mark.e2e


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
