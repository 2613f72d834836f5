"""Friends in the browser: follow from a profile, a friend coming online, a challenge from
the friends page, and the friend's My games page showing the invitation without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.crosswords.models import Game
from tests.e2e.flows import log_in
from tests.e2e.test_lexicon import axe_violations

pytestmark = pytest.mark.e2e


def test_follow_challenge_and_the_invitation_appears_live(page, new_page, make_user):
    """Ann follows Bob; her friends page shows him come online by itself; she challenges him
    to Wordgame from it; Bob's open My games page lists the invitation by itself; he accepts.
    The friends and challenge pages pass axe."""
    make_user("ann"), make_user("bob")
    log_in(page, "ann")
    page.goto("/u/bob/")
    page.get_by_role("button", name="Follow").click()
    expect(page.get_by_role("button", name="Unfollow")).to_be_visible()
    page.get_by_role("link", name="Friends", exact=True).click()
    expect(page.locator("[data-friend=bob] [data-online]")).to_have_text("offline")

    # Bob arrives at once, while Ann's page may still be reloading the list for her own arrival.
    bob = new_page()
    log_in(bob, "bob")
    bob.goto("/games/")
    expect(bob.locator("#my-games-lists")).to_be_visible()
    # Reloads of the list are spaced 3 s apart: Bob's arrival may wait out the window that
    # Ann's own arrival opened, and it must still come through.
    expect(page.locator("[data-friend=bob] [data-online]")).to_have_text("online", timeout=10_000)
    violations = {"friends": axe_violations(page)}

    page.locator("[data-friend=bob]").get_by_role("link", name="Challenge").click()
    violations["challenge"] = axe_violations(page)
    page.get_by_role("radio", name="Wordgame (crossword)").check()
    page.get_by_role("button", name="Send the challenge").click()
    expect(page.get_by_text("Waiting for players")).to_be_visible()
    game = Game.objects.get()

    expect(bob.locator("#invitations")).to_be_visible()
    bob.locator("[data-action=accept]").click()
    expect(bob).to_have_url(f"{bob.url.split('/games/')[0]}/games/{game.pk}/")
    assert violations == {"friends": [], "challenge": []}


def test_the_friends_page_shows_no_template_text(page, make_user):
    """Nothing of the page's template (a comment, a tag) shows among a player's friends."""
    make_user("ann"), make_user("bob")
    log_in(page, "ann")
    page.goto("/u/bob/")
    page.get_by_role("button", name="Follow").click()
    page.goto("/friends/")
    expect(page.locator("[data-friend=bob]")).to_be_visible()
    text = page.locator("main").inner_text()
    assert not [mark for mark in ("{#", "#}", "{%", "%}", "{{", "}}") if mark in text], text
