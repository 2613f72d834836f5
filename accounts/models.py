"""Players, their notifications and their open websocket connections."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db import models
from django.urls import reverse

from .validators import validate_unconfusable_username


class Lexicons(models.TextChoices):
    """The word lists a player can prefer for hunts (DESIGN.md, "Lexicons")."""

    BRITISH = "en-gb", "British"
    AMERICAN = "en-us", "American"
    BOTH = "en", "British + American"


class User(AbstractUser):
    """A player (or a moderator: ``is_staff``)."""

    username = models.CharField(
        "username",
        max_length=150,
        unique=True,
        help_text="Required. 150 characters or fewer. Letters of one alphabet, digits and @/./+/-/_ only.",
        validators=[UnicodeUsernameValidator(), validate_unconfusable_username],
        error_messages={"unique": "A user with that username already exists."},
    )
    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(max_length=40, blank=True)
    preferred_lexicon = models.CharField(max_length=8, choices=Lexicons.choices, default=Lexicons.BOTH)
    email_notifications = models.BooleanField(
        default=True, help_text="Email me when it is my turn, before a deadline and when a game ends."
    )
    is_bot = models.BooleanField(default=False, help_text="A computer player.")

    def __str__(self) -> str:
        return self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    def get_absolute_url(self) -> str:
        return reverse("profile", args=[self.username])


class Notification(models.Model):
    """Something a player should see in the site: their turn, a result, an invitation…"""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=40)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.text}"


class OnlineConnection(models.Model):
    """One open presence websocket; a player is online while any of theirs is fresh."""

    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["seen_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.channel_name}"


class AccountEmail(models.Model):
    """An account email queued to an address (sign-up, password reset, address change).

    Kept for an hour, to cap how many such emails one address gets: the pages answer the
    same whether or not an email goes, so the cap is silent.
    """

    address = models.EmailField()
    queued_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["address", "queued_at"])]

    def __str__(self) -> str:
        return f"{self.address} at {self.queued_at:%Y-%m-%d %H:%M}"
