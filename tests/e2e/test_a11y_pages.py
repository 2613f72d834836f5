"""axe-core on every page a player or a moderator reaches that the game-screen tests do not
cover: lobbies, My games, profiles, settings, friends, notifications, the muted list, results,
a finished crossword game and its replay, logging in, password reset and the admin."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.services import notify
from chat import services as chat_services
from friends import services as friends_services
from games.crosswords import services as crossword_services
from games.hunts import services as hunt_services
from games.tow import services as tow_services
from lexicon import services as lexicon_services
from lexicon.models import DictionaryRequest
from tests.e2e.flows import log_in
from tests.e2e.test_lexicon import axe_violations


def _check(page, paths, found: dict) -> None:
    for path in paths:
        response = page.goto(path)
        assert response.ok, (path, response.status)
        # Every page's content is in the site's (or the admin's) main landmark.
        found[path] = axe_violations(page) if page.locator("main").count() else ["no <main> landmark"]


def test_signed_out_pages_pass_axe(page, make_user):
    """Log in (blank and with an error) and the password reset pages have no axe violations."""
    make_user("ann")
    found = {}
    _check(page, ["/accounts/login/", "/accounts/password_reset/"], found)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Log in").click()
    found["log in, refused"] = axe_violations(page)
    page.goto("/accounts/password_reset/")
    page.get_by_label("Email").fill("ann@example.com")
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_url("**/done/")
    found["password reset sent"] = axe_violations(page)
    # The link from the email: choosing a new password, then done.
    ann = get_user_model().objects.get(username="ann")
    uid, token = urlsafe_base64_encode(force_bytes(ann.pk)), default_token_generator.make_token(ann)
    page.goto(f"/accounts/reset/{uid}/{token}/")
    page.wait_for_url("**/set-password/")
    found["choose a new password"] = axe_violations(page)
    page.get_by_label("New password", exact=True).fill("another-horse-42")
    page.get_by_label("New password confirmation").fill("another-horse-42")
    page.get_by_role("button", name="Set password").click()
    page.wait_for_url("**/reset/done/")
    found["password changed"] = axe_violations(page)
    assert found == {name: [] for name in found}


def test_player_pages_pass_axe(page, make_user):
    """Every page of a signed-in player outside a game screen has no axe violations."""
    ann, bob = make_user("ann"), make_user("bob")
    friends_services.follow(user=ann, username="bob")
    chat_services.mute(user=ann, username="bob")
    notify(user=ann, kind="test", text="Bob invites you to a game.", url="/games/")
    # A finished crossword game (for its game-over page and replay) and one in progress.
    over = crossword_services.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    crossword_services.game_accept(game_id=over.pk, player=bob)
    crossword_services.game_resign(game_id=over.pk, player=ann)
    live = crossword_services.game_create(creator=ann, variant="wordgame", seconds_per_move=86400, invitees=[bob])
    crossword_services.game_accept(game_id=live.pk, player=bob)
    tow = tow_services.game_create(creator=ann, seconds_per_move=86400, invitees=[bob])
    tow_services.game_accept(game_id=tow.pk, player=bob)
    # A finished hunt round against a bot (its results page).
    table = hunt_services.table_create(host=ann, game="classic", size=4, bots=("easy",))
    game_round = hunt_services.round_start(table_id=table.pk, by=ann)
    hunt_services.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))

    log_in(page, "ann")
    found = {}
    _check(
        page,
        [
            "/hunts/",
            "/hunts/daily/",
            "/games/",
            "/games/new/",
            "/tow/",
            "/u/ann/",
            "/u/bob/",
            "/settings/",
            "/friends/",
            "/friends/challenge/bob/",
            "/notifications/",
            "/chat/muted/",
            f"/hunts/rounds/{game_round.pk}/",
            f"/games/{over.pk}/",
            f"/tow/{tow.pk}/",
            "/words/requests/",
            "/ratings/",
            "/ratings/rampage/",
        ],
        found,
    )
    # The finished game's replay, stepped back to its first move.
    page.goto(f"/games/{over.pk}/")
    page.locator('[data-replay-step="first"]').click()
    found["crossword replay"] = axe_violations(page)
    # The ranked queue's panel while waiting in it.
    page.goto("/hunts/")
    page.locator("[data-pool]").first.click()
    page.locator("[data-ranked-waiting]").wait_for()
    found["hunt lobby, in the ranked queue"] = axe_violations(page)
    assert found == {name: [] for name in found}


def test_admin_pages_pass_axe(page, make_user):
    """The admin index, a change list and the dictionary request decision page have no axe violations."""
    lexicon_services.ensure_lexicons()
    make_user("mod", is_staff=True, is_superuser=True)
    ann = make_user("ann")
    lexicon_services.request_change(player=ann, lexicon_code="common", word="zorbing", action="add", reason="A sport.")
    request = DictionaryRequest.objects.get()
    log_in(page, "mod")
    found = {}
    _check(
        page,
        [
            "/admin/",
            "/admin/lexicon/dictionaryrequest/",
            f"/admin/lexicon/dictionaryrequest/{request.pk}/decide/",
            "/admin/chat/report/",
            "/admin/accounts/user/",
        ],
        found,
    )
    assert found == {name: [] for name in found}
