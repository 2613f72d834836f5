"""The site's sound switch, its dark theme and its offline page, as a person sees them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_phone_play import background

pytestmark = pytest.mark.e2e


def test_sound_is_off_until_switched_on_and_the_switch_is_remembered(page, make_user):
    """The header's sound switch starts off; switched on, it survives a reload and sounds play."""
    page.goto("/")
    switch = page.locator("[data-sound-toggle]")
    expect(switch).to_have_text("Sound off")
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("Wordfall.sound('found')") is False
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("[data-sound-toggle]")).to_have_text("Sound on")
    for kind in ("found", "taken", "invalid", "turn", "end"):
        assert page.evaluate(f"Wordfall.sound('{kind}')") is True
    assert page.evaluate("Wordfall.lastSound") == "end"
    page.locator("[data-sound-toggle]").click()
    assert page.evaluate("Wordfall.sound('found')") is False


def test_the_dark_theme_follows_the_system_and_passes_axe(browser, live_site, transactional_db, make_user):
    """With a dark system setting the page is dark, and the home and sign-up pages keep their contrast."""
    from tests.e2e.test_lexicon import axe_violations

    context = browser.new_context(base_url=live_site.url, color_scheme="dark", reduced_motion="reduce")
    page = context.new_page()
    try:
        page.goto("/")
        assert background(page.locator("body")) == "rgb(18, 20, 24)"
        assert axe_violations(page) == []
        page.goto("/signup/")
        assert axe_violations(page) == []
        # Reduced motion: the pop animation is not applied.
        assert (
            page.locator("body").evaluate(
                "() => { const d = document.createElement('div'); d.className = 'word-display ok';"
                " document.body.appendChild(d); return getComputedStyle(d).animationName; }"
            )
            == "none"
        )
    finally:
        context.close()


def test_the_service_worker_shows_the_offline_page_when_the_network_is_down(browser, live_site, transactional_db):
    """Once the worker is running, a page asked for offline is the site's offline page, styled from the cache."""
    context = browser.new_context(base_url=live_site.url)
    page = context.new_page()
    try:
        page.goto("/")
        assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.state)") in ("activated", "activating")
        page.reload()  # now controlled by the worker
        context.set_offline(True)
        page.goto("/hunts/")
        expect(page.get_by_role("heading", name="You are offline.")).to_be_visible()
        assert background(page.locator("body")) == "rgb(246, 243, 236)"  # site.css from the cache
    finally:
        context.close()
