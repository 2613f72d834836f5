"""What Word Grid, Wordgame and TOW share on the site: one notification rule for every game
(games/notifications.py), the lobby flags of the TOW page, and both apps' services over
games/seating.py."""

from __future__ import annotations

import pytest
from django.core import mail

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
    ann, bob = make_user("ann"), make_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        word_grid = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=seconds, invitees=[bob])
        table = tow.game_create(creator=ann, seconds_per_move=seconds, invitees=[bob])
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
