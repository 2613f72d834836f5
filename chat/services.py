"""Chat use cases: post, mute, report, and the moderators' hide and suspend.

The only code that writes chat rows. Posting checks, in one transaction under a lock on
the author's row (so two sockets of one player cannot both slip under the rate limit):
the room has chat and the author may read it, their chat is on and not suspended, the
text is one line of 1-300 characters, and the rate limit. Messages are stored as text
and rendered as text by the page (``textContent``), never as HTML.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.services import notify
from config.errors import Refused
from config.realtime import broadcast_on_commit

from . import rooms
from .models import MAX_LENGTH, ChatOff, Message, Mute, Report, Suspension
from .selectors import chat_enabled, message_payload, suspended_until

#: At most RATE_MESSAGES messages per RATE_SECONDS from one player, over all rooms.
RATE_MESSAGES = 5
RATE_SECONDS = 10
#: How long "Hide and suspend" takes chat away, unless the moderator says otherwise.
DEFAULT_SUSPENSION = timedelta(days=7)


MODERATORS_GROUP = "Chat moderators"
#: What a chat moderator may do in the admin: read the queue and messages, hide them,
#: resolve reports, and add or shorten suspensions.
MODERATOR_PERMISSIONS = (
    "view_report",
    "change_report",
    "view_message",
    "change_message",
    "view_suspension",
    "add_suspension",
    "change_suspension",
)


def ensure_moderators_group():
    """Create the group whose (staff) members moderate chat; idempotent."""
    from django.contrib.auth.models import Group, Permission

    group, _ = Group.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="chat", codename__in=MODERATOR_PERMISSIONS)
    )
    return group


def clean_text(text) -> str:
    """One line of printable text: control and format characters dropped, spaces collapsed."""
    if not isinstance(text, str):
        raise Refused("A chat message is text.")
    kept = "".join(
        " " if ch in "\n\r\t" else ch
        for ch in text
        if ch in "\n\r\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    return " ".join(kept.split())


@transaction.atomic
def chat_enable(*, user, enabled: bool) -> None:
    """Turn ``user``'s chat on or off (their settings); setting it twice changes nothing."""
    if enabled:
        ChatOff.objects.filter(user=user).delete()
    else:
        ChatOff.objects.get_or_create(user=user)


@transaction.atomic
def message_post(*, room: rooms.Room, user, text, now=None) -> Message:
    """Store ``text`` from ``user`` in ``room`` and send it to the room's readers."""
    now = now or timezone.now()
    if user is None or not user.is_authenticated:
        raise Refused("Sign in to chat.", 403)
    author = get_user_model().objects.select_for_update().get(pk=user.pk)
    if not rooms.has_chat(room):
        raise Refused("There is no chat here.", 404)
    if not rooms.may_read(room, author):
        raise Refused(rooms.who_may_write(room), 403)
    if not chat_enabled(author):
        raise Refused("Your chat is turned off in your settings.", 403)
    until = suspended_until(author, now)
    if until is not None:
        raise Refused(f"A moderator suspended your chat until {until:%d %b %Y %H:%M} UTC.", 403)
    text = clean_text(text)
    if not text:
        raise Refused("Write something first.")
    if len(text) > MAX_LENGTH:
        raise Refused(f"A chat message has at most {MAX_LENGTH} characters; yours has {len(text)}.")
    recent = Message.objects.filter(author=author, created_at__gt=now - timedelta(seconds=RATE_SECONDS)).count()
    if recent >= RATE_MESSAGES:
        raise Refused("You are chatting too fast; wait a few seconds.", 429)
    message = Message.objects.create(room=room.name, author=author, text=text, created_at=now)
    broadcast_on_commit(room.group, {"type": "chat.message", "room": room.name, **message_payload(message)})
    return message


def _other(username: str, user):
    other = get_user_model().objects.filter(username=username).first()
    if other is None:
        raise Refused("No such player.", 404)
    if other.pk == user.pk:
        raise Refused("You cannot mute yourself.")
    return other


@transaction.atomic
def mute(*, user, username: str) -> Mute:
    """``user`` stops seeing ``username``'s messages everywhere; muting twice is one mute."""
    other = _other(username, user)
    _mutes_changed(user)
    try:
        with transaction.atomic():
            return Mute.objects.create(muter=user, muted=other)
    except IntegrityError:
        return Mute.objects.get(muter=user, muted=other)


def _mutes_changed(user) -> None:
    """The player's open chats read their mutes again (each socket keeps them)."""
    broadcast_on_commit(rooms.reader_group(user.pk), {"type": "chat.mutes"})


@transaction.atomic
def unmute(*, user, username: str) -> bool:
    other = _other(username, user)
    deleted, _ = Mute.objects.filter(muter=user, muted=other).delete()
    if deleted:
        _mutes_changed(user)
    return bool(deleted)


@transaction.atomic
def report(*, user, message_id: int, reason: str = "") -> Report:
    """Put a message the reporter could read in the moderators' queue (once per reporter)."""
    message = Message.objects.filter(pk=message_id).first()
    if message is None or not _readable(message, user):
        raise Refused("No such message.", 404)
    if message.author_id == user.pk:
        raise Refused("You cannot report your own message.")
    reason = clean_text(reason)[:200]
    report, _ = Report.objects.get_or_create(message=message, reporter=user, defaults={"reason": reason})
    return report


def _readable(message: Message, user) -> bool:
    return rooms.may_read(_room_of(message), user)


def _room_of(message: Message) -> rooms.Room:
    kind, _, object_id = message.room.partition(".")
    return rooms.Room(kind, int(object_id))


@transaction.atomic
def message_hide(*, message_id: int, by, resolution: str = "hidden") -> Message:
    """A moderator hides a message: open pages drop it and its reports are resolved."""
    message = Message.objects.select_for_update().get(pk=message_id)
    now = timezone.now()
    if message.hidden_at is None:
        message.hidden_at = now
        message.hidden_by = by
        message.save(update_fields=["hidden_at", "hidden_by"])
        broadcast_on_commit(_room_of(message).group, {"type": "chat.hidden", "id": message.pk})
    Report.objects.filter(message=message, resolved_at__isnull=True).update(
        resolved_at=now, resolved_by=by, resolution=resolution
    )
    return message


@transaction.atomic
def suspend(*, user, by, duration: timedelta = DEFAULT_SUSPENSION, reason: str = "") -> Suspension:
    """Take chat away from ``user`` for ``duration``; they are told in the site."""
    if duration <= timedelta(0):
        raise Refused("A suspension lasts some time.")
    until = timezone.now() + duration
    suspension = Suspension.objects.create(user=user, until=until, reason=reason[:200], created_by=by)
    notify(
        user=user,
        kind="chat.suspended",
        text=f"A moderator suspended your chat until {until:%d %b %Y %H:%M} UTC."
        + (f" Reason: {reason[:150]}" if reason else ""),
    )
    return suspension


@transaction.atomic
def message_hide_and_suspend(*, message_id: int, by, duration: timedelta = DEFAULT_SUSPENSION) -> Suspension:
    message = message_hide(message_id=message_id, by=by, resolution="suspended")
    return suspend(user=message.author, by=by, duration=duration, reason="a reported chat message")


@transaction.atomic
def report_dismiss(*, report_id: int, by) -> int:
    """Close every open report of the reported message without hiding it."""
    report = Report.objects.filter(pk=report_id).first()
    if report is None:
        return 0
    return Report.objects.filter(message_id=report.message_id, resolved_at__isnull=True).update(
        resolved_at=timezone.now(), resolved_by=by, resolution="dismissed"
    )
