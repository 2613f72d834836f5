"""Ratings per player and pool, and the rated results that change them.

A finished ranked game between people is recorded as a ``RatedResult`` in the same
transaction that finishes it, numbered per pool (``seq``) under the pool's row lock, so
the numbering is the order in which results committed. The worker applies results of a
pool strictly in that order, each exactly once (``applied``), writing each player's
before/after into ``RatedPlayer``; ``Rating`` holds the current value.

Only ``games.ratings.services`` writes these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games import registry

from . import scale
from .pools import pool_choices


class PoolClock(models.Model):
    """One row per pool: the last result number handed out; locked to record or apply."""

    pool = models.CharField(max_length=10, choices=pool_choices, primary_key=True)
    recorded = models.PositiveBigIntegerField(default=0)
    applied = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.pool}: {self.applied}/{self.recorded} applied"


class Rating(models.Model):
    """A player's current skill in one pool; no row means a new player (the default)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    pool = models.CharField(max_length=10, choices=pool_choices)
    mu = models.FloatField(default=scale.MU)
    sigma = models.FloatField(default=scale.SIGMA)
    rating = models.IntegerField(default=scale.BASE, help_text="The shown number, from mu.")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "pool"], name="rating_one_per_pool")]
        indexes = [models.Index(fields=["pool", "-rating", "user"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} {self.pool} {self.rating}"

    @property
    def provisional(self) -> bool:
        return scale.is_provisional(self.games)


def kind_choices() -> list[tuple[str, str]]:
    """(code, name) of every game kind (``games.registry``): what a result is of."""
    return [(kind.code, kind.name) for kind in registry.kinds()]


class RatedResult(models.Model):
    """A finished ranked game between people, waiting for (or done with) its rating update."""

    pool = models.CharField(max_length=10, choices=pool_choices)
    seq = models.PositiveBigIntegerField(help_text="Order of finishing within the pool, from 1.")
    kind = models.CharField(max_length=10, choices=kind_choices)
    object_id = models.PositiveBigIntegerField(help_text="What finished, as its kind names it (a game, a hunt round).")
    url = models.CharField(max_length=200, blank=True)
    finished_at = models.DateTimeField()
    applied = models.BooleanField(default=False)
    applied_at = models.DateTimeField(null=True, blank=True)
    # How much the result counts (games.ratings.fairplay): 1 in full, less for a pair that
    # keeps meeting, 0 not at all; ``reason`` says why when not in full. Decided when it
    # is recorded (or voided by staff), so a replay of the pool applies the same.
    weight = models.FloatField(default=1.0)
    reason = models.CharField(max_length=200, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["pool", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "seq"], name="rated_result_seq_per_pool"),
            models.UniqueConstraint(fields=["kind", "object_id"], name="rated_result_once_per_game"),
        ]
        indexes = [models.Index(fields=["pool", "seq"], condition=Q(applied=False), name="rated_result_pending")]

    def __str__(self) -> str:
        return f"{self.pool} #{self.seq} ({self.kind} {self.object_id})"

    @property
    def rated(self) -> bool:
        return self.weight > 0


class RatedPlayer(models.Model):
    """One player's finish in a rated result and the rating change it made."""

    result = models.ForeignKey(RatedResult, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rated_results")
    # Copies of the result's, so a player's history reads this table alone (a profile
    # joining thousands of results was the slowest part of the page).
    pool = models.CharField(max_length=10, choices=pool_choices)
    finished_at = models.DateTimeField()
    place = models.PositiveSmallIntegerField(help_text="1 is first; equal places tie; leavers last.")
    score = models.IntegerField(default=0)
    left = models.BooleanField(default=False, help_text="Forfeited, resigned or left early.")
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)
    rating_before = models.IntegerField(null=True, blank=True)
    rating_after = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["result", "place", "pk"]
        constraints = [models.UniqueConstraint(fields=["result", "user"], name="rated_player_once")]
        indexes = [
            models.Index(fields=["user", "result"]),
            models.Index(fields=["user", "pool", "result"], name="ratings_rat_user_id_pool_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.result}"

    @property
    def change(self) -> int | None:
        if self.rating_after is None or self.rating_before is None:
            return None
        return self.rating_after - self.rating_before


class OpponentPoints(models.Model):
    """The net shown points ``user`` has taken in a pool from results against ``opponent``:
    the sum of their shares of each result (``fairplay.opponent_shares``), which the pair
    limit bounds. Written with the ratings, under the pool's lock; ``ratings_rebuild``
    rewrites a pool's from history."""

    pool = models.CharField(max_length=10, choices=pool_choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    points = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pool", "user", "opponent"], name="opponent_points_once_per_pair")
        ]

    def __str__(self) -> str:
        return f"{self.user} from {self.opponent} in {self.pool}: {self.points:+.0f}"
