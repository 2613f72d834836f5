"""Applying rated results to ratings: in order per pool, each exactly once.

``ratings_apply`` takes the pool's row lock for each batch of results it applies (one
result, or up to ``BATCH`` of a backlog, earliest first), so one worker at a time applies
a pool however many run; each result's ``applied`` flag is written in the same
transaction as the new ratings, so a retried, doubly delivered or restarted task finds
it applied and does nothing. The lock also waits for any recorder holding it, so the
earliest pending result is always the next one in finishing order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from datetime import timedelta
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from accounts.player_data import deleted_among
from config import metrics
from config.errors import Refused

from .. import fairplay, scale, summaries
from ..models import OpponentPoints, RatedPlayer, RatedResult, Rating
from ..pools import pool_codes
from .recording import _locked_clock

Taken = dict[tuple[int, int], float]


def _shares(players: list[RatedPlayer], skills: list[tuple[float, float]], after) -> dict[tuple[int, int], float]:
    """Each player's change at full weight, split among their opponents
    (``fairplay.opponent_shares``), by (player, opponent)."""
    changes = [scale.SCALE * (mu - skill[0]) for (mu, _), skill in zip(after, skills, strict=True)]
    seats = range(len(players))
    if len(players) == 2:  # the result is its own two-player result
        pairwise = {(0, 1): changes[0], (1, 0): changes[1]}
    else:
        pairwise = {}
        for first, second in itertools.combinations(seats, 2):
            places = [players[first].place, players[second].place]
            (mu_first, _), (mu_second, _) = scale.rate([skills[first], skills[second]], places)
            pairwise[first, second] = scale.SCALE * (mu_first - skills[first][0])
            pairwise[second, first] = scale.SCALE * (mu_second - skills[second][0])
    shares = {}
    for seat in seats:
        others = [other for other in seats if other != seat]
        split = fairplay.opponent_shares(changes[seat], [pairwise[seat, other] for other in others])
        for other, points in zip(others, split, strict=True):
            shares[players[seat].user_id, players[other].user_id] = points
    return shares


def _rate(players: list[RatedPlayer], ratings: dict[int, Rating], result: RatedResult, taken: Taken) -> None:
    """Update ``ratings`` (in memory) and the players' before/after from one result.

    The result counts its ``weight``: each player's mean and uncertainty move that share
    of the way to the model's new values (0: not at all, and it is no game played). The
    weight is lowered further so that no player's net change from results against one
    opponent (``taken``, shown points by (player, opponent), updated here) leaves
    ``fairplay.PAIR_POINTS``.
    """
    skills = [(ratings[p.user_id].mu, ratings[p.user_id].sigma) for p in players]
    after = scale.rate(skills, [p.place for p in players])
    weight = result.weight
    shares = _shares(players, skills, after) if weight > 0 else {}
    for pair, points in shares.items():
        weight = fairplay.pair_weight(weight, points, taken.get(pair, 0.0))
    outright = [p.place for p in players].count(1) == 1
    for player, (mu, sigma) in zip(players, after, strict=True):
        rating = ratings[player.user_id]
        player.mu_before, player.sigma_before, player.rating_before = rating.mu, rating.sigma, rating.rating
        if weight > 0:
            rating.mu += weight * (mu - rating.mu)
            rating.sigma += weight * (sigma - rating.sigma)
            rating.rating = scale.shown(rating.mu)
            rating.games += 1
            rating.wins += int(player.place == 1 and outright)
            rating.last_played_at = result.finished_at
        player.mu_after, player.sigma_after, player.rating_after = rating.mu, rating.sigma, rating.rating
    if weight > 0:
        for pair, points in shares.items():
            taken[pair] = taken.get(pair, 0.0) + weight * points


def _taken(pool: str, user_ids: set[int]) -> Taken:
    """The net shown points each of these players has taken from each other in ``pool``'s
    applied results so far."""
    rows = OpponentPoints.objects.filter(pool=pool, user_id__in=user_ids, opponent_id__in=user_ids)
    return {(user, opponent): points for user, opponent, points in rows.values_list("user_id", "opponent_id", "points")}


def _write_taken(pool: str, taken: Taken) -> None:
    OpponentPoints.objects.bulk_create(
        [
            OpponentPoints(pool=pool, user_id=user, opponent_id=opponent, points=points)
            for (user, opponent), points in taken.items()
        ],
        update_conflicts=True,
        unique_fields=["pool", "user", "opponent"],
        update_fields=["points"],
        batch_size=2000,
    )


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
        missing = user_ids - set(ratings)
        deleted = deleted_among(missing) if missing else set()
        ratings.update(_deleted_players_ratings(pool, deleted))
        new = [Rating(user_id=user_id, pool=pool) for user_id in sorted(missing - deleted)]
        for rating in Rating.objects.bulk_create(new):
            ratings[rating.user_id] = rating
        changed = []
        taken = _taken(pool, user_ids)
        for result in results:
            players = players_of[result.pk]
            if len(players) >= 2:  # fewer: a player's account was deleted before the update ran
                _rate(players, ratings, result, taken)
                changed.extend(players)
        _write(Rating, [rating for user_id, rating in ratings.items() if user_id not in deleted], _RATING_FIELDS)
        _write(RatedPlayer, changed, _PLAYER_FIELDS)
        _write_taken(pool, taken)
        applied_at = timezone.now()
        RatedResult.objects.filter(pk__in=[result.pk for result in results]).update(applied=True, applied_at=applied_at)
        summaries.forget_players(user_ids)
        lags = [(applied_at - result.finished_at).total_seconds() for result in results]
        transaction.on_commit(lambda: [metrics.RATING_LAG.labels(pool).observe(lag) for lag in lags])
        clock.applied = results[-1].seq
        clock.save(update_fields=["applied"])
    return len(results)


def _deleted_players_ratings(pool: str, user_ids: set[int]) -> dict[int, Rating]:
    """Deleted players' ratings in ``pool``, in memory only, as their last applied result
    left them: what a replay from history has for them (``ratings_rebuild``), so a result
    they finished before their account went rates the others alike either way, and no
    row of theirs comes back to the leaderboards."""
    ratings = {user_id: Rating(user_id=user_id, pool=pool) for user_id in user_ids}
    for user_id, rating in ratings.items():  # rarely any: one query each
        last = (
            RatedPlayer.objects.filter(pool=pool, user_id=user_id, result__applied=True, mu_after__isnull=False)
            .order_by("-result__seq")
            .values_list("mu_after", "sigma_after", "rating_after")
            .first()
        )
        if last is not None:
            rating.mu, rating.sigma, rating.rating = last
    return ratings


def ratings_apply(*, pool: str, limit: int | None = None) -> int:
    """Apply the results of ``pool`` pending when called, in finishing order; returns how many.

    It applies at most as many results as were pending (or ``limit``), so a call always
    ends; a result recorded meanwhile has its own task, and the sweep.
    """
    pending = RatedResult.objects.filter(pool=pool, applied=False).count()
    if limit is not None:
        pending = min(pending, limit)
    applied = 0
    while applied < pending:
        done = _apply_batch(pool, min(BATCH, pending - applied))
        if not done:
            break
        applied += done
    return applied


SWEEP_GRACE = timedelta(seconds=2)


def ratings_overdue(*, now=None, grace: timedelta = SWEEP_GRACE) -> dict[str, int]:
    """Pending results waiting longer than ``grace``, counted by pool: their own task was
    lost or is late."""
    now = now or timezone.now()
    overdue = RatedResult.objects.filter(applied=False, finished_at__lt=now - grace)
    return dict(overdue.values_list("pool").annotate(count=Count("pk")).values_list("pool", "count"))


class Swept(NamedTuple):
    """What a sweep found and did: the results ``overdue`` by pool, as ``ratings_overdue``
    counts them, and how many it ``applied`` by pool (a pool's pass applies its results
    still on time too)."""

    overdue: dict[str, int]
    applied: dict[str, int]


def ratings_sweep(*, now=None, grace: timedelta = SWEEP_GRACE) -> Swept:
    """Apply the pending results of every pool with one waiting longer than ``grace``.

    The beat runs it every few seconds, so a result whose task was lost (a broker or
    worker restart) or gave up retrying is applied within seconds, by the same service.
    """
    overdue = ratings_overdue(now=now, grace=grace)
    return Swept(overdue, {pool: ratings_apply(pool=pool) for pool in pool_codes() if pool in overdue})


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
def ratings_rebuild(*, pools: Iterable[str] | None = None) -> dict[str, int]:
    """Recompute ``pools`` (every pool by default) from scratch by replaying every rated
    result in finishing order.

    An administrator's repair tool and the oracle the incremental updates are tested
    against: both feed the same results, in the same order, to the same model. Deleted
    players are rated in memory, for the others' sake, and stored nowhere.
    """
    replayed = {}
    summaries.forget_everyone()
    for pool in pool_codes() if pools is None else pools:
        clock = _locked_clock(pool)
        Rating.objects.select_for_update().filter(pool=pool).delete()
        OpponentPoints.objects.filter(pool=pool).delete()
        ratings: dict[int, Rating] = {}
        players_by_result: dict[int, list[RatedPlayer]] = {}
        for player in RatedPlayer.objects.filter(result__pool=pool).order_by("pk"):
            players_by_result.setdefault(player.result_id, []).append(player)
        results = list(RatedResult.objects.filter(pool=pool).order_by("seq"))
        now = timezone.now()
        changed_players = []
        taken: Taken = {}
        for result in results:
            players = players_by_result.get(result.pk, [])
            if len(players) < 2:
                continue  # a player's account was deleted: nothing left to rate
            for player in players:
                ratings.setdefault(player.user_id, Rating(user_id=player.user_id, pool=pool))
            _rate(players, ratings, result, taken)
            changed_players.extend(players)
            if not result.applied:
                result.applied, result.applied_at = True, now
        deleted = deleted_among(ratings)
        Rating.objects.bulk_create(
            [rating for user_id, rating in ratings.items() if user_id not in deleted], batch_size=2000
        )
        _write(RatedPlayer, changed_players, _PLAYER_FIELDS)
        _write_taken(pool, taken)
        RatedResult.objects.filter(pool=pool, applied=False).update(applied=True, applied_at=now)
        clock.applied = results[-1].seq if results else 0
        clock.save(update_fields=["applied"])
        replayed[pool] = len(results)
    return replayed


@transaction.atomic
def result_void(*, result_id: int, by, reason: str = "") -> RatedResult:
    """Staff void a result: it counts for nothing from now on, and its pool is replayed
    from history (``ratings_rebuild``, under the pool's lock) so every later result is
    applied again, in order, exactly once, as if it had never counted."""
    result = RatedResult.objects.filter(pk=result_id).first()
    if result is None:
        raise Refused("No such result.", 404)
    _locked_clock(result.pool)
    result = RatedResult.objects.select_for_update().get(pk=result_id)
    if result.voided_at is not None:
        raise Refused("This result is voided already.", 409)
    result.weight = 0.0
    result.reason = f"Voided by staff{': ' + reason.strip() if reason.strip() else ''}."[:200]
    result.voided_at, result.voided_by = timezone.now(), by
    result.save(update_fields=["weight", "reason", "voided_at", "voided_by"])
    ratings_rebuild(pools=[result.pool])
    return result
