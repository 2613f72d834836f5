"""Lexicons, the approved word changes that version them, and dictionary requests."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Action(models.TextChoices):
    ADD = "add", "Add"
    REMOVE = "remove", "Remove"


class Lexicon(models.Model):
    """A word list players can use; its words are the base list plus approved changes.

    ``current_version`` counts from 1 (the shipped list); each approved change makes
    the next version.  ``en`` is the union of ``en-gb`` and ``en-us``: it takes no
    requests of its own and follows their changes (see ``services``).
    """

    code = models.SlugField(max_length=16, unique=True)
    name = models.CharField(max_length=60)
    description = models.TextField(blank=True)
    current_version = models.PositiveIntegerField(default=1)
    accepts_requests = models.BooleanField(default=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "code"]

    def __str__(self) -> str:
        return self.name


class WordChange(models.Model):
    """One approved change: version ``version`` of ``lexicon`` is the previous one with it."""

    lexicon = models.ForeignKey(Lexicon, on_delete=models.PROTECT, related_name="changes")
    version = models.PositiveIntegerField()
    word = models.CharField(max_length=15)
    action = models.CharField(max_length=6, choices=Action.choices)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField()
    request = models.ForeignKey(
        "DictionaryRequest",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="changes",
    )
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["lexicon__position", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["lexicon", "version"], name="lexicon_one_change_per_version"),
            models.CheckConstraint(condition=Q(version__gte=2), name="lexicon_change_version_after_base"),
        ]

    def __str__(self) -> str:
        return f"{self.lexicon.code} v{self.version}: {self.action} {self.word}"


class Status(models.TextChoices):
    OPEN = "open", "Open"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class DictionaryRequest(models.Model):
    """A player's request to add a word to, or remove it from, one lexicon.

    At most one request for the same lexicon, word and action is open at a time; other
    players asking for the same thing become its supporters.
    """

    requester = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dictionary_requests"
    )
    lexicon = models.ForeignKey(Lexicon, on_delete=models.PROTECT, related_name="requests")
    word = models.CharField(max_length=15)
    action = models.CharField(max_length=6, choices=Action.choices)
    reason = models.TextField(max_length=500)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    supporters = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="supported_dictionary_requests",
        help_text="Other players who asked for the same change while it was open.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    moderator_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        permissions = [("moderate_dictionaryrequest", "Can approve or reject dictionary requests")]
        constraints = [
            models.UniqueConstraint(
                fields=["lexicon", "word", "action"],
                condition=Q(status="open"),
                name="lexicon_one_open_request_per_change",
            ),
        ]
        indexes = [models.Index(fields=["requester", "status"])]

    def __str__(self) -> str:
        return f"{self.action} {self.word!r} in {self.lexicon.code}"


class OffensiveWordsShown(models.Model):
    """A player who chose to see offensive words in results and suggestions (hidden by default)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    chosen_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} shows offensive words"
