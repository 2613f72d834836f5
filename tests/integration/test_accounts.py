"""Sign-up, log-in, password reset, profile and settings through real requests."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def sign_up(client, **fields):
    data = {"username": "ann", "email": "ann@example.com", "password1": "tile-rack-2026", "password2": "tile-rack-2026"}
    data.update(fields)
    return client.post(reverse("signup"), data)


@pytest.fixture
def eager_emails(django_capture_on_commit_callbacks):
    """Queued emails are sent as soon as the transaction commits (Celery in eager mode)."""
    from config.celery import app

    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = False


def emailed_link(message) -> str:
    return re.search(r"http://localhost:8000(/\S+)", message.body).group(1)


def test_sign_up_emails_a_link_that_logs_the_player_in(client, eager_emails, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = sign_up(client)
    assert response.status_code == 200
    assert "Check your email" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert not User.objects.get(username="ann").is_active
    assert [m.to for m in mail.outbox] == [["ann@example.com"]]
    response = client.get(emailed_link(mail.outbox[0]))
    assert response.status_code == 302 and response.url == "/u/ann/"
    page = client.get(response.url)
    assert page.context["user"].username == "ann"
    assert b"Welcome, ann!" in page.content
    client.post(reverse("logout"))
    assert client.get(emailed_link(mail.outbox[0])).status_code == 400, "a link works once"


def test_an_unconfirmed_account_cannot_log_in(client, eager_emails, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        sign_up(client)
    response = client.post(reverse("login"), {"username": "ann", "password": "tile-rack-2026"})
    assert response.status_code == 200
    assert client.get("/u/ann/").status_code == 404


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"password2": "something-else-1"}, "password2", "didn’t match"),
        ({"password1": "short", "password2": "short"}, "password2", "too short"),
        ({"password1": "password123", "password2": "password123"}, "password2", "too common"),
        ({"email": "not-an-email"}, "email", "valid email"),
        ({"username": "bad name!"}, "username", "valid username"),
    ],
)
def test_sign_up_refuses_bad_input_with_a_clear_error(client, fields, field, message):
    response = sign_up(client, **fields)
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors[field])
    assert message in errors
    assert not User.objects.filter(is_bot=False).exists()


def test_a_taken_username_is_refused(client, make_user):
    make_user("ann", email="ann@example.com")
    response = sign_up(client, username="ANN", email="other@example.com")
    assert "A user with that username already exists." in response.context["form"].errors["username"]
    assert User.objects.filter(is_bot=False).count() == 1


def test_log_in_with_a_wrong_password_says_so(client, make_user):
    make_user("ann")
    response = client.post(reverse("login"), {"username": "ann", "password": "wrong-password"})
    assert response.status_code == 200
    assert "correct username and password" in str(response.context["form"].non_field_errors())


def test_log_in_and_log_out(client, make_user):
    make_user("ann")
    response = client.post(reverse("login"), {"username": "ann", "password": "correct-horse-9"})
    assert response.status_code == 302
    assert client.get("/").context["user"].is_authenticated
    client.post(reverse("logout"))
    assert not client.get("/").context["user"].is_authenticated


def test_repeated_failed_log_ins_lock_the_account_out(client, make_user, settings):
    make_user("ann")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "ann", "password": "nope"})
    response = client.post(reverse("login"), {"username": "ann", "password": "correct-horse-9"})
    assert response.status_code == 429
    assert b"Too many failed log-ins" in response.content


def test_password_reset_by_email(client, make_user, eager_emails, django_capture_on_commit_callbacks):
    make_user("ann", email="ann@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("password_reset"), {"email": "Ann@Example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = emailed_link(mail.outbox[0])
    assert link.startswith("/accounts/reset/")
    form_page = client.get(link, follow=True)
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": "brand-new-rack-7", "new_password2": "brand-new-rack-7"})
    assert response.status_code == 302
    assert User.objects.get(username="ann").check_password("brand-new-rack-7")


def test_password_reset_for_an_unknown_address_sends_nothing(client, eager_emails, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_password_change(client, make_user):
    user = make_user("ann")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "correct-horse-9",
            "new_password1": "another-good-one-3",
            "new_password2": "another-good-one-3",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another-good-one-3")


def test_settings_page_saves_preferences(client, make_user):
    user = make_user("ann")
    client.force_login(user)
    response = client.post(
        reverse("settings"),
        {
            "display_name": "Ann B",
            "email": "ann@example.com",
            "preferred_lexicon": "en-gb",
            "email_notifications": "",
            "invitation_emails": "nobody",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.preferred_lexicon, user.email_notifications) == ("Ann B", "en-gb", False)
    assert user.invitation_emails == "nobody"


def test_a_new_email_address_takes_effect_from_the_link_sent_there(
    client, make_user, eager_emails, django_capture_on_commit_callbacks
):
    user = make_user("ann", email="ann@example.com")
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("settings"),
            {"email": "ann@new.example", "preferred_lexicon": "en", "invitation_emails": "following"},
            follow=True,
        )
    assert "We sent a link to ann@new.example" in response.content.decode()
    user.refresh_from_db()
    assert user.email == "ann@example.com", "not before the link is opened"
    ((message,),) = [[m] for m in mail.outbox]
    assert message.to == ["ann@new.example"]
    link = emailed_link(message)
    assert "Your email address is now ann@new.example" in client.get(link, follow=True).content.decode()
    user.refresh_from_db()
    assert user.email == "ann@new.example"
    assert client.get(link).status_code == 409, "a link works once"


def test_settings_do_not_tell_whether_another_account_has_an_address(
    client, make_user, eager_emails, django_capture_on_commit_callbacks
):
    make_user("bob", email="bob@example.com")
    client.force_login(make_user("ann"))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("settings"),
            {"email": "Bob@Example.com", "preferred_lexicon": "en", "invitation_emails": "following"},
            follow=True,
        )
    assert "We sent a link to bob@example.com" in response.content.decode()
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["bob@example.com"], "[Wordfall] Someone tried to use your address")
    ]
    assert User.objects.get(username="ann").email == "ann@example.com"


def test_settings_need_a_signed_in_player(client):
    response = client.get(reverse("settings"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_public_profile_and_unknown_profile(client, make_user):
    make_user("ann", display_name="Ann the Bold")
    assert b"Ann the Bold" in client.get("/u/ann/").content
    response = client.get("/u/nobody/")
    assert response.status_code == 404
    assert b"No such page" in response.content


def test_home_page_offers_both_ways_to_play(client):
    content = client.get("/").content.decode()
    assert "Play a word hunt" in content
    assert "Start a Word Grid game" in content


def test_notifications_are_listed_and_marked_read(client, make_user, django_capture_on_commit_callbacks):
    from accounts.services import notify

    user = make_user("ann", email_notifications=True)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        notify(user=user, kind="turn", text="Your move against bob", url="/")
    assert callbacks, "the live badge update waits for the commit"
    client.force_login(user)
    assert client.get("/").context["unread_notifications"] == 1
    assert b"Your move against bob" in client.get(reverse("notifications")).content
    # Listed is not read: opening it is (the bell counts one fewer), or "Mark all read".
    assert client.get("/").context["unread_notifications"] == 1
    opened = client.get(reverse("notification_open", args=[user.notifications.get().pk]))
    assert opened.status_code == 302 and opened.url == "/"
    assert client.get("/").context["unread_notifications"] == 0


def test_notification_email_is_sent_only_after_commit_and_only_if_opted_in(
    make_user, django_capture_on_commit_callbacks, settings
):
    from accounts.services import notify

    settings.CELERY_TASK_ALWAYS_EAGER = True
    from config.celery import app

    app.conf.task_always_eager = True
    try:
        keen = make_user("ann", email_notifications=True)
        quiet = make_user("bob", email_notifications=False)
        with django_capture_on_commit_callbacks(execute=True):
            notify(user=keen, kind="turn", text="Your move", email_subject="Your move")
            notify(user=quiet, kind="turn", text="Your move", email_subject="Your move")
            assert mail.outbox == []
        assert [m.to for m in mail.outbox] == [["ann@example.com"]]
    finally:
        app.conf.task_always_eager = False


def test_an_unconfirmed_sign_up_is_forgotten_when_its_link_expires(client, make_user, settings):
    """After the link's lifetime the unfinished account goes and its name can be taken again."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.services import sign_ups_sweep

    sign_up(client)
    kept = make_user("bob")
    User.objects.filter(pk=kept.pk).update(date_joined=timezone.now() - timedelta(days=30))
    later = timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT - 60)
    assert sign_ups_sweep(now=later) == 0
    assert sign_ups_sweep(now=later + timedelta(minutes=2)) == 1
    assert not User.objects.filter(username="ann").exists() and User.objects.filter(username="bob").exists()
    assert sign_up(client).status_code == 200 and User.objects.filter(username="ann").exists()


@pytest.mark.django_db(transaction=True)
def test_a_bot_account_made_twice_at_once_is_one_account():
    """Two games needing the same bot at the same moment get one account, a bot with no
    password and an address that takes no mail."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from accounts.models import User
    from accounts.services import bot_account

    def make(_):
        try:
            return bot_account(username="racing-bot", display_name="Racing bot").pk
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=2) as pool:
        ids = set(pool.map(make, range(2)))
    [bot] = User.objects.filter(username="racing-bot")
    assert ids == {bot.pk} and bot.is_bot and not bot.has_usable_password()
    assert bot.email == "racing-bot@bots.invalid" and bot.display_name == "Racing bot"
