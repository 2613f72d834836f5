"""Web Push in the browser: turned on in the settings, and shown by the service worker."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from accounts import webpush
from accounts.models import PushSubscription
from games.crosswords import services
from tests.conftest import LIVE_SITE_VAPID_KEY
from tests.e2e.flows import log_in
from tests.integration.test_crossword_queries import best_placement, to_move
from tests.integration.test_web_push import Device, PushService, next_push

pytestmark = pytest.mark.e2e

NOTIFICATIONS = """() => navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((shown) => shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })))"""


def test_a_push_is_shown_with_its_game(browser, live_site, transactional_db):
    """A push delivered to the site's service worker (as the browser's push service hands
    it over) shows its title and text, tagged and linked to its game on this site."""
    context = browser.new_context(base_url=live_site.url)
    context.grant_permissions(["notifications"], origin=live_site.url)
    page = context.new_page()
    try:
        page.goto("/how-to-play/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        registrations = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
        cdp.send("ServiceWorker.enable")
        deadline = page.evaluate("Date.now()") + 10000
        while not registrations and page.evaluate("Date.now()") < deadline:
            page.wait_for_timeout(50)
        registration = next(r for r in registrations if r["scopeURL"] == f"{live_site.url}/")
        message = {
            "title": "Your turn",
            "body": "ann played QUIZ for 44; your turn in Word Grid #7.",
            "url": "/games/7/",
        }
        message["tag"] = message["url"]
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": live_site.url, "registrationId": registration["registrationId"], "data": json.dumps(message)},
        )
        # wait_for_function takes a returned promise as its answer at once, so each poll
        # asks anew and reads what the last answer found.
        page.wait_for_function(
            f"""() => {{
              ({NOTIFICATIONS})().then((shown) => {{ window.shownNotifications = shown; }});
              return (window.shownNotifications || []).length > 0;
            }}"""
        )
        assert page.evaluate(NOTIFICATIONS) == [
            {"title": "Your turn", "body": message["body"], "tag": "/games/7/", "url": f"{live_site.url}/games/7/"}
        ]
    finally:
        context.close()


# The browser's push service, which a test browser cannot reach (a private browsing
# context gets none, and it is outside anyway), is the test's own: ``subscribe`` answers
# with the test's subscription, whose endpoint the test serves and whose keys it holds.
OWN_PUSH_SERVICE = """([endpoint, p256dh, auth]) => {
  let current = null;
  window.subscribedWith = null;
  const subscription = {
    endpoint,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
    unsubscribe: () => { current = null; return Promise.resolve(true); },
  };
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.subscribedWith = btoa(String.fromCharCode(...key)).replace(/[+]/g, "-").replace(/[/]/g, "_").replace(/=+$/, "");
    current = subscription;
    return Promise.resolve(subscription);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
}"""


def test_a_player_turns_notifications_on_in_the_settings_and_gets_the_turn(new_page, make_user, settings):
    """The settings page offers notifications on this device; turning them on subscribes to
    the site's key and hands the subscription to the site, whose worker then pushes the
    player's turn there, encrypted for the device (the move-to-message time is printed);
    turning them off takes the subscription back."""
    settings.WEBPUSH_VAPID_PRIVATE_KEY = LIVE_SITE_VAPID_KEY  # the moves below are made in this process
    ann, bob = make_user("ann"), make_user("bob")
    service = PushService()
    device = Device(f"{service.url}/push/ann")
    try:
        page = new_page()
        page.context.grant_permissions(["notifications"])
        log_in(page, "ann")
        page.goto("/settings/")
        state = page.locator("[data-push-state]")
        expect(state).to_have_text("Notifications are off for this device.")
        page.evaluate(
            f"({OWN_PUSH_SERVICE})", [device.endpoint, device.json["keys"]["p256dh"], device.json["keys"]["auth"]]
        )
        page.get_by_role("button", name="Turn on notifications on this device").click()
        expect(state).to_have_text("Notifications are on for this device.")
        assert page.evaluate("window.subscribedWith") == webpush.application_server_key_of(LIVE_SITE_VAPID_KEY)
        assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [device.endpoint]

        game = services.game_create(creator=bob, variant="wordgame", seconds_per_move=86400, invitees=[ann])
        assert device.read(next_push(service)[3])["title"] == "An invitation to a game"
        services.game_accept(game_id=game.pk, player=ann)
        game.refresh_from_db()
        if to_move(game) == ann:  # the opener's turn is pushed; ann passes it to bob
            assert device.read(next_push(service)[3])["title"] == "Your turn"
            services.game_pass(game_id=game.pk, player=ann, move_count=game.move_count)
            game.refresh_from_db()
        moved = time.perf_counter()
        services.game_play(
            game_id=game.pk, player=bob, placement=best_placement(game).placement, move_count=game.move_count
        )
        message = device.read(next_push(service)[3])
        print(
            f"push delivery through the live site, move to decrypted message: {(time.perf_counter() - moved) * 1000:.0f} ms"
        )
        assert message["title"] == "Your turn" and message["url"] == game.get_absolute_url()

        page.get_by_role("button", name="Turn off notifications on this device").click()
        expect(state).to_have_text("Notifications are off for this device.")
        assert not PushSubscription.objects.exists()
    finally:
        service.close()
