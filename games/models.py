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

from games.engine.clock import Clock


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
    """Two to four players, at least 10 s a move and a clock of some time, if any (named
    ``<prefix>_...``)."""
    return [
        models.CheckConstraint(condition=Q(players__gte=2, players__lte=4), name=f"{prefix}_two_to_four_players"),
        models.CheckConstraint(condition=Q(seconds_per_move__gte=10), name=f"{prefix}_time_per_move_positive"),
        models.CheckConstraint(
            condition=Q(clock_seconds__isnull=True) | Q(clock_seconds__gt=0), name=f"{prefix}_clock_positive"
        ),
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

    ``game_kind`` is the code of the game's kind (``games.registry``); it also names the
    channel-layer group of the game's open pages.
    """

    game_kind = ""

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
    # When a bot is due to act (its queued task's time): the sweep acts for a bot still
    # waiting a grace period later (``games.seating.bots_overdue``).
    bot_due_at = models.DateTimeField(null=True, blank=True)
    # A live game's clock (``games.engine.clock``): each player's total time (None: no
    # clock, only the time per move), the increment a move and the overtime allowed;
    # ``clock_left`` holds each seat's time left (ms) at the start of its turn, and
    # ``turn_started_at`` when the turn to move began, so the time used is the server's.
    clock_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_increment = models.PositiveIntegerField(default=0)
    clock_overtime = models.PositiveIntegerField(default=0)
    clock_left = models.JSONField(default=list, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "deadline"]), models.Index(fields=["status", "remind_at"])]

    @property
    def clock(self) -> Clock | None:
        """The game's clock, None if it has only a time per move."""
        if self.clock_seconds is None:
            return None
        return Clock(self.clock_seconds, increment=self.clock_increment, overtime=self.clock_overtime)

    def set_deadline(self, now) -> None:
        """Start the clock of a new turn: its deadline (the time per move, or sooner the
        moment the player to move loses on time) and its reminder time."""
        self.deadline = now + timedelta(seconds=self.seconds_per_move)
        clock = self.clock
        if clock is not None:
            self.turn_started_at = now
            flag = now + timedelta(milliseconds=clock.allowed(self.clock_left[self.to_move]))
            self.deadline = min(self.deadline, flag)
        self.remind_at = self.deadline - (self.deadline - now) * REMINDER_FRACTION

    @property
    def group_name(self) -> str:
        """The channel-layer group of everyone looking at this game."""
        return self.group_of(self.pk)

    @classmethod
    def group_of(cls, game_id: int) -> str:
        """``group_name`` of the game ``game_id``, without reading it."""
        return f"{cls.game_kind}.{game_id}"


class GameSeat(models.Model):
    """A place at a game: its player (None while an open seek waits), score and result.

    The concrete model adds ``game`` and ``user`` (their reverse names are its own)."""

    index = models.PositiveSmallIntegerField()  # the engine's 0-based seat
    accepted = models.BooleanField(default=False)
    # Asked by the game's creator (an invitation), not taken from an open seek: what the
    # creator's invitations an hour count (friends.limits).
    invited = models.BooleanField(default=False)
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
