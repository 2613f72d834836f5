"""Celery tasks of crossword games: thin, idempotent calls into the services."""

from __future__ import annotations

from celery import shared_task

from .services import deadlines


@shared_task
def sweep_deadlines() -> dict:
    """Forfeit players whose move deadline passed and remind those near theirs."""
    forfeited = deadlines.games_forfeit_overdue()
    reminded = deadlines.games_send_reminders()
    return {"forfeited": forfeited, "reminded": reminded}


@shared_task
def forfeit_if_overdue(game_id: int) -> bool:
    """Queued for a short (live) deadline: forfeit the player to move if it has passed."""
    from .services.moves import game_forfeit

    return game_forfeit(game_id=game_id) is not None
