"""Account use cases: notifications and presence. The only code that changes them."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from config.realtime import broadcast, broadcast_on_commit, user_group

from .models import Notification, OnlineConnection, User

PRESENCE_GROUP = "presence"
# A connection that has not pinged for this long belongs to a process that died.
PRESENCE_STALE_AFTER = timedelta(seconds=90)


@transaction.atomic
def notify(
    *,
    user: User,
    kind: str,
    text: str,
    url: str = "",
    email_subject: str | None = None,
    email_body: str | None = None,
) -> Notification:
    """Tell ``user`` something in the site, and by email too if given and they opted in.

    The email and the live badge update are sent only after the caller's transaction
    commits, so a rolled-back change never notifies anyone.
    """
    notification = Notification.objects.create(user=user, kind=kind, text=text[:300], url=url)
    broadcast_on_commit(
        user_group(user.pk),
        {"type": "notification.new", "text": notification.text, "url": url, "kind": kind},
    )
    if email_subject and user.email_notifications and user.email and not user.is_bot:
        from .tasks import send_email

        transaction.on_commit(
            lambda: send_email.delay(user.email, email_subject, email_body or text)
        )
    return notification


def notifications_mark_read(*, user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())


def online_players() -> list[dict]:
    """Players with a fresh connection, by name."""
    fresh = timezone.now() - PRESENCE_STALE_AFTER
    rows = (
        OnlineConnection.objects.filter(seen_at__gte=fresh)
        .values("user__username", "user__display_name")
        .annotate(tabs=Count("id"))
        .order_by("user__username")
    )
    return [
        {"username": row["user__username"], "name": row["user__display_name"] or row["user__username"]}
        for row in rows
    ]


def presence_message() -> dict:
    players = online_players()
    return {"type": "presence.update", "count": len(players), "players": players[:50]}


def presence_connect(*, user: User, channel_name: str) -> None:
    with transaction.atomic():
        OnlineConnection.objects.update_or_create(
            channel_name=channel_name, defaults={"user": user, "seen_at": timezone.now()}
        )
    broadcast(PRESENCE_GROUP, presence_message())


def presence_touch(*, channel_name: str) -> None:
    OnlineConnection.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def presence_disconnect(*, channel_name: str) -> None:
    deleted, _ = OnlineConnection.objects.filter(channel_name=channel_name).delete()
    if deleted:
        broadcast(PRESENCE_GROUP, presence_message())


def presence_sweep() -> int:
    """Forget connections of dead processes and tell everyone who is online now."""
    deleted, _ = OnlineConnection.objects.filter(seen_at__lt=timezone.now() - PRESENCE_STALE_AFTER).delete()
    broadcast(PRESENCE_GROUP, presence_message())
    return deleted
