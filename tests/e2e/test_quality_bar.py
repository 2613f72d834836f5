"""Every page on a phone (390×844), a laptop (1366×768) and a desktop (1920×1080): no
sideways scrolling, no axe-core violation and no console error, on a busy site (open
tables in every lobby, games in every state); each game's board, rack and clock on the
first screen; the hunt table's layout steady while it loads and connects.

One browser context for the phone and one for the two larger screens, which is resized
on each page instead of loading it again.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from accounts.services import notify
from friends import services as friends_services
from games.crosswords import services as crossword_services
from games.crosswords.models import Game as CrosswordGame
from games.hunts import services as hunt_services
from games.hunts.models import HuntRound, HuntTable
from games.tournaments import services as tournament_services
from games.tow.models import Game as TowGame
from tests.e2e.flows import log_in
from tests.e2e.test_lexicon import axe_violations
from tests.e2e.test_page_fit import OVERFLOW, SCREENS, a_busy_site

pytestmark = pytest.mark.e2e

SIGNED_OUT = [
    "/",
    "/how-to-play/",
    "/how-to-play/rampage/",
    "/how-to-play/classic/",
    "/how-to-play/wordgrid/",
    "/how-to-play/wordgame/",
    "/how-to-play/tow/",
    "/offline/",
    "/accounts/login/",
    "/signup/",
    "/accounts/password_reset/",
    "/words/?word=colour",
    "/ratings/",
    "/ratings/classic5/",
    "/tournaments/",
    "/tournaments/how-it-works/",
]

# The layout shift of the hunt table from its first paint until it is live, with a round in play.
LAYOUT_SHIFT = """() => new Promise((resolve) => {
  let total = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => resolve(total), 500);
})"""


def everything(make_user):
    """a_busy_site, and a finished game and round, an event, an invitation and a notification."""
    ann = a_busy_site(make_user)
    users = get_user_model().objects
    bob, cy = users.get(username="bob"), users.get(username="cy")
    over = crossword_services.game_create(creator=ann, variant="wordgame", seconds_per_move=86400, invitees=[bob])
    crossword_services.game_accept(game_id=over.pk, player=bob)
    crossword_services.game_resign(game_id=over.pk, player=bob)
    finished = hunt_services.table_create(host=ann, game="classic", size=4, bots=("easy",))
    done = hunt_services.round_start(table_id=finished.pk, by=ann)
    hunt_services.round_end(round_id=done.pk, now=done.deadline + timedelta(seconds=1))
    hunt = hunt_services.table_create(host=ann, game="rampage", bots=("easy",))
    director = make_user("director")
    director.groups.add(Group.objects.get_or_create(name=tournament_services.DIRECTORS_GROUP)[0])
    event = tournament_services.tournament_create(
        director=director,
        name="Thursday Swiss for players with very long names",
        format="swiss",
        kind="crossword",
        pool="wordgrid",
        starts_at=timezone.now() + timedelta(hours=1),
        game_settings={"variant": "wordgrid", "seconds_per_move": 86400},
        rounds=2,
    )
    for user in (ann, bob, cy):
        tournament_services.entry_register(tournament_id=event.pk, user=user)
    sent = friends_services.challenge(by=make_user("dee"), username="ann", game="rampage")
    notify(user=ann, kind="test", text="Bartholomew Cholmondeley invites you to a game.", url="/games/")
    playing = CrosswordGame.objects.filter(status="active", variant="wordgrid").first()
    tow = TowGame.objects.filter(status="active").first()
    invitation = sent.invitation.pk if sent.invitation else None
    return {
        "signed_in": [
            "/",
            "/hunts/",
            "/hunts/daily/",
            f"/hunts/{hunt.pk}/",
            f"/hunts/rounds/{done.pk}/",
            "/games/",
            "/games/new/",
            "/games/bot/",
            f"/games/{playing.pk}/",
            f"/games/{over.pk}/",
            "/tow/",
            f"/tow/{tow.pk}/",
            "/u/ann/",
            "/u/bob/",
            "/settings/",
            "/friends/",
            "/friends/challenge/bob/",
            *([f"/friends/invitations/{invitation}/"] if invitation else []),
            "/notifications/",
            "/chat/muted/",
            "/words/requests/",
            "/words/changes/",
            "/tournaments/",
            f"/tournaments/{event.pk}/",
            f"/tournaments/{event.pk}/standings/",
        ],
        "screens": {
            f"/hunts/{hunt.pk}/": ("[data-board]", "[data-clock]"),
            f"/games/{playing.pk}/": ("[data-board]", "[data-rack]", "[data-deadline]"),
            f"/tow/{tow.pk}/": ("[data-viewport]", "[data-rack]", "[data-status]"),
        },
        "hunt": f"/hunts/{hunt.pk}/",
        "hunt_table": hunt.pk,
    }


def on_first_screen(page, selector: str, width: int, height: int) -> str | None:
    element = page.locator(selector).first
    if not element.count():
        return f"{selector} missing"
    box = element.bounding_box()
    if not box or box["width"] == 0:
        return f"{selector} not shown"
    if box["x"] < 0 or box["y"] < 0 or box["x"] + box["width"] > width + 0.5 or box["y"] + box["height"] > height + 0.5:
        return f"{selector} at {box} off the {width}×{height} screen"
    return None


def fresh_round(table_id: int) -> None:
    """A round just started at the table (the one before ended), so its clock runs while the page is checked."""
    table = HuntTable.objects.get(pk=table_id)
    for game_round in HuntRound.objects.filter(table=table, ended_at=None):
        hunt_services.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    hunt_services.round_start(table_id=table_id, by=table.host)


def check(page, path: str, sizes: list[str], site: dict, errors: list[str], problems: dict) -> None:
    """Load ``path`` and note what is wrong with it at each of ``sizes`` in ``problems``."""
    errors.clear()
    if path == site["hunt"]:
        fresh_round(site["hunt_table"])
    response = page.goto(path)
    assert response.ok, (path, response.status)
    page.wait_for_load_state("load")
    if path == site["hunt"]:
        expect(page.locator("[data-clock]")).to_have_text(re.compile(r"^\d:\d\d$"))
        shift = page.evaluate(LAYOUT_SHIFT)
        print(f"hunt table cumulative layout shift on the {sizes[0]}: {shift:.4f}")
        if shift >= 0.1:
            problems[f"{path} layout shift {sizes[0]}"] = round(shift, 3)
    for size in sizes:
        viewport = SCREENS[size]["viewport"]
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        found = []
        wider = page.evaluate(OVERFLOW)
        if wider:
            found.append(wider)
        for selector in site["screens"].get(path, ()):
            away = on_first_screen(page, selector, viewport["width"], viewport["height"])
            if away:
                found.append(away)
        found += axe_violations(page)
        if found:
            problems[f"{path} {size}"] = found
    page.wait_for_timeout(100)
    if errors:
        problems[f"{path} console"] = list(errors)
    print(path, {k: v for k, v in problems.items() if k.startswith(path)})


@pytest.mark.parametrize("sizes", [["phone"], ["laptop", "desktop"]], ids=["phone", "laptop-desktop"])
@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_every_page_fits_every_screen_passes_axe_and_logs_no_error(
    browser, live_site, transactional_db, make_user, sizes, signed_in
):
    """No sideways scrolling, axe violation or console error on any page at any of the three
    screens; the board, rack and clock of each game on the first screen; the hunt table's
    cumulative layout shift under 0.1."""
    site = everything(make_user) if signed_in else {"signed_in": [], "screens": {}, "hunt": None}
    problems: dict = {}
    context = browser.new_context(base_url=live_site.url, **SCREENS[sizes[0]])
    context.set_default_timeout(15000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(f"{m.text} ({m.location.get('url')})"))
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    try:
        if signed_in:
            log_in(page, "ann")
        for path in site["signed_in"] if signed_in else SIGNED_OUT:
            check(page, path, sizes, site, errors, problems)
        assert problems == {}
    finally:
        context.close()
