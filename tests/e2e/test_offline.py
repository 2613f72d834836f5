"""The page the service worker shows while the network is down."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e


def test_the_offline_page_shows_nothing_of_the_player_it_was_fetched_for(page, make_user):
    """The worker keeps the offline page from when it was installed, by a signed-in player;
    shown later with the network down, its header holds only the site's name: no account
    links, no bell or its count, no players online, no message meant for a page then."""
    make_user("ann")
    log_in(page, "ann")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.state)") in ("activated", "activating")
    page.reload()  # now controlled by the worker, which has the offline page in its cache
    page.context.set_offline(True)
    page.goto("/games/")
    expect(page.get_by_role("heading", name="You are offline.")).to_be_visible()
    header = page.locator(".site-header")
    expect(header.get_by_role("link")).to_have_count(1)
    expect(header).to_have_text("WWordfall")
    expect(page.locator(".messages")).to_be_empty()
