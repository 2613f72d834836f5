"""Applying rated results to ratings: in order per pool, each exactly once.

``ratings_apply`` takes the pool's row lock for each batch of results it applies (one
result, or up to ``BATCH`` of a backlog, earliest first), so one worker at a time applies
a pool however many run; each result's ``applied`` flag is written in the same
transaction as the new ratings, so a retried, doubly delivered or restarted task finds
it applied and does nothing. The lock also waits for any recorder holding it, so the
earliest pending result is always the next one in finishing order.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from .. import scale
from ..models import RatedPlayer, RatedResult, Rating
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


#: Results applied in one transaction when several are waiting (a backlog after an outage).
BATCH = 50


def _apply_batch(pool: str, limit: int = BATCH) -> int:
    """Apply up to ``limit`` of the earliest pending results of ``pool``, in order, in one
    transaction under the pool's lock; returns how many (0 when none is pending)."""
    with transaction.atomic():
        clock = _locked_clock(pool)
        results = list(RatedResult.objects.filter(pool=pool, applied=False).order_by("seq")[:limit])
        if not results:
            return 0
        players_of: dict[int, list[RatedPlayer]] = {result.pk: [] for result in results}
        for player in RatedPlayer.objects.filter(result__in=results).order_by("pk"):
            players_of[player.result_id].append(player)
        user_ids = {player.user_id for players in players_of.values() for player in players}
        ratings = {r.user_id: r for r in Rating.objects.select_for_update().filter(pool=pool, user_id__in=user_ids)}
        new = [Rating(user_id=user_id, pool=pool) for user_id in sorted(user_ids - set(ratings))]
        for rating in Rating.objects.bulk_create(new):
            ratings[rating.user_id] = rating
        changed = []
        for result in results:
            players = players_of[result.pk]
            if len(players) >= 2:  # fewer: a player's account was deleted before the update ran
                _rate(players, ratings, result.finished_at)
                changed.extend(players)
        _write(Rating, list(ratings.values()), _RATING_FIELDS)
        _write(RatedPlayer, changed, _PLAYER_FIELDS)
        RatedResult.objects.filter(pk__in=[result.pk for result in results]).update(
            applied=True, applied_at=timezone.now()
        )
        clock.applied = results[-1].seq
        clock.save(update_fields=["applied"])
    return len(results)


def ratings_apply(*, pool: str, limit: int | None = None) -> int:
    """Apply every pending result of ``pool`` in finishing order; returns how many."""
    applied = 0
    while limit is None or applied < limit:
        done = _apply_batch(pool, BATCH if limit is None else min(BATCH, limit - applied))
        if not done:
            break
        applied += done
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


_SQL_TYPES = {
    "FloatField": "float8",
    "IntegerField": "integer",
    "PositiveIntegerField": "integer",
    "DateTimeField": "timestamptz",
    "BigAutoField": "bigint",
}


def _write(model, rows: list, fields: list[str], batch: int = 20000) -> None:
    """Store ``fields`` of many ``rows``: on PostgreSQL one UPDATE ... FROM unnest(arrays)
    per batch, a column per array (one statement instead of one per row; bulk_update's
    CASE expressions cost milliseconds of Python per row), elsewhere bulk_update."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_update(rows, fields, batch_size=batch)
        return
    meta = model._meta
    columns = [meta.pk, *(meta.get_field(name) for name in fields)]
    arrays = ", ".join(f"%s::{_SQL_TYPES[column.get_internal_type()]}[]" for column in columns)
    names = ", ".join(column.column for column in columns)
    sets = ", ".join(f"{column.column} = v.{column.column}" for column in columns[1:])
    sql = (
        f"UPDATE {meta.db_table} AS t SET {sets} FROM unnest({arrays}) AS v({names}) "
        f"WHERE t.{meta.pk.column} = v.{meta.pk.column}"
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            cursor.execute(
                sql, [[item.pk for item in chunk], *([getattr(item, name) for item in chunk] for name in fields)]
            )


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
        _write(RatedPlayer, changed_players, _PLAYER_FIELDS)
        RatedResult.objects.filter(pool=pool, applied=False).update(applied=True, applied_at=now)
        clock.applied = results[-1].seq if results else 0
        clock.save(update_fields=["applied"])
        replayed[pool] = len(results)
    return replayed
