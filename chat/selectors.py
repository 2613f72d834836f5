"""Chat reads: a room's recent messages as one reader sees them, and who they muted."""

from __future__ import annotations

from . import rooms
from .models import Message, Mute
from .services import chat_enabled, message_payload

HISTORY = 50


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
