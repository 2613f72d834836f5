"""Chat reads: a room's recent messages as one reader sees them, who they muted, and
whether their chat is on and not suspended."""

from __future__ import annotations

from django.utils import timezone

from . import rooms
from .models import ChatOff, Message, Mute, Suspension

HISTORY = 50


def chat_enabled(user) -> bool:
    return not ChatOff.objects.filter(user=user).exists()


def suspended_until(user, now=None):
    """When ``user``'s chat suspension ends, or None if they may chat."""
    now = now or timezone.now()
    suspension = Suspension.objects.filter(user=user, until__gt=now).order_by("-until").first()
    return suspension.until if suspension else None


def message_payload(message: Message) -> dict:
    author = message.author
    return {
        "id": message.pk,
        "author": author.username,
        "name": author.shown_name,
        "text": message.text,
        "at": int(message.created_at.timestamp() * 1000),
    }


def opening(room: rooms.Room, user) -> dict | None:
    """What a socket sends a reader on connect, or None when they get no chat here."""
    if not rooms.may_read(room, user) or not chat_enabled(user):
        return None
    muted = set(Mute.objects.filter(muter=user).values_list("muted_id", flat=True))
    recent = list(
        Message.objects.filter(room=room.name, hidden_at__isnull=True)
        .exclude(author_id__in=muted)
        .select_related("author")
        .order_by("-created_at", "-pk")[:HISTORY]
    )
    return {"type": "chat.history", "room": room.name, "messages": [message_payload(m) for m in reversed(recent)]}


def hides(viewer_id: int, author_username: str) -> bool:
    """Whether ``viewer_id`` muted the author (a message sent to a group is filtered per socket)."""
    return Mute.objects.filter(muter_id=viewer_id, muted__username=author_username).exists()


def muted_usernames(viewer_id: int) -> frozenset[str]:
    """Whom ``viewer_id`` muted: a chat socket keeps this and reads it again when it changes."""
    return frozenset(Mute.objects.filter(muter_id=viewer_id).values_list("muted__username", flat=True))


def muted_players(user) -> list:
    return [m.muted for m in Mute.objects.filter(muter=user).select_related("muted").order_by("muted__username")]
