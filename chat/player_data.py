"""A player's chat lines and mutes, for their download and their account's deletion."""

from __future__ import annotations

from .models import ChatOff, Message, Mute, Report


def export_player(user) -> dict:
    return {
        "lines": [
            {"room": m.room, "text": m.text, "at": m.created_at.isoformat(), "hidden": m.hidden_at is not None}
            for m in Message.objects.filter(author=user).order_by("created_at", "pk")
        ],
        "muted": sorted(Mute.objects.filter(muter=user).values_list("muted__username", flat=True)),
    }


def forget_player(user) -> None:
    """The player's lines go from every room (with their reports); mutes both ways, their
    reports of others and their chat settings go. Suspensions stay: moderators' record."""
    Message.objects.filter(author=user).delete()
    Mute.objects.filter(muter=user).delete()
    Mute.objects.filter(muted=user).delete()
    Report.objects.filter(reporter=user).delete()
    ChatOff.objects.filter(user=user).delete()
