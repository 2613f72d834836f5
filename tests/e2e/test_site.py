"""What a person sees: signing up in a real browser against the running platform."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_sign_up_lands_on_the_profile_page(page):
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("wordsmith")
    page.get_by_label("Email").fill("wordsmith@example.com")
    page.get_by_label("Password", exact=True).fill("tile-rack-2026")
    page.get_by_label("Password confirmation").fill("tile-rack-2026")
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(f"{page.context.pages[0].url.split('/u/')[0]}/u/wordsmith/")
    expect(page.get_by_role("heading", name="wordsmith")).to_be_visible()
    expect(page.get_by_text("Welcome, wordsmith!")).to_be_visible()
    # The site socket is live: the header counts this player as online.
    expect(page.locator("[data-presence-count]")).to_have_text("1")


def test_sign_up_with_a_mismatched_password_shows_the_error(page):
    page.goto("/signup/")
    page.get_by_label("Username").fill("wordsmith")
    page.get_by_label("Email").fill("wordsmith@example.com")
    page.get_by_label("Password", exact=True).fill("tile-rack-2026")
    page.get_by_label("Password confirmation").fill("tile-rack-2027")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("The two password fields didn’t match.")).to_be_visible()
