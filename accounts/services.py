"""Account use cases: sign-up, password resets, notifications, pushes and presence.

The only code that changes them. Emails leave through Celery after the commit, so an
answer never waits for a mail server and takes as long whether or not an address has
an account.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from config.errors import Refused
from config.realtime import broadcast, broadcast_on_commit, user_group

from . import tasks, webpush  # tasks are queued after commit; they call back into these services
from .models import PRESENCE_STALE_AFTER, AccountEmail, Notification, OnlineConnection, PushSubscription, User

logger = logging.getLogger(__name__)


@transaction.atomic
def notify(
    *,
    user: User,
    kind: str,
    text: str,
    url: str = "",
    email_subject: str | None = None,
    email_body: str | None = None,
    push_title: str | None = None,
) -> Notification:
    """Tell ``user`` something in the site, by email too if given and they opted in, and
    as a push titled ``push_title`` to the devices they turned pushes on for.

    The email, the push and the live badge update are sent only after the caller's
    transaction commits, so a rolled-back change never notifies anyone.
    """
    notification = Notification.objects.create(user=user, kind=kind, text=text[:300], url=url)
    broadcast_on_commit(
        user_group(user.pk),
        {"type": "notification.new", "text": notification.text, "url": url, "kind": kind},
    )
    if email_subject and user.email_notifications and user.email and not user.is_bot:
        transaction.on_commit(lambda: tasks.send_email.delay(user.email, email_subject, email_body or text))
    if push_title and webpush.enabled() and PushSubscription.objects.filter(user=user).exists():
        # One tag per page: a newer push about the same game replaces the older on the device.
        message = {"title": push_title, "body": notification.text, "url": url, "tag": url or kind}
        transaction.on_commit(lambda: tasks.send_push.delay(user.pk, message))
    return notification


def _key_bytes(text: str, size: int, name: str) -> None:
    try:
        decoded = webpush.b64url_decode(text)
    except ValueError:
        decoded = b""
    if len(decoded) != size or (name == "p256dh" and decoded[:1] != b"\x04"):
        raise Refused(f"The subscription's {name} key is not one a browser makes.")


@transaction.atomic
def push_subscribe(*, user: User, endpoint: str, p256dh: str, auth: str, device: str = "") -> PushSubscription:
    """Send ``user``'s pushes to the device subscribed at ``endpoint`` too.

    A device that subscribes again (new keys, or another player logged in on it) keeps
    one subscription; one device more than ``WEBPUSH_DEVICES_PER_USER`` replaces the
    player's oldest.
    """
    if not webpush.enabled():
        raise Refused("This site sends no push notifications.", 404)
    parts = urlsplit(endpoint)
    if parts.scheme not in settings.WEBPUSH_ENDPOINT_SCHEMES or not parts.hostname or len(endpoint) > 1000:
        raise Refused("A push subscription's endpoint is an HTTPS address of a push service.")
    _key_bytes(p256dh, 65, "p256dh")
    _key_bytes(auth, 16, "auth")
    User.objects.select_for_update().get(pk=user.pk)  # one device count at a time per player
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "device": device[:200]}
    )
    kept = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
    surplus = kept.values_list("pk", flat=True)[settings.WEBPUSH_DEVICES_PER_USER :]
    PushSubscription.objects.filter(pk__in=list(surplus)).delete()
    return subscription


def push_unsubscribe(*, user: User, endpoint: str) -> bool:
    """The device at ``endpoint`` gets no more of ``user``'s pushes; False if it got none."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def push_send(*, user_id: int, message: dict) -> int:
    """Push ``message`` to each of the player's devices; a subscription its push service
    no longer knows is removed. Returns how many devices it went to."""
    sent = 0
    for subscription in PushSubscription.objects.filter(user_id=user_id):
        try:
            webpush.send(
                endpoint=subscription.endpoint, p256dh=subscription.p256dh, auth=subscription.auth, message=message
            )
        except webpush.Gone:
            PushSubscription.objects.filter(pk=subscription.pk, endpoint=subscription.endpoint).delete()
        except Exception as error:  # one device's service failing does not keep the push from the others
            logger.warning("push to %s failed: %s", subscription, error)
        else:
            sent += 1
    return sent


# Account emails one address may get in an hour; more would let anyone flood an inbox
# through the sign-up, reset and address-change forms.
ACCOUNT_EMAILS_PER_HOUR = 5


def _may_email(address: str) -> bool:
    """Count an account email to ``address``; False once the hour's allowance is used."""
    now = timezone.now()
    address = address.lower()
    if AccountEmail.objects.filter(address=address, queued_at__gt=now - timedelta(hours=1)).count() >= (
        ACCOUNT_EMAILS_PER_HOUR
    ):
        return False
    AccountEmail.objects.create(address=address, queued_at=now)
    return True


def _email_on_commit(address: str, subject: str, body: str) -> None:
    if _may_email(address):
        transaction.on_commit(lambda: tasks.send_email.delay(address, subject, body))


def confirmation_days() -> int:
    return max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)


def _send_confirmation(user: User) -> None:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    link = settings.SITE_URL + reverse("signup_confirm", args=[uid, default_token_generator.make_token(user)])
    body = render_to_string(
        "accounts/email/signup_confirm.txt",
        {"user": user, "link": link, "site_name": settings.SITE_NAME, "days": confirmation_days()},
    )
    _email_on_commit(user.email, "Finish creating your account", body)


@transaction.atomic
def sign_up(*, username: str, email: str, password: str) -> None:
    """Start an account for ``email``; its owner finishes it from the emailed link.

    The answer is the same whether or not the address has an account already: the
    person who owns it gets an email either way (a link to finish a new or unfinished
    account, or a reminder of the account they have), and both ways hash the password,
    the slow step. Raises Refused only when ``username`` was taken a moment ago.
    """
    owner = User.objects.filter(email__iexact=email).first()
    if owner is None:
        user = User(username=username, email=email, is_active=False)
        user.set_password(password)
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            owner = User.objects.filter(email__iexact=email).first()
            if owner is None:
                raise Refused("That username was taken a moment ago; choose another.", 409) from None
        else:
            _send_confirmation(user)
            return
    make_password(password)
    if owner.is_bot:
        return
    if not owner.is_active and owner.last_login is None:
        _send_confirmation(owner)
        return
    body = render_to_string(
        "accounts/email/signup_existing.txt",
        {"user": owner, "site_name": settings.SITE_NAME, "site_url": settings.SITE_URL},
    )
    _email_on_commit(owner.email, "You already have an account", body)


@transaction.atomic
def sign_up_confirm(*, uidb64: str, token: str) -> User | None:
    """Activate the unfinished account the link names; None if the link is no good.

    Logging in changes what the token is made from, so a link works once; an account
    that was switched off after being used is never switched on by an old link.
    """
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (TypeError, ValueError, UnicodeDecodeError):
        return None
    user = User.objects.select_for_update().filter(pk=pk).first()
    if user is None or user.is_active or user.last_login is not None:
        return None
    if not default_token_generator.check_token(user, token):
        return None
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user


EMAIL_CHANGE_SALT = "accounts.email-change"


@transaction.atomic
def email_change_request(*, user: User, email: str) -> None:
    """Email ``user`` a link that moves their account to ``email``.

    The answer is the same whether or not another account has the address; if one has,
    its owner is told instead and no link is sent.
    """
    from django.core import signing

    owner = User.objects.filter(email__iexact=email).exclude(pk=user.pk).first()
    if owner is not None:
        if not owner.is_bot:
            body = render_to_string(
                "accounts/email/email_taken.txt",
                {"user": owner, "site_name": settings.SITE_NAME, "site_url": settings.SITE_URL},
            )
            _email_on_commit(owner.email, "Someone tried to use your address", body)
        return
    token = signing.dumps({"user": user.pk, "from": user.email, "to": email}, salt=EMAIL_CHANGE_SALT)
    link = settings.SITE_URL + reverse("email_change_confirm", args=[token])
    body = render_to_string(
        "accounts/email/email_change.txt",
        {"user": user, "link": link, "site_name": settings.SITE_NAME, "days": confirmation_days()},
    )
    _email_on_commit(email, "Confirm your new email address", body)


@transaction.atomic
def email_change_confirm(*, user: User, token: str) -> str:
    """Move ``user``'s account to the address the link names; returns it.

    Raises Refused for a link that expired, belongs to someone else, was used (the
    address changed since it was sent) or names an address taken meanwhile.
    """
    from django.core import signing

    try:
        data = signing.loads(token, salt=EMAIL_CHANGE_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        raise Refused("This link has expired or is damaged; change the address again in your settings.") from None
    user = User.objects.select_for_update().get(pk=user.pk)
    if data.get("user") != user.pk:
        raise Refused("This link is for another account.", 403)
    if user.email != data.get("from"):
        raise Refused("This link was used already, or your address changed since it was sent.", 409)
    user.email = data["to"]
    try:
        with transaction.atomic():
            user.save(update_fields=["email"])
    except IntegrityError:
        raise Refused("That address now belongs to another account.", 409) from None
    return user.email


def sign_ups_sweep(*, now=None) -> int:
    """Forget accounts whose sign-up link expired unused, so their names are free again."""
    now = now or timezone.now()
    expired = now - timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    _, deleted = User.objects.filter(
        is_active=False, last_login__isnull=True, is_bot=False, is_staff=False, date_joined__lt=expired
    ).delete()
    AccountEmail.objects.filter(queued_at__lt=now - timedelta(hours=1)).delete()
    return deleted.get(User._meta.label, 0)  # not the rows that went with them (their name claims)


def password_reset_request(*, email: str) -> None:
    """Queue a reset link for every active account of ``email`` (the worker looks them up).

    The request only queues, so it answers in the same time whether or not the address
    has an account.
    """
    with transaction.atomic():
        if _may_email(email):
            transaction.on_commit(lambda: tasks.send_password_reset.delay(email))


def password_reset_send(*, email: str) -> int:
    """Email a reset link to each active account of ``email``; returns how many."""
    from urllib.parse import urlsplit

    from django.contrib.auth.forms import PasswordResetForm

    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return 0
    site = urlsplit(settings.SITE_URL)
    users = list(form.get_users(email))
    form.save(
        domain_override=site.netloc,
        use_https=site.scheme == "https",
        extra_email_context={"site_name": settings.SITE_NAME},
    )
    return len(users)


def notifications_mark_read(*, user: User) -> int:
    """Mark all of ``user``'s notifications read ("Mark all read"); returns how many."""
    with transaction.atomic():
        count = Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())
        if count:
            _send_unread_count(user)
    return count


def notifications_seen(*, user: User, url: str) -> int:
    """Mark read ``user``'s notifications that point at ``url``, a page they have open in
    front of them: the page itself shows what each one says (a move, a result). Returns
    how many were unread."""
    if not url.startswith("/") or url.startswith("//"):
        raise Refused("A page of this site is needed.")
    with transaction.atomic():
        count = Notification.objects.filter(user=user, url=url, read_at__isnull=True).update(read_at=timezone.now())
        if count:
            _send_unread_count(user)
    return count


def notification_open(*, user: User, notification_id: int) -> Notification | None:
    """Mark one of ``user``'s notifications read as it is opened; None if it is not theirs."""
    with transaction.atomic():
        notification = Notification.objects.select_for_update().filter(user=user, pk=notification_id).first()
        if notification is not None and notification.read_at is None:
            notification.read_at = timezone.now()
            notification.save(update_fields=["read_at"])
            _send_unread_count(user)
    return notification


def _send_unread_count(user: User) -> None:
    """Every open page of ``user`` sets its bell to the unread count, once this commits."""
    count = Notification.objects.filter(user=user, read_at__isnull=True).count()
    broadcast_on_commit(user_group(user.pk), {"type": "notification.count", "count": count})


def presence_group(user_id: int) -> str:
    """The group of the sockets watching whether player ``user_id`` is online."""
    return f"presence.{user_id}"


def _fresh_connections():
    return OnlineConnection.objects.filter(seen_at__gte=timezone.now() - PRESENCE_STALE_AFTER)


def online_players(limit: int = 50) -> list[dict]:
    """Players with a fresh connection, by name, the first ``limit``."""
    rows = (
        _fresh_connections()
        .values("user__username", "user__display_name")
        .annotate(tabs=Count("id"))
        .order_by("user__username")[:limit]
    )
    return [
        {"username": row["user__username"], "name": row["user__display_name"] or row["user__username"]} for row in rows
    ]


def online_count() -> int:
    """How many players have a fresh connection: one indexed count."""
    return _fresh_connections().values("user_id").distinct().count()


def _tell_watchers(user_id: int) -> None:
    broadcast(presence_group(user_id), {"type": "presence.changed"})


def presence_connect(*, user: User, channel_name: str) -> None:
    """Record ``user``'s new socket; their watchers hear of it if it brings them online.

    Its cost is the same however many players are online: two statements and at most
    one message, to the sockets watching this player (``presence_group``).
    """
    with transaction.atomic():
        OnlineConnection.objects.update_or_create(
            channel_name=channel_name, defaults={"user": user, "seen_at": timezone.now()}
        )
        already_online = _fresh_connections().filter(user=user).exclude(channel_name=channel_name).exists()
    if not already_online:
        _tell_watchers(user.pk)


def presence_touch(*, channel_name: str) -> None:
    OnlineConnection.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def presence_disconnect(*, channel_name: str) -> None:
    """Forget the socket; the player's watchers hear of it if that was their last one."""
    with transaction.atomic():
        gone = OnlineConnection.objects.filter(channel_name=channel_name).select_for_update().first()
        if gone is None:
            return
        gone.delete()
        still_online = _fresh_connections().filter(user_id=gone.user_id).exists()
    if not still_online:
        _tell_watchers(gone.user_id)


def presence_sweep() -> int:
    """Forget connections of dead processes; watchers of players it took offline hear of it."""
    stale = OnlineConnection.objects.filter(seen_at__lt=timezone.now() - PRESENCE_STALE_AFTER)
    users = set(stale.values_list("user_id", flat=True))
    deleted, _ = stale.delete()
    for user_id in users - set(_fresh_connections().filter(user_id__in=users).values_list("user_id", flat=True)):
        _tell_watchers(user_id)
    return deleted


def bot_account(*, username: str, display_name: str) -> User:
    """The bot account ``username``, made on first use: flagged ``is_bot``, with no
    password and an address that takes no mail. Two requests making it at once make one.
    Every game's bots are such accounts (each app says which and how they play)."""
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user
    try:
        with transaction.atomic():
            user = User(username=username, email=f"{username}@bots.invalid", display_name=display_name, is_bot=True)
            user.set_unusable_password()
            user.save()
    except IntegrityError:  # made at the same moment by another request
        user = User.objects.get(username=username)
    return user
