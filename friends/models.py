"""Who follows whom, and invitations to a hunt table (crossword invitations are games
waiting for their seats, in ``games.crosswords``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Follow(models.Model):
    """``follower`` lists ``followed`` among their friends (one way, like a bookmark)."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="friends_follow_once"),
            models.CheckConstraint(condition=~Q(follower=models.F("followed")), name="friends_follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class InvitationStatus(models.TextChoices):
    PENDING = "pending", "Waiting for an answer"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    EXPIRED = "expired", "Expired"


class HuntInvitation(models.Model):
    """A challenge to a hunt table: the challenger hosts it, the invitee may take a seat."""

    table = models.ForeignKey("hunts.HuntTable", on_delete=models.CASCADE, related_name="invitations")
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hunt_invitations")
    status = models.CharField(max_length=10, choices=InvitationStatus.choices, default=InvitationStatus.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "expires_at"])]

    def __str__(self) -> str:
        return f"{self.sender} invites {self.invitee} to {self.table}"
