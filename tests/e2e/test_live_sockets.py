"""Every page's live socket comes from one helper (site.js ``Wordfall.live``): it comes back
after a drop and stops for good when the server says coming back would not help.

The browser's WebSocket is replaced by one the test drives, and its clock by Playwright's,
so each reconnect (or its absence) is decided by the page's own timers, not by waiting.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
START = datetime.datetime(2026, 1, 1, 8, 0, tzinfo=datetime.UTC)

# Sockets the test opens and closes by hand: each records its path and what it was sent.
DRIVEN_SOCKETS = """
window.__sockets = [];
window.WebSocket = class {
  static OPEN = 1;
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; window.__sockets.push(this); }
  send(data) { this.sent.push(JSON.parse(data)); }
  close() {}
  serverOpens() { this.readyState = 1; this.onopen && this.onopen({}); }
  serverSends(msg) { this.onmessage && this.onmessage({ data: JSON.stringify(msg) }); }
  serverCloses(code) { this.readyState = 3; this.onclose && this.onclose({ code }); }
};
"""


@pytest.fixture
def driven(page):
    # The installed clock runs on with real time until paused: paused, only run_for moves
    # it, so a slow machine cannot fire a reconnect the test has not reached yet.
    page.clock.install(time=START)
    page.add_init_script(DRIVEN_SOCKETS)
    page.goto("/")
    page.clock.pause_at(START + datetime.timedelta(hours=1))
    page.evaluate(
        """() => {
        window.__heard = [];
        window.__closed = [];
        window.__live = Wordfall.live("/ws/test/", {
          pingEvery: 1000, firstWait: 1000, longestWait: 4000,
          message: (msg) => window.__heard.push(msg),
          closed: (why) => window.__closed.push(why),
        });
      }"""
    )
    return page


def sockets(page) -> list[dict]:
    return page.evaluate(
        "() => __sockets.filter(s => s.url.endsWith('/ws/test/')).map(s => ({state: s.readyState, sent: s.sent}))"
    )


def last_socket(page, call: str):
    return page.evaluate(f"() => __sockets.filter(s => s.url.endsWith('/ws/test/')).at(-1).{call}")


@pytest.mark.parametrize(("code", "why"), [(4401, "signed out"), (4404, "gone"), (4429, "too many pages")])
def test_a_page_socket_stops_for_good_on_the_codes_that_say_coming_back_would_not_help(driven, code, why):
    last_socket(driven, "serverOpens()")
    last_socket(driven, f"serverCloses({code})")
    driven.clock.run_for(120_000)
    assert len(sockets(driven)) == 1
    assert driven.evaluate("() => __closed") == [why]
    notice = driven.locator("[data-sockets-capped]")
    if code == 4429:
        expect(notice).to_contain_text("too many Wordfall pages open")
    else:
        expect(notice).to_have_count(0)


def test_a_dropped_socket_comes_back_waiting_longer_each_time_and_pings_while_open(driven):
    last_socket(driven, "serverOpens()")
    driven.clock.run_for(1_000)
    assert sockets(driven)[0]["sent"] == [{"type": "ping"}]
    last_socket(driven, "serverSends({type: 'hello', n: 1})")
    assert driven.evaluate("() => __heard") == [{"type": "hello", "n": 1}]
    assert driven.evaluate("() => __live.send({type: 'x'})") is True

    # Drops without ever opening again: the waits double (with up to ±50 % jitter) to the longest.
    for wait in (1_000, 2_000, 4_000, 4_000):
        count = len(sockets(driven))
        last_socket(driven, "serverCloses(1006)")
        assert driven.evaluate("() => __live.send({type: 'x'})") is False
        driven.clock.run_for(wait // 2 - 1)
        assert len(sockets(driven)) == count, "came back before half its wait"
        driven.clock.run_for(wait + 2)
        assert len(sockets(driven)) == count + 1, "did not come back within one and a half of its wait"
    assert driven.evaluate("() => __closed") == ["reconnecting"] * 4

    # Once open again, the next drop waits the shortest time again.
    last_socket(driven, "serverOpens()")
    count = len(sockets(driven))
    last_socket(driven, "serverCloses(1006)")
    driven.clock.run_for(1_501)
    assert len(sockets(driven)) == count + 1


def test_no_page_script_opens_a_socket_of_its_own():
    """So that every page stops on the same codes (a page that came back after the cap
    closed its socket would close another page's) and comes back the same way."""
    scripts = [
        path
        for folder in (ROOT / "static", ROOT / "games", ROOT / "chat", ROOT / "accounts")
        for path in folder.rglob("*.js")
        if "vendor" not in path.parts
    ]
    opening = [str(path.relative_to(ROOT)) for path in scripts if "new WebSocket" in path.read_text()]
    assert opening == ["static/js/site.js"]
    users = [path for path in scripts if "Wordfall.live(" in path.read_text() or " live(" in path.read_text()]
    assert len(users) >= 8
