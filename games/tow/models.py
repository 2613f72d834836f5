"""TOW games: the game, its seats and its moves (votes included).

Like a crossword game, a TOW game stores what the pure engine needs to rebuild it — seat
count, seed, game number, lexicon (or house vote) and the moves in order — plus the
columns lists and sweeps query. The table, racks, bag and a pending vote are derived by
replaying the moves (``selectors.engine_state``).
"""

from __future__ import annotations

import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

# The game states, time choices and reminder share are Word Grid's: one lobby vocabulary.
from games.crosswords.models import DAYS_PER_MOVE, LIVE_MINUTES_PER_MOVE, REMINDER_FRACTION, Status

__all__ = ["DAYS_PER_MOVE", "LIVE_MINUTES_PER_MOVE", "Game", "Move", "MoveKind", "Seat", "Status", "WordChoice"]

#: Word checks a table can use: a lexicon, or the house vote (checked against ``en``).
HOUSE = "house"


class WordChoice(models.TextChoices):
    EN = "en", "British + American (en)"
    EN_GB = "en-gb", "British English (en-gb)"
    EN_US = "en-us", "American English (en-us)"
    HOUSE = HOUSE, "House vote (words not in en go to a vote)"


def new_seed() -> str:
    return secrets.token_hex(16)


class Game(models.Model):
    """One TOW game; ``move_count`` is the version a client names when it acts."""

    players = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, default=new_seed)
    words = models.CharField(max_length=8, choices=WordChoice.choices, default=WordChoice.EN)
    lexicon_code = models.CharField(max_length=16)  # the list words are checked against
    lexicon_version = models.PositiveIntegerField()
    series = models.UUIDField(default=uuid.uuid4, db_index=True)
    game_number = models.PositiveSmallIntegerField(default=1)
    rematch_of = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch")
    seconds_per_move = models.PositiveIntegerField()
    is_open_seek = models.BooleanField(default=False)
    ranked = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    move_count = models.PositiveIntegerField(default=0)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    # True while a house-vote play waits for votes (the deadline then closes the vote).
    voting = models.BooleanField(default=False)
    deadline = models.DateTimeField(null=True, blank=True)
    remind_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "deadline"]), models.Index(fields=["status", "remind_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(players__gte=2, players__lte=4), name="tow_two_to_four_players"),
            models.CheckConstraint(condition=Q(seconds_per_move__gte=10), name="tow_time_per_move_positive"),
        ]

    def __str__(self) -> str:
        return f"TOW #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("tow:game", args=[self.pk])

    @property
    def house_vote(self) -> bool:
        return self.words == HOUSE

    def set_deadline(self, now) -> None:
        """Start the clock of a new turn: its deadline and its reminder time."""
        self.deadline = now + timedelta(seconds=self.seconds_per_move)
        self.remind_at = self.deadline - timedelta(seconds=self.seconds_per_move * REMINDER_FRACTION)

    @property
    def group_name(self) -> str:
        return f"tow.{self.pk}"


class Seat(models.Model):
    """A place at a game: its player (None while an open seek waits), score and result."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="tow_seats"
    )
    accepted = models.BooleanField(default=False)
    score = models.IntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    left = models.CharField(max_length=10, blank=True)  # "resigned" or "forfeited"

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="tow_seat_index_unique"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="tow_one_seat_per_player"
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
    VOTE = "vote", "Vote"
    CLOSE_VOTE = "close_vote", "Vote closed"


class Move(models.Model):
    """One applied move (a vote is a move too), in order; replaying them rebuilds the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # 0-based
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=MoveKind.choices)
    placement = models.JSONField(default=list, blank=True)  # [[row, col, letter, kind], ...]
    path = models.JSONField(default=list, blank=True)  # [[row, col], ...] main word
    tiles = models.CharField(max_length=8, blank=True)  # a swap's tiles
    accept = models.BooleanField(null=True, blank=True)  # a vote's answer
    # A play: its score and itemised words and bonuses (engine ``Play.to_dict``); for a
    # house-vote play, ``accepted`` is None while the vote runs, then True or False.
    score = models.IntegerField(default=0)
    play = models.JSONField(default=dict, blank=True)
    accepted = models.BooleanField(null=True, blank=True)
    rack_before = models.CharField(max_length=8, blank=True)
    rack_after = models.CharField(max_length=8, blank=True)
    reason = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="tow_move_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} move {self.number + 1}: {self.kind}"
