"""Players, their notifications and their open websocket connections."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.urls import reverse

from .validators import name_keys, validate_display_name, validate_unconfusable_username

#: What every deleted account shows as (``accounts.player_data``): nobody's to claim.
DELETED_NAME = "deleted player"
PASSES_FOR_ANOTHER = "This name looks like another player's name; choose another."


class NameTaken(IntegrityError):
    """A name that passes for another player's, claimed by them a moment ago."""

    def __init__(self, field: str):
        super().__init__(f"{field}: {PASSES_FOR_ANOTHER}")
        self.field = field


class Lexicons(models.TextChoices):
    """The word lists a player can prefer for hunts."""

    BRITISH = "en-gb", "British"
    AMERICAN = "en-us", "American"
    BOTH = "en", "British + American"


class InvitationEmails(models.TextChoices):
    """Whose invitations to a game a player is emailed (each is always shown in the site)."""

    ANYONE = "anyone", "From anyone"
    FOLLOWING = "following", "From players I follow"
    NOBODY = "nobody", "From nobody"


class User(AbstractUser):
    """A player (or a moderator: ``is_staff``)."""

    #: What showing a player by name reads (``shown_name``, ``name_and_username``): a list
    #: of names loads these alone (``.only(*User.NAME_FIELDS)``).
    NAME_FIELDS = ("id", "username", "display_name", "is_bot")

    username = models.CharField(
        "username",
        max_length=150,
        unique=True,
        help_text="Required. 150 characters or fewer. Letters of one alphabet, digits and @/./+/-/_ only.",
        validators=[UnicodeUsernameValidator(), validate_unconfusable_username],
        error_messages={"unique": "A user with that username already exists."},
    )
    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(
        max_length=40,
        blank=True,
        validators=[validate_display_name],
        help_text="Shown beside your username; it may not pass for another player's name.",
    )
    preferred_lexicon = models.CharField(max_length=8, choices=Lexicons.choices, default=Lexicons.BOTH)
    email_notifications = models.BooleanField(
        default=True, help_text="Email me when it is my turn, before a deadline and when a game ends."
    )
    invitation_emails = models.CharField(
        max_length=10,
        choices=InvitationEmails.choices,
        default=InvitationEmails.FOLLOWING,
        help_text="Whose invitations to a correspondence game are emailed to me; all of them show here.",
    )
    is_bot = models.BooleanField(default=False, help_text="A computer player.")

    def __str__(self) -> str:
        return self.username

    def save(self, *args, **kwargs):
        """Save, and claim what the names look like (``NameClaim``) in the same transaction:
        a name that passes for another player's, saved by them at the same instant, is
        refused here (``NameTaken``) even when both passed ``clean``."""
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and not {"username", "display_name"} & set(update_fields):
            super().save(*args, **kwargs)
            return
        with transaction.atomic():
            stored = None
            if self.pk is not None:
                stored = type(self).objects.filter(pk=self.pk).values_list("username", "display_name").first()
            super().save(*args, **kwargs)
            _claim_names(self, stored)

    def clean(self) -> None:
        """A new username, or a display name, may not pass for another player's username
        or display name (``validators.name_keys``), nor for a name the site shows for
        accounts; one's own display name may look like one's own username."""
        super().clean()
        errors = {}
        if (
            self.username
            and (self._state.adding or self._changed("username"))
            and self._passes_for_another(self.username)
        ):
            errors["username"] = PASSES_FOR_ANOTHER
        if self.display_name and self._changed("display_name") and self._passes_for_another(self.display_name):
            errors["display_name"] = PASSES_FOR_ANOTHER
        if errors:
            raise ValidationError(errors)

    def _changed(self, field: str) -> bool:
        if self.pk is None:
            return True
        stored = type(self).objects.filter(pk=self.pk).values_list(field, flat=True).first()
        return stored != getattr(self, field)

    def _passes_for_another(self, name: str) -> bool:
        keys = _keys(name)
        if keys & _keys(DELETED_NAME):
            return True
        alike = Q()
        for fold, key in keys:
            alike |= Q(fold=fold, key=key)
        claims = NameClaim.objects.filter(alike)
        return (claims.exclude(user_id=self.pk) if self.pk else claims).exists()

    @property
    def shows_site_name(self) -> bool:
        """A deleted account shows the site's name for it, which many share and none claim."""
        return not self.is_active and self.display_name == DELETED_NAME

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    @property
    def name_and_username(self) -> str:
        """The shown name with the username beside it ("Ann Lee (ann)"), or the username
        alone: what a text the site sends on the player's behalf names them by, so a
        display name alone never speaks for them. A bot's name is the site's own and is
        shown alone."""
        if self.is_bot and self.display_name:
            return self.display_name
        if not self.display_name or self.display_name == self.username:
            return self.username
        return f"{self.display_name} ({self.username})"

    def get_absolute_url(self) -> str:
        return reverse("profile", args=[self.username])


class NameClaim(models.Model):
    """One way a player's name looks, theirs alone: each of a player's names (the
    username, and the display name) claims its two keys (``validators.name_keys``), one
    row per fold, unique. Claimed in ``User.save``'s transaction, so of two players
    saving names that pass for each other at the same instant one waits for the other
    and is refused."""

    class Fold(models.TextChoices):
        CASE_FIRST = "case", "Case, then look-alikes"
        SHAPE_FIRST = "shape", "Look-alikes, then case"

    fold = models.CharField(max_length=5, choices=Fold.choices)
    key = models.TextField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_claims")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["fold", "key"], name="name_claim_one_owner")]

    def __str__(self) -> str:
        return f"{self.key} ({self.fold}) by {self.user_id}"


def _keys(name: str) -> set[tuple[str, str]]:
    return set(zip(NameClaim.Fold.values, name_keys(name), strict=True))


def _claim_names(user: User, stored: tuple[str, str] | None) -> None:
    """Make ``user``'s claims those of their names now: the old ones go, the new ones are
    inserted unless another player holds them (``ON CONFLICT DO NOTHING`` waits for a
    claim being inserted by a transaction still open). A name another player's claim
    covers is refused (``NameTaken``) unless the player had it already, from before
    names were claimed. A bot's names are the site's and shown as a bot's: a player who
    took one first does not keep the bot from being made."""
    names = {"username": user.username}
    if user.display_name and not user.shows_site_name:
        names["display_name"] = user.display_name
    wanted = {field: _keys(name) for field, name in names.items()}
    every = set().union(*wanted.values())
    mine = NameClaim.objects.filter(user=user)
    for fold, key in set(mine.values_list("fold", "key")) - every:
        mine.filter(fold=fold, key=key).delete()
    NameClaim.objects.bulk_create(
        [NameClaim(fold=fold, key=key, user=user) for fold, key in sorted(every)], ignore_conflicts=True
    )
    if user.is_bot:
        return
    held = set(mine.values_list("fold", "key"))
    before = dict(zip(("username", "display_name"), stored, strict=True)) if stored else {}
    for field, keys in wanted.items():
        if keys - held and before.get(field) != names[field]:
            raise NameTaken(field)


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


class PushSubscription(models.Model):
    """One device (a browser's service worker) that gets the player's pushes.

    ``endpoint`` is the push service's address for the device, one device's alone; the
    keys encrypt what is sent to it (``accounts.webpush``).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    device = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id} on {self.device or self.endpoint[:60]}"


#: A connection that has not pinged for this long belongs to a process that died (or a
#: page that closed without saying so).
PRESENCE_STALE_AFTER = timedelta(seconds=90)


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
