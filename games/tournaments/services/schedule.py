"""Recurring arenas: beat creates each one from the admin-edited schedule, ahead of its
start, and starts the events whose time has come."""

from __future__ import annotations

import logging
import math
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import Refused

from ..models import ArenaSchedule, Format, Status, Tournament
from .events import REMINDER, tournament_create, tournament_remind, tournament_start

logger = logging.getLogger(__name__)


def schedules_create(*, now: datetime | None = None) -> int:
    """Create the arenas of every active schedule that start within its lead time. Safe to
    run twice at once: an arena is unique per schedule and start. Returns how many."""
    now = now or timezone.now()
    created = 0
    for schedule in ArenaSchedule.objects.filter(active=True):
        every = timedelta(minutes=schedule.every_minutes)
        horizon = now + timedelta(minutes=schedule.ahead_minutes)
        # The first start still to come (an arena already started is not created late).
        steps = max(0, math.ceil((now - schedule.first_start) / every))
        start = schedule.first_start + steps * every
        while start <= horizon:
            try:
                with transaction.atomic():
                    tournament_create(
                        director=None,
                        name=schedule.name,
                        format=Format.ARENA,
                        kind=schedule.kind,
                        pool=schedule.pool,
                        starts_at=start,
                        game_settings=schedule.game_settings,
                        rated=schedule.rated,
                        minutes=schedule.duration_minutes,
                        schedule=schedule,
                    )
                created += 1
            except IntegrityError:
                pass  # created already, by this beat earlier or another at the same moment
            except Refused as refused:
                # The admin's form checks a schedule; one made otherwise may still be invalid.
                logger.warning("Arena schedule %s creates no arena: %s", schedule.pk, refused.reason)
                break
            start += every
    return created


def events_start_due(*, now: datetime | None = None) -> int:
    """Start the events whose start time has come, and remind those about to start."""
    now = now or timezone.now()
    for tournament_id in Tournament.objects.filter(
        status=Status.UPCOMING, reminded_at__isnull=True, starts_at__lte=now + REMINDER, starts_at__gt=now
    ).values_list("pk", flat=True):
        tournament_remind(tournament_id=tournament_id, now=now)
    started = 0
    for tournament_id in list(
        Tournament.objects.filter(status=Status.UPCOMING, starts_at__lte=now).values_list("pk", flat=True)
    ):
        try:
            tournament_start(tournament_id=tournament_id, now=now)
            started += 1
        except Refused:
            pass  # started meanwhile by a director or another beat
    return started
