"""Celery tasks of tournaments: thin, idempotent calls into the services.

No task needs its message to survive: a pairing waiting for its game, a round whose
games are over and an arena's waiting players are all stored, and the sweep redoes
whatever a lost task left (the pattern is in ``config.celery``).
"""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache

from config import metrics

# Modules, not names: the services queue these tasks, so each may load first.
from . import broadcasts, services
from .models import Format, Status, Tournament


@shared_task(acks_late=True)
def start_pairing(pairing_id: int) -> bool:
    """Start a pairing's game; nothing if it has started already."""
    return services.pairing_start(pairing_id=pairing_id) is not None


@shared_task
def advance(tournament_id: int) -> str:
    """Finish a Swiss or round-robin round whose games are over and pair the next."""
    return services.advance(tournament_id=tournament_id)


@shared_task
def arena_seat(tournament_id: int) -> int:
    """Seat an arena's waiting players."""
    return len(services.arena_seat(tournament_id=tournament_id) or ())


@shared_task
def sweep() -> dict:
    """Create scheduled arenas, start and remind events on time, restart lost game starts,
    and move every running event on."""
    created = services.schedules_create()
    started = services.events_start_due()
    restarted = services.pairings_start_lost()
    metrics.caught_up(sweep, restarted)
    moved = [
        services.advance(tournament_id=tournament_id)
        for tournament_id in Tournament.objects.filter(status=Status.RUNNING)
        .exclude(format=Format.ARENA)
        .values_list("pk", flat=True)
    ]
    arenas = services.arenas_sweep()
    return {"created": created, "started": started, "restarted": restarted, "advanced": len(moved), "arenas": arenas}


@shared_task
def sweep_arenas() -> int:
    """A pass over every running arena, every couple of seconds."""
    return services.arenas_sweep()


@shared_task
def send_standings(tournament_id: int) -> None:
    """Send an event's standings after a burst of changes (``broadcasts``)."""
    cache.delete(f"tournament:{tournament_id}:later")
    broadcasts.standings_send(tournament_id)
