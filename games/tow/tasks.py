"""Celery tasks of TOW games: thin, idempotent calls into the services."""

from __future__ import annotations

from celery import shared_task

from config import metrics

from .services import bots, deadlines, moves


@shared_task
def sweep_deadlines() -> dict:
    """Close votes and forfeit players whose deadline passed; remind those near theirs."""
    return {"deadlines": deadlines.games_deadlines_passed(), "reminded": deadlines.games_send_reminders()}


@shared_task
def deadline_passed(game_id: int) -> bool:
    """Queued for a live game's deadline: close the vote or forfeit, if it has passed."""
    return moves.game_deadline(game_id=game_id) is not None


@shared_task(acks_late=True)
def bot_move(game_id: int) -> int:
    """Bots due in the game act; a stale or doubled task is refused and does nothing."""
    return bots.bot_turn(game_id=game_id)


@shared_task
def sweep_bots() -> int:
    """Act for bots whose turn task was lost (worker down, broker restarted)."""
    moved = bots.bots_sweep()
    metrics.caught_up(sweep_bots, moved)
    return moved
