"""What a person sees: checking a word, asking for it, a moderator approving it."""

import re
import threading

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from playwright.sync_api import expect

from lexicon import services
from tests.e2e.flows import log_in, until

pytestmark = pytest.mark.e2e


@pytest.fixture
def lexicons(transactional_db):
    services.ensure_lexicons()
    services.forget_loaded()


def test_a_word_typed_before_the_page_scripts_ran_is_checked(new_page, lexicons):
    """On a slow connection a word can be typed before htmx has wired the field: it is
    checked once htmx has, without another keystroke."""
    # No service worker: once one controls the page, its requests pass by page.route.
    page = new_page(service_workers="block")
    held = []
    page.route("**/htmx-2*.js", lambda route: held.append(route))
    page.goto("/words/", wait_until="commit")
    page.get_by_label("Word").fill("Zorbing")
    until(page, lambda: held, "htmx was not asked for")  # asked for as the browser reads the page
    assert page.evaluate("typeof window.htmx") == "undefined"
    held[0].continue_()
    expect(page.locator('tr[data-lexicon="common"]')).to_have_attribute("data-present", "no")
    expect(page).to_have_url(re.compile(r"/words/\?word=Zorbing$"))


def test_check_request_approve_and_see_the_new_version(page, new_page, make_user, lexicons):
    """A player checks a word, asks for it, a moderator approves it, the player is told."""
    make_user("ann")
    moderator = make_user("mod", is_staff=True)
    moderator.user_permissions.add(Permission.objects.get(codename="moderate_dictionaryrequest"))

    # The player checks a word: the results appear as they type, without a page load.
    log_in(page, "ann")
    page.get_by_role("link", name="Words").click()
    page.evaluate("window.__still_here = true")
    page.get_by_label("Word").fill("Zorbing")
    common = page.locator('tr[data-lexicon="common"]')
    expect(common).to_have_attribute("data-present", "no")
    expect(page.locator('tr[data-lexicon="en-gb"]')).to_have_attribute("data-present", "no")
    expect(page.locator("[data-band]")).to_have_text("rare")
    assert page.evaluate("window.__still_here") is True
    expect(page).to_have_url(re.compile(r"/words/\?word=Zorbing$"))

    # ... and asks for it to be added to Common English, with a reason.
    common.get_by_role("link", name="Ask to add").click()
    page.get_by_label("Reason").fill("Rolling downhill in a big ball; in the news.")
    page.get_by_role("button", name="Send request").click()
    expect(page.locator("[data-request-done]")).to_contain_text("waiting for a moderator")
    assert page.evaluate("window.__still_here") is True

    # Asking again is refused with the reason.
    common.get_by_role("link", name="Ask to add").click()
    page.get_by_label("Reason").fill("Really.")
    page.get_by_role("button", name="Send request").click()
    expect(page.get_by_role("alert")).to_contain_text("already asked")

    # The moderator approves it from the admin queue, in bulk, with a note.
    mod = new_page()
    log_in(mod, "mod")
    mod.goto("/admin/lexicon/dictionaryrequest/?status__exact=open")
    row = mod.locator("#result_list tbody tr", has_text="zorbing")
    expect(row).to_contain_text("rare")
    row.locator("input.action-select").check()
    mod.locator("select[name=action]").select_option("approve_selected")
    mod.get_by_role("button", name="Go").click()
    mod.get_by_label("Note").fill("Welcome aboard.")
    mod.get_by_role("button", name="Approve 1 request").click()
    expect(mod.locator(".messagelist")).to_contain_text("Approved: zorbing")

    # The player is told, sees the status on My requests, and the new version has it.
    page.goto("/notifications/")
    expect(page.get_by_text(re.compile("“zorbing”.*approved.*Welcome aboard"))).to_be_visible()
    page.goto("/words/requests/")
    expect(page.locator("[data-my-requests] tr", has_text="zorbing")).to_have_attribute("data-status", "approved")
    page.goto("/words/?word=zorbing")
    expect(page.locator('tr[data-lexicon="common"]')).to_have_attribute("data-present", "yes")
    expect(page.locator('tr[data-lexicon="common"]')).to_contain_text("v2")
    page.goto("/words/changes/")
    expect(page.locator('[data-change="common-2"]')).to_contain_text("zorbing")


def test_web_process_picks_up_a_version_approved_elsewhere(page, make_user, lexicons):
    """An approval made by another process is served by the running web process."""
    page.goto("/words/?word=zorbing")
    expect(page.locator('tr[data-lexicon="wordgame"]')).to_have_attribute("data-present", "no")
    moderator = make_user("mod", is_staff=True)
    moderator.user_permissions.add(Permission.objects.get(codename="moderate_dictionaryrequest"))
    request, _ = services.request_change(
        player=make_user("ann"), lexicon_code="wordgame", word="zorbing", action="add", reason="x"
    )
    services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
    page.goto("/words/?word=zorbing")
    expect(page.locator('tr[data-lexicon="wordgame"]')).to_have_attribute("data-present", "yes")


def test_word_check_by_keyboard_with_spoken_summary(page, make_user, lexicons):
    """Keyboard only: type a word, hear a one-line summary, open the request, give a reason,
    send it."""
    make_user("ann")
    log_in(page, "ann")
    page.goto("/words/")
    expect(page.get_by_role("textbox", name="Word")).to_be_focused()
    page.keyboard.type("colour")
    summary = page.get_by_role("status").filter(has_text="word lists")
    expect(summary).to_have_text(
        "“colour” is in 4 of 5 word lists; not in American English. Common in everyday English."
    )
    page.get_by_role("link", name="Ask to add “colour” to American English").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Ask to add “colour” to American English")).to_be_visible()
    expect(page.get_by_role("textbox", name="Reason")).to_be_focused()
    page.keyboard.type("Spelled this way in American books too.")
    page.get_by_role("button", name="Send request").focus()
    page.keyboard.press("Enter")
    done = page.get_by_role("status").filter(has_text="waiting for a moderator")
    expect(done).to_be_visible()
    expect(done).to_be_focused()  # the Send button it replaced is gone: focus is not lost
    # Editing the word replaces the results and the summary says why a word cannot be one.
    page.get_by_role("textbox", name="Word").fill("colour's")
    expect(page.locator("#word-summary")).to_have_text(
        "Use the letters a to z only (no spaces, digits, hyphens or apostrophes)."
    )


# Marks the page once its site socket has had a message: the socket sends its counts only
# after joining the player's group, so from then on it hears every notification.
SITE_SOCKET_HEARD = """
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    if (!String(args[0]).endsWith("/ws/presence/")) return;
    this.addEventListener("message", () => { document.documentElement.dataset.siteSocket = "heard"; }, { once: true });
  }
};
"""


def test_my_requests_page_shows_a_decision_as_it_is_made(page, make_user, lexicons):
    """A player watching My requests sees the status and note change when a moderator decides."""
    ann = make_user("ann")
    moderator = make_user("mod", is_staff=True)
    moderator.user_permissions.add(Permission.objects.get(codename="moderate_dictionaryrequest"))
    request, _ = services.request_change(
        player=ann, lexicon_code="common", word="zorbing", action="add", reason="A sport."
    )
    log_in(page, "ann")
    page.add_init_script(SITE_SOCKET_HEARD)
    page.goto("/words/requests/")
    row = page.locator(f'[data-my-requests] tr[data-request="{request.pk}"]')
    expect(row).to_have_attribute("data-status", "open")
    page.evaluate("window.__still_here = true")
    # The site socket has joined the player's group: it is told of the decision.
    expect(page.locator("html")).to_have_attribute("data-site-socket", "heard")
    # Decided in another thread, like another process: Playwright's event loop runs in this
    # one, and the broadcast after commit cannot run inside it.
    decide = threading.Thread(
        target=lambda: (
            services.request_decide(
                request_id=request.pk, moderator=moderator, approve=False, note="Not yet in print."
            ),
            connection.close(),
        )
    )
    decide.start()
    decide.join(20)
    expect(row).to_have_attribute("data-status", "rejected")
    expect(row).to_contain_text("Not yet in print.")
    assert page.evaluate("window.__still_here") is True


def test_worker_process_builds_an_approved_version_without_a_restart(live_site, make_user, lexicons):
    """After an approval the running Celery worker process loads and stores the new version."""
    import random
    import time

    from lexicon import core, loading, wordlists

    word = "zqx" + "".join(random.choice("abcdefghij") for _ in range(8))
    moderator = make_user("mod", is_staff=True)
    moderator.user_permissions.add(Permission.objects.get(codename="moderate_dictionaryrequest"))
    request, _ = services.request_change(
        player=make_user("ann"), lexicon_code="wordgame", word=word, action="add", reason="x"
    )
    stored = services.cache_dir() / f"wordgame-{wordlists.cache_key('wordgame', {word})}.lex"
    assert not stored.exists()
    decide = threading.Thread(
        target=lambda: (
            services.request_decide(request_id=request.pk, moderator=moderator, approve=True),
            connection.close(),
        )
    )
    decide.start()
    decide.join(20)
    deadline = time.monotonic() + 60
    while not stored.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    try:
        assert stored.exists(), "the worker did not build wordgame version 2"
        assert word in core.Lexicon.from_bytes(stored.read_bytes())
        assert loading.loaded_lexicon("wordgame", 2) is None  # built by the worker, not by this test
    finally:
        stored.unlink(missing_ok=True)


def axe_violations(page) -> list[str]:
    """axe-core's violations inside the page's main content (the site's header and footer
    are checked with the foundation's pages)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context={"include": [["main"]]})
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']]}" for v in results.response["violations"]]


def test_lexicon_pages_pass_axe(page, make_user, lexicons):
    """The word check page (results, a problem, the request panel with errors), My requests,
    the changes log and the request page have no axe-core violations."""
    ann = make_user("ann")
    services.request_change(player=ann, lexicon_code="common", word="zorbing", action="add", reason="A sport.")
    log_in(page, "ann")
    checked = {}
    page.goto("/words/?word=colour")
    checked["word check"] = axe_violations(page)
    page.get_by_role("link", name="Ask to add “colour” to American English").click()
    page.get_by_role("textbox", name="Reason").fill("x")
    page.get_by_role("radio", name="Remove").check()
    page.get_by_role("button", name="Send request").click()
    expect(page.get_by_role("alert")).to_contain_text("not in American English")
    checked["request panel with an error"] = axe_violations(page)
    page.get_by_role("textbox", name="Word").fill("ab1")
    expect(page.locator("[data-word-problem]")).to_be_visible()
    checked["word problem"] = axe_violations(page)
    for name, url in (
        ("my requests", "/words/requests/"),
        ("changes", "/words/changes/"),
        ("request page", "/words/request/?word=qzqz&lexicon=common&action=add"),
    ):
        page.goto(url)
        checked[name] = axe_violations(page)
    assert {name: found for name, found in checked.items() if found} == {}
