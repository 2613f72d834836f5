"""Pages work under the Content-Security-Policy: the browser reports no violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.hunts import services as hunt_services
from tests.e2e.flows import log_in

pytestmark = pytest.mark.e2e


def test_pages_run_their_scripts_with_no_policy_violation(page, make_user):
    """Scripts, styles and sockets load under the policy on the main pages, the admin included."""
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation',"
        " e => console.error('Content Security Policy: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    make_user("ann", is_staff=True, is_superuser=True)
    table = hunt_services.table_create(host=make_user("bob"), game="rampage")
    log_in(page, "ann")
    expect(page.locator("[data-presence-count]")).to_have_text("1")  # site.js opened its socket
    page.goto(f"/hunts/{table.pk}/")
    expect(page.locator("[data-connection]")).to_have_text("live")  # hunt.js ran and connected
    for path in ("/hunts/", "/words/", "/games/new/", "/admin/", "/admin/accounts/user/add/", "/settings/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    assert violations == []


def test_pages_with_live_triggers_run_them_with_no_console_error(page, make_user):
    """Every page with an htmx trigger (lists that reload on a socket's event) loads under
    the policy with no console error: a trigger filter is code htmx evaluates, which the
    policy forbids (an EvalError, and the filter silently dropped)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    make_user("ann")
    log_in(page, "ann")
    for path in ("/friends/", "/words/requests/", "/words/", "/games/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    assert errors == []
