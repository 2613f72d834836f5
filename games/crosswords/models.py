"""Crossword games (Word Grid, Wordgame): the game, its seats and its moves.

A game stores what the pure engine needs to rebuild its state exactly — variant, seat
count, seed, series game number, lexicon version and the moves in order — and a few
columns that lists and sweeps query (whose turn, the deadline, scores). Racks, the bag
and the board are derived by replaying the moves (``selectors.engine_state``).
"""

from __future__ import annotations

import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


class Variant(models.TextChoices):
    WORD_GRID = "wordgrid", "Word Grid"
    WORDGAME = "wordgame", "Wordgame"


class Status(models.TextChoices):
    WAITING = "waiting", "Waiting for players"
    ACTIVE = "active", "In progress"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


#: Time per move a player can choose (RULES §3, "correspondence"), in days.
DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)
#: Short times for live play; the same pages serve both.
LIVE_MINUTES_PER_MOVE = (2, 5, 10)
#: The player to move is reminded when this share of the time per move is left.
REMINDER_FRACTION = 0.2


def new_seed() -> str:
    return secrets.token_hex(16)


class Game(models.Model):
    """One crossword game; ``move_count`` is the version a client names when it moves."""

    variant = models.CharField(max_length=10, choices=Variant.choices)
    players = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, default=new_seed)
    lexicon_code = models.CharField(max_length=16)
    lexicon_version = models.PositiveIntegerField()
    # Games of one series (rematches) share ``series``; ``game_number`` counts from 1 and
    # decides who opens (RULES §3).
    series = models.UUIDField(default=uuid.uuid4, db_index=True)
    game_number = models.PositiveSmallIntegerField(default=1)
    rematch_of = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch")
    seconds_per_move = models.PositiveIntegerField()
    is_open_seek = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    move_count = models.PositiveIntegerField(default=0)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # When to remind the player to move (20 % of the time left); cleared once sent, so
    # each turn has at most one reminder.
    remind_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=40, blank=True)
    # A ranked game changes both players' ratings (games.ratings); a ranked open seek
    # takes only players rated within rating_min..rating_max (either may be open).
    ranked = models.BooleanField(default=False)
    rating_min = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(null=True, blank=True)
    # When the bot to move is due to play (its queued task's time): the sweep moves a
    # bot still waiting a grace period later (services.bots).
    bot_due_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "deadline"]), models.Index(fields=["status", "remind_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(players__gte=2, players__lte=4), name="crossword_two_to_four_players"),
            models.CheckConstraint(condition=Q(seconds_per_move__gte=10), name="crossword_time_per_move_positive"),
            models.CheckConstraint(condition=Q(ranked=False) | Q(players=2), name="crossword_ranked_two_players"),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("crosswords:game", args=[self.pk])

    def set_deadline(self, now) -> None:
        """Start the clock of a new turn: its deadline and its reminder time."""
        self.deadline = now + timedelta(seconds=self.seconds_per_move)
        self.remind_at = self.deadline - timedelta(seconds=self.seconds_per_move * REMINDER_FRACTION)

    @property
    def group_name(self) -> str:
        """The channel-layer group of everyone looking at this game."""
        return f"crossword.{self.pk}"


class Seat(models.Model):
    """A place at a game: its player (None while an open seek waits), score and result."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()  # the engine's 0-based seat
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="crossword_seats"
    )
    accepted = models.BooleanField(default=False)
    score = models.IntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    left = models.CharField(max_length=10, blank=True)  # "resigned" or "forfeited"

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="crossword_seat_index_unique"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="crossword_one_seat_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.index + 1}: {self.user or 'open'}"


class MoveKind(models.TextChoices):
    PLACE = "place", "Play"
    SWAP = "swap", "Swap"
    PASS = "pass", "Pass"
    RESIGN = "resign", "Resign"
    FORFEIT = "forfeit", "Forfeit"


class Move(models.Model):
    """One applied move, in order; replaying them from the seed rebuilds the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # 0-based
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=MoveKind.choices)
    # [[row, col, letter, is_blank], ...] for a play; the swapped tiles for a swap.
    placement = models.JSONField(default=list, blank=True)
    tiles = models.CharField(max_length=8, blank=True)
    score = models.IntegerField(default=0)
    words = models.JSONField(default=list, blank=True)  # [[word, points], ...] main word first
    rack_before = models.CharField(max_length=8, blank=True)
    rack_after = models.CharField(max_length=8, blank=True)
    redeal = models.BooleanField(default=False)
    reason = models.CharField(max_length=80, blank=True)  # why a forfeit happened
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="crossword_move_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} move {self.number + 1}: {self.kind}"


class BotStrength(models.TextChoices):
    """How well a computer player plays (``games.engine.crossword_bot``)."""

    BEGINNER = "beginner", "Beginner"
    CASUAL = "casual", "Casual"
    CLUB = "club", "Club"
    EXPERT = "expert", "Expert"


class Bot(models.Model):
    """A computer player's account: which game it plays and how well.

    Bots are ordinary accounts flagged ``is_bot`` (their profile says so, and they are
    never rated); this row says what the account plays. Word Grid has several accounts
    per strength so one game can seat two bots of the same strength.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="crossword_bot")
    variant = models.CharField(max_length=10, choices=Variant.choices)
    strength = models.CharField(max_length=10, choices=BotStrength.choices)
    number = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["variant", "strength", "number"]
        constraints = [
            models.UniqueConstraint(fields=["variant", "strength", "number"], name="crossword_bot_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.get_strength_display()} bot {self.number} ({self.get_variant_display()})"


class BotError(models.Model):
    """A bot turn the engine failed on: the bot passed instead; kept for the admins."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="bot_errors")
    move_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    strength = models.CharField(max_length=10, choices=BotStrength.choices)
    rack = models.CharField(max_length=8)
    board = models.TextField()  # the board's rows, "." for an empty square
    error = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.game} move {self.move_number + 1}: {self.error.splitlines()[-1][:80]}"


class Analysis(models.Model):
    """Post-game analysis of a finished game: one row per game, written once.

    ``moves`` holds, per stored move, what was played and the best plays of that
    position ([{"number", "seat", "played": {...}, "best": [{...}, ...], "score_loss",
    "equity_loss"}, ...]); ``summary`` holds per seat the average equity loss and the
    best play missed.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    moves = models.JSONField(default=list)
    summary = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Analysis of {self.game}"
