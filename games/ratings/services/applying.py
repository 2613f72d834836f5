"""Applying rated results to ratings: in order per pool, each exactly once.

``ratings_apply`` takes the pool's row lock for each result it applies, so one result is
applied at a time per pool however many workers run; the result's ``applied`` flag is
written in the same transaction as the new ratings, so a retried, doubly delivered or
restarted task finds it applied and does nothing. The lock also waits for any recorder
holding it, so the earliest pending result is always the next one in finishing order.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from .. import scale
from ..models import PoolClock, RatedPlayer, RatedResult, Rating
from ..pools import POOLS
from .recording import _locked_clock


def _rate(players: list[RatedPlayer], ratings: dict[int, Rating], finished_at) -> None:
    """Update ``ratings`` (in memory) and the players' before/after from one result."""
    skills = [(ratings[p.user_id].mu, ratings[p.user_id].sigma) for p in players]
    after = scale.rate(skills, [p.place for p in players])
    outright = [p.place for p in players].count(1) == 1
    for player, (mu, sigma) in zip(players, after, strict=True):
        rating = ratings[player.user_id]
        player.mu_before, player.sigma_before, player.rating_before = rating.mu, rating.sigma, rating.rating
        rating.mu, rating.sigma, rating.rating = mu, sigma, scale.shown(mu)
        rating.games += 1
        rating.wins += int(player.place == 1 and outright)
        rating.last_played_at = finished_at
        player.mu_after, player.sigma_after, player.rating_after = mu, sigma, rating.rating


_RATING_FIELDS = ["mu", "sigma", "rating", "games", "wins", "last_played_at"]
_PLAYER_FIELDS = ["mu_before", "sigma_before", "rating_before", "mu_after", "sigma_after", "rating_after"]


def _apply_next(pool: str) -> RatedResult | None:
    """Apply the earliest pending result of ``pool`` in one transaction; None if none is."""
    with transaction.atomic():
        clock = _locked_clock(pool)
        result = RatedResult.objects.filter(pool=pool, applied=False).order_by("seq").first()
        if result is None:
            return None
        players = list(result.players.order_by("pk"))
        if len(players) < 2:  # a player's account was deleted before the update ran
            players = []
        user_ids = [p.user_id for p in players]
        ratings = {r.user_id: r for r in Rating.objects.select_for_update().filter(pool=pool, user_id__in=user_ids)}
        new = [Rating(user_id=user_id, pool=pool) for user_id in user_ids if user_id not in ratings]
        for rating in Rating.objects.bulk_create(new):
            ratings[rating.user_id] = rating
        if players:
            _rate(players, ratings, result.finished_at)
        Rating.objects.bulk_update(list(ratings.values()), _RATING_FIELDS)
        RatedPlayer.objects.bulk_update(players, _PLAYER_FIELDS)
        result.applied = True
        result.applied_at = timezone.now()
        result.save(update_fields=["applied", "applied_at"])
        clock.applied = result.seq
        clock.save(update_fields=["applied"])
    return result


def ratings_apply(*, pool: str, limit: int | None = None) -> int:
    """Apply every pending result of ``pool`` in finishing order; returns how many."""
    applied = 0
    while limit is None or applied < limit:
        if _apply_next(pool) is None:
            break
        applied += 1
    return applied


def ratings_sweep(*, now=None, grace: timedelta = timedelta(seconds=2)) -> dict[str, int]:
    """Apply the pending results of every pool with one waiting longer than ``grace``.

    The beat runs it every few seconds, so a result whose task was lost (a broker or
    worker restart) or gave up retrying is applied within seconds, by the same service.
    """
    now = now or timezone.now()
    overdue = RatedResult.objects.filter(applied=False, finished_at__lt=now - grace)
    pools = set(overdue.values_list("pool", flat=True).distinct())
    return {pool: ratings_apply(pool=pool) for pool in POOLS if pool in pools}


@transaction.atomic
def ratings_rebuild(*, pools: Iterable[str] = POOLS) -> dict[str, int]:
    """Recompute ``pools`` from scratch by replaying every rated result in finishing order.

    An administrator's repair tool and the oracle the incremental updates are tested
    against: both feed the same results, in the same order, to the same model.
    """
    replayed = {}
    for pool in pools:
        clock = _locked_clock(pool)
        Rating.objects.select_for_update().filter(pool=pool).delete()
        ratings: dict[int, Rating] = {}
        players_by_result: dict[int, list[RatedPlayer]] = {}
        for player in RatedPlayer.objects.filter(result__pool=pool).order_by("pk"):
            players_by_result.setdefault(player.result_id, []).append(player)
        results = list(RatedResult.objects.filter(pool=pool).order_by("seq"))
        now = timezone.now()
        changed_players = []
        for result in results:
            players = players_by_result.get(result.pk, [])
            if len(players) < 2:
                continue  # a player's account was deleted: nothing left to rate
            for player in players:
                ratings.setdefault(player.user_id, Rating(user_id=player.user_id, pool=pool))
            _rate(players, ratings, result.finished_at)
            changed_players.extend(players)
            if not result.applied:
                result.applied, result.applied_at = True, now
        Rating.objects.bulk_create(ratings.values(), batch_size=2000)
        RatedPlayer.objects.bulk_update(changed_players, _PLAYER_FIELDS, batch_size=2000)
        RatedResult.objects.filter(pool=pool, applied=False).update(applied=True, applied_at=now)
        clock.applied = results[-1].seq if results else 0
        clock.save(update_fields=["applied"])
        replayed[pool] = len(results)
    return replayed
