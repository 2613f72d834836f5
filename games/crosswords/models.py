"""Crossword games (Word Grid, Wordgame): the game, its seats and its moves.

A game stores what the pure engine needs to rebuild its state exactly — variant, seat
count, seed, series game number, lexicon version and the moves in order — and a few
columns that lists and sweeps query (whose turn, the deadline, scores). Racks, the bag
and the board are derived by replaying the moves (``selectors.engine_state``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games import models as turn_based
from games.engine import crossword

# The lobby vocabulary is every turn-based game's (games.models).
from games.models import DAYS_PER_MOVE, LIVE_MINUTES_PER_MOVE, REMINDER_FRACTION, Status

__all__ = [
    "DAYS_PER_MOVE",
    "LIVE_MINUTES_PER_MOVE",
    "REMINDER_FRACTION",
    "Analysis",
    "Bot",
    "BotError",
    "BotStrength",
    "Game",
    "Move",
    "MoveKind",
    "Seat",
    "Status",
    "Variant",
]


class Variant(models.TextChoices):
    WORD_GRID = "wordgrid", "Word Grid"
    WORDGAME = "wordgame", "Wordgame"


def pool_of(variant: str) -> str:
    """The rating pool of a game of ``variant``: the engine's name of the variant."""
    return crossword.variant_named(variant).name


class Game(turn_based.TurnGame):
    """One crossword game (``games.models.TurnGame``) of a variant."""

    game_kind = "crossword"

    variant = models.CharField(max_length=10, choices=Variant.choices)
    # A ranked open seek takes only players rated within rating_min..rating_max (either
    # may be open).
    rating_min = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta(turn_based.TurnGame.Meta):
        constraints = [
            *turn_based.game_constraints("crossword"),
            models.CheckConstraint(condition=Q(ranked=False) | Q(players=2), name="crossword_ranked_two_players"),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("crosswords:game", args=[self.pk])

    @property
    def pool(self) -> str:
        """The rating pool of the game (a casual game's too: its players' ratings there)."""
        return pool_of(self.variant)


class Seat(turn_based.GameSeat):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="crossword_seats"
    )

    class Meta(turn_based.GameSeat.Meta):
        constraints = turn_based.seat_constraints("crossword")


MoveKind = models.TextChoices("MoveKind", turn_based.TURN_MOVE_KINDS, module=__name__)


class Move(turn_based.GameMove):
    """A crossword move: a play's placement is [[row, col, letter, is_blank], ...]."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    kind = models.CharField(max_length=8, choices=MoveKind.choices)
    words = models.JSONField(default=list, blank=True)  # [[word, points], ...] main word first
    redeal = models.BooleanField(default=False)

    class Meta(turn_based.GameMove.Meta):
        constraints = turn_based.move_constraints("crossword")


class BotStrength(models.TextChoices):
    """How well a computer player plays (``games.engine.crossword_bot``)."""

    BEGINNER = "beginner", "Beginner"
    CASUAL = "casual", "Casual"
    CLUB = "club", "Club"
    EXPERT = "expert", "Expert"
    CHAMPION = "champion", "Champion"


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
