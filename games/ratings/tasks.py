"""Celery tasks of ratings: thin calls into the services, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from config import metrics

from . import services


@shared_task(acks_late=True, autoretry_for=(DatabaseError,), retry_backoff=1, retry_backoff_max=30, max_retries=8)
def apply_ratings(pool: str) -> int:
    """Apply the pending results of ``pool`` in order; queued after a result commits."""
    return services.ratings_apply(pool=pool)


@shared_task
def sweep() -> dict:
    """Apply results whose task was lost or gave up (e.g. the worker was down)."""
    overdue, applied = services.ratings_sweep()
    # A pool's pass applies its results on time too: only the overdue ones are caught up.
    metrics.caught_up(sweep, sum(min(count, applied.get(pool, 0)) for pool, count in overdue.items()))
    return applied
