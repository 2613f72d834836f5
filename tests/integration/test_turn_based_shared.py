"""What Word Grid, Wordgame and TOW share on the site: one notification rule for every game
(games/notifications.py), the lobby flags of the TOW page, and both apps' services over
games/seating.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import Notification
from config.celery import app
from games.crosswords import services as crosswords
from games.crosswords.models import Game as CrosswordGame
from games.tow import selectors as tow_selectors
from games.tow import services as tow
from games.tow.models import Game as TowGame
from games.tow.models import Status

DAY = 86400
LIVE = 5 * 60
pytestmark = pytest.mark.django_db


@pytest.fixture
def eager(settings):
    settings.SITE_URL = "https://play.example.org"
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


def over_emails(game) -> list[str]:
    return sorted(m.to[0] for m in mail.outbox if m.subject.endswith(f"{game} is over"))


@pytest.mark.parametrize("seconds", [DAY, LIVE])
def test_the_result_is_emailed_in_live_and_correspondence_games_of_both_apps(
    make_user, django_capture_on_commit_callbacks, eager, seconds
):
    ann, bob = make_user("ann"), make_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        word_grid = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=seconds, invitees=[bob])
        crosswords.game_accept(game_id=word_grid.pk, player=bob)
        table = tow.game_create(creator=ann, seconds_per_move=seconds, invitees=[bob])
        tow.game_accept(game_id=table.pk, player=bob)
    with django_capture_on_commit_callbacks(execute=True):
        crosswords.game_resign(game_id=word_grid.pk, player=bob)
        tow.game_resign(game_id=table.pk, player=bob)
    assert over_emails(word_grid) == ["ann@example.com", "bob@example.com"]
    assert over_emails(table) == ["ann@example.com", "bob@example.com"]
    body = next(m.body for m in mail.outbox if m.subject.endswith(f"TOW #{table.pk} is over"))
    assert f"See the game: https://play.example.org/tow/{table.pk}/" in body


@pytest.mark.parametrize("seconds, emailed", [(DAY, True), (LIVE, False)])
def test_invitations_are_emailed_in_correspondence_games_only_in_both_apps(
    make_user, django_capture_on_commit_callbacks, eager, seconds, emailed
):
    ann, cy, bob = make_user("ann"), make_user("cy"), make_user("bob", invitation_emails="anyone")
    with django_capture_on_commit_callbacks(execute=True):
        word_grid = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=seconds, invitees=[bob])
        table = tow.game_create(creator=cy, seconds_per_move=seconds, invitees=[bob])
    assert Notification.objects.filter(user=bob, kind__in=["crossword.invitation", "tow.invitation"]).count() == 2
    subjects = sorted(m.subject.split("] ")[-1] for m in mail.outbox if m.to == ["bob@example.com"])
    expected = sorted([f"Invitation: Word Grid #{word_grid.pk}", f"Invitation: TOW #{table.pk}"])
    assert subjects == (expected if emailed else [])


def test_bots_are_told_nothing(make_user, django_capture_on_commit_callbacks):
    """A TOW game with a bot: its seat gets no notification, not even the result."""
    ann = make_user("ann")
    with django_capture_on_commit_callbacks(execute=False):
        table = tow.game_create(creator=ann, seconds_per_move=DAY, bots=1)
        table.refresh_from_db()
        assert table.status == Status.ACTIVE
        tow.game_resign(game_id=table.pk, player=ann)
    bot = table.seats.get(index=1).user
    assert bot.is_bot and not Notification.objects.filter(user=bot).exists()
    assert Notification.objects.filter(user=ann, kind="tow.over").exists()


def test_the_tow_page_flags_say_who_may_accept_take_a_seat_or_withdraw(make_user):
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    game = tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob], open_seats=1)
    flags = {
        user.username: {
            k: v for k, v in tow_selectors.game_view(game=game, viewer=user).items() if k.startswith("can_")
        }
        for user in (ann, bob, cat)
    }
    assert flags == {
        "ann": {"can_accept": False, "can_take_seat": False, "can_withdraw": True},
        "bob": {"can_accept": True, "can_take_seat": False, "can_withdraw": False},
        "cat": {"can_accept": False, "can_take_seat": True, "can_withdraw": False},
    }


@pytest.mark.parametrize("model", [CrosswordGame, TowGame])
def test_both_apps_decline_and_withdraw_the_same_way(make_user, model):
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    services = crosswords if model is CrosswordGame else tow
    extra = {"variant": "wordgrid"} if model is CrosswordGame else {}
    declined = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob, cat], **extra)
    services.game_decline(game_id=declined.pk, player=bob)
    withdrawn = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob], **extra)
    with pytest.raises(services.Refused, match="Only the player who created"):
        services.game_cancel(game_id=withdrawn.pk, player=bob)
    services.game_cancel(game_id=withdrawn.pk, player=ann)
    assert set(model.objects.values_list("status", flat=True)) == {Status.CANCELLED}
    kind = "crossword.cancelled" if model is CrosswordGame else "tow.cancelled"
    assert sorted(n.user.username for n in Notification.objects.filter(kind=kind)) == ["ann", "bob", "cat"]


@pytest.mark.parametrize("app_services", [crosswords, tow], ids=["crossword", "tow"])
def test_a_forfeit_that_ends_the_game_is_told_once(make_user, app_services):
    """A missed deadline that leaves one player ends the game: each player hears of it once,
    in the result, which names the forfeit; in a game that goes on the forfeiter is told."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    options = {"variant": "wordgrid"} if app_services is crosswords else {}
    duel = app_services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob], **options)
    app_services.game_accept(game_id=duel.pk, player=bob)
    trio = app_services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob, cy], **options)
    app_services.game_accept(game_id=trio.pk, player=bob)
    app_services.game_accept(game_id=trio.pk, player=cy)
    Notification.objects.all().delete()
    later = timezone.now() + timedelta(days=1, seconds=5)
    settle = app_services.game_forfeit if app_services is crosswords else app_services.game_deadline

    settle(game_id=duel.pk, now=later)
    duel.refresh_from_db()
    assert duel.status == Status.FINISHED
    told = {
        user.username: list(Notification.objects.filter(user=user).values_list("text", flat=True))
        for user in (ann, bob)
    }
    assert {name: len(texts) for name, texts in told.items()} == {"ann": 1, "bob": 1}
    assert all(texts[0].startswith(f"{duel} is over") and "forfeited" in texts[0] for texts in told.values()), told

    settle(game_id=trio.pk, now=later)
    trio.refresh_from_db()
    assert trio.status == Status.ACTIVE
    forfeiter = [seat.user for seat in trio.seats.all() if seat.left == "forfeited"]
    assert Notification.objects.filter(user__in=forfeiter, kind__endswith=".forfeit").count() == 1
