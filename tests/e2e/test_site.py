"""What a person sees: signing up in a real browser against the running platform."""

import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def emailed_confirmation_path(live_site, address: str, timeout: float = 15) -> str:
    """The sign-up link the worker emailed to ``address`` (the console backend logs it)."""
    log = live_site.logs / f"worker-{live_site.port}.log"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        for message in text.split("-" * 79):
            if f"To: {address}" in message:
                match = re.search(r"https?://[^/\s]+(/signup/confirm/\S+)", message)
                if match:
                    return match.group(1)
        time.sleep(0.2)
    raise AssertionError(f"no confirmation email to {address} in {log}")


def test_sign_up_confirms_by_email_and_lands_on_the_profile_page(page, live_site):
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("wordsmith")
    page.get_by_label("Email").fill("wordsmith@example.com")
    page.get_by_label("Password", exact=True).fill("tile-rack-2026")
    page.get_by_label("Password confirmation").fill("tile-rack-2026")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    page.goto(emailed_confirmation_path(live_site, "wordsmith@example.com"))
    expect(page).to_have_url(f"{live_site.url}/u/wordsmith/")
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
