"""Chat at game tables: messages, mutes, reports and chat suspensions.

A room is named by a short string, ``"hunt.<table id>"`` or ``"crossword.<game id>"``
(``chat.rooms``); who may read and write it is decided there, never here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

#: Longest message a player may send, in characters.
MAX_LENGTH = 300


class Message(models.Model):
    """One chat line; ``hidden_at`` is set when a moderator hides it (it is kept for the record)."""

    room = models.CharField(max_length=40)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField()
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["room", "created_at"]), models.Index(fields=["author", "created_at"])]

    def __str__(self) -> str:
        return f"{self.author} in {self.room}: {self.text[:60]}"


class Mute(models.Model):
    """``muter`` no longer sees ``muted``'s messages, in every room, until they unmute."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~Q(muter=models.F("muted")), name="chat_mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.muter} mutes {self.muted}"


class Report(models.Model):
    """A player reported a message; open until a moderator hides the message or dismisses it."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    resolution = models.CharField(max_length=20, blank=True)  # "hidden", "suspended" or "dismissed"

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]
        indexes = [models.Index(fields=["resolved_at", "created_at"])]

    def __str__(self) -> str:
        return f"Report by {self.reporter} of message {self.message_id}"


class Suspension(models.Model):
    """A moderator took chat away from ``user`` until ``until``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_suspensions")
    until = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-until"]
        indexes = [models.Index(fields=["user", "until"])]

    def __str__(self) -> str:
        return f"{self.user} may not chat until {self.until:%Y-%m-%d %H:%M}"


class ChatOff(models.Model):
    """The player turned chat off in their settings: they neither see nor write chat."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_off")
    since = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} turned chat off"
