"""What a turn-based game row, its seats and its moves are in every game app.

Word Grid / Wordgame (``games.crosswords``) and TOW (``games.tow``) store a game the same
way: what the pure engine needs to rebuild it (seat count, seed, game number, lexicon
version and the moves in order) and the columns lists and sweeps query (status, whose
turn, the deadline and the reminder time). These abstract models hold those columns and
their meaning once; each app's concrete models add what is their own (a variant, a
house vote, a move's words or path) and name their constraints, so the tables stay
exactly as they were.
"""

from __future__ import annotations

import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q


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


#: The moves every turn-based game has, as (name, (value, label)) for an app's MoveKind
#: (``models.TextChoices("MoveKind", TURN_MOVE_KINDS + its own)``).
TURN_MOVE_KINDS = (
    ("PLACE", ("place", "Play")),
    ("SWAP", ("swap", "Swap")),
    ("PASS", ("pass", "Pass")),
    ("RESIGN", ("resign", "Resign")),
    ("FORFEIT", ("forfeit", "Forfeit")),
)


def new_seed() -> str:
    return secrets.token_hex(16)


def game_constraints(prefix: str) -> list:
    """Two to four players and at least 10 s a move (named ``<prefix>_...``)."""
    return [
        models.CheckConstraint(condition=Q(players__gte=2, players__lte=4), name=f"{prefix}_two_to_four_players"),
        models.CheckConstraint(condition=Q(seconds_per_move__gte=10), name=f"{prefix}_time_per_move_positive"),
    ]


def seat_constraints(prefix: str) -> list:
    """One seat per index, and one seat per player, at a game (named ``<prefix>_...``)."""
    return [
        models.UniqueConstraint(fields=["game", "index"], name=f"{prefix}_seat_index_unique"),
        models.UniqueConstraint(
            fields=["game", "user"], condition=Q(user__isnull=False), name=f"{prefix}_one_seat_per_player"
        ),
    ]


def move_constraints(prefix: str) -> list:
    """One move per move number of a game (named ``<prefix>_...``)."""
    return [models.UniqueConstraint(fields=["game", "number"], name=f"{prefix}_move_number_unique")]


class TurnGame(models.Model):
    """One game; ``move_count`` is the version a client names when it acts.

    ``group_prefix`` names the channel-layer group of the game's open pages.
    """

    group_prefix = ""

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
    # A ranked game changes both players' ratings (games.ratings).
    ranked = models.BooleanField(default=False)
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

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "deadline"]), models.Index(fields=["status", "remind_at"])]

    def set_deadline(self, now) -> None:
        """Start the clock of a new turn: its deadline and its reminder time."""
        self.deadline = now + timedelta(seconds=self.seconds_per_move)
        self.remind_at = self.deadline - timedelta(seconds=self.seconds_per_move * REMINDER_FRACTION)

    @property
    def group_name(self) -> str:
        """The channel-layer group of everyone looking at this game."""
        return f"{self.group_prefix}.{self.pk}"


class GameSeat(models.Model):
    """A place at a game: its player (None while an open seek waits), score and result.

    The concrete model adds ``game`` and ``user`` (their reverse names are its own)."""

    index = models.PositiveSmallIntegerField()  # the engine's 0-based seat
    accepted = models.BooleanField(default=False)
    score = models.IntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    left = models.CharField(max_length=10, blank=True)  # "resigned" or "forfeited"

    class Meta:
        abstract = True
        ordering = ["game", "index"]

    def __str__(self) -> str:
        return f"{self.game} seat {self.index + 1}: {self.user or 'open'}"


class GameMove(models.Model):
    """One applied move, in order; replaying them from the seed rebuilds the game.

    The concrete model adds ``game`` and ``kind`` (each game has its own kinds)."""

    number = models.PositiveIntegerField()  # 0-based
    seat = models.PositiveSmallIntegerField()
    # A play's tiles, [[row, col, letter, ...], ...] as the game's engine spells them.
    placement = models.JSONField(default=list, blank=True)
    tiles = models.CharField(max_length=8, blank=True)  # a swap's tiles
    score = models.IntegerField(default=0)
    rack_before = models.CharField(max_length=8, blank=True)
    rack_after = models.CharField(max_length=8, blank=True)
    reason = models.CharField(max_length=80, blank=True)  # why a forfeit happened
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"{self.game} move {self.number + 1}: {self.kind}"
