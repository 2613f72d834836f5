"""A player's data: what they may download, and what deleting their account removes.

Every part of the site that keeps something of a player's answers for its own: the game
kinds through the game-kind registry (``export_player``, ``forget_player``), the shared
parts (chat, friends, lexicon requests, ratings) through ``register`` here, called from
their ``AppConfig.ready``. This module imports none of them.

Deleting an account keeps its row, emptied: the games, results and rating histories of
the other players point at it and stay as they were, showing "deleted player". What goes:
the name, email address, password and every setting; chat lines, follows, invitations
notifications and the devices pushes went to; the player's own ratings (off the leaderboards); their unfinished
games end as if they left, so nobody waits for them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from config.errors import Refused
from games import registry

from .models import DELETED_NAME, AccountEmail, Notification, OnlineConnection, PushSubscription, User


@dataclass(frozen=True)
class Part:
    """A shared part's answer: ``export(user)`` gives JSON-ready values, ``forget(user)``
    removes what is personal (inside the deletion's transaction)."""

    name: str
    export: Callable[[User], object]
    forget: Callable[[User], None] | None = None


_parts: dict[str, Part] = {}


def register(name: str, *, export: Callable[[User], object], forget: Callable[[User], None] | None = None) -> None:
    """Add a shared part's data under ``name`` in the download (registering twice replaces)."""
    _parts[name] = Part(name, export, forget)


def is_deleted(user) -> bool:
    return user.username == deleted_username(user.pk)


def deleted_username(pk: int) -> str:
    return f"deleted-{pk}"


def deleted_among(user_ids) -> set[int]:
    """Which of ``user_ids`` are deleted accounts (one query)."""
    rows = User.objects.filter(pk__in=list(user_ids), username__startswith="deleted-").values_list("pk", "username")
    return {pk for pk, username in rows if username == deleted_username(pk)}


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def account_export(*, user: User) -> dict:
    """Everything the site keeps of ``user``'s, as JSON-ready values."""
    return {
        "exported_at": timezone.now().isoformat(),
        "account": {
            "username": user.username,
            "display_name": user.display_name,
            "email": user.email,
            "joined_at": _when(user.date_joined),
            "last_login_at": _when(user.last_login),
            "preferred_lexicon": user.preferred_lexicon,
            "email_notifications": user.email_notifications,
        },
        "notifications": [
            {"kind": n.kind, "text": n.text, "url": n.url, "at": _when(n.created_at), "read_at": _when(n.read_at)}
            for n in Notification.objects.filter(user=user).order_by("created_at", "pk")
        ],
        "push_devices": [
            {"device": d.device, "endpoint": d.endpoint, "subscribed_at": _when(d.created_at)}
            for d in PushSubscription.objects.filter(user=user).order_by("created_at", "pk")
        ],
        **{part.name: part.export(user) for part in _parts.values()},
        "games": {kind.code: export(user) for kind, export in registry.hooks("export_player")},
    }


@transaction.atomic
def account_delete(*, user: User) -> None:
    """Delete ``user``'s account: their unfinished games end as if they left, what is
    personal goes, and the row stays, emptied, for the other players' games and results."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if is_deleted(user):
        raise Refused("This account has been deleted already.", status=409)
    if user.is_bot:
        raise Refused("Computer players are not deleted this way.")
    for _, forget in registry.hooks("forget_player"):
        forget(user)
    for part in _parts.values():
        if part.forget is not None:
            part.forget(user)
    Notification.objects.filter(user=user).delete()
    OnlineConnection.objects.filter(user=user).delete()
    PushSubscription.objects.filter(user=user).delete()
    AccountEmail.objects.filter(address__iexact=user.email).delete()
    user.groups.clear()
    user.user_permissions.clear()
    user.username = deleted_username(user.pk)
    user.display_name = DELETED_NAME
    user.email = f"{deleted_username(user.pk)}@deleted.invalid"
    user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.email_notifications = False
    user.save()
