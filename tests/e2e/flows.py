"""Steps that several browser tests take, written once."""

from playwright.sync_api import expect


def log_in(page, username: str, password: str = "correct-horse-9") -> None:
    """Log in through the form, as a person would, and wait for the signed-in header."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
