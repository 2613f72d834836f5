"""Celery tasks of crossword games: thin, idempotent calls into the services.

No task needs its message to survive: deadlines, reminders and bot turns are stored on
the game and the sweeps redo whatever is overdue (the pattern is in ``config.celery``).
"""

from __future__ import annotations

from celery import shared_task

from config import metrics

from .services import analysis, bots, deadlines, moves


@shared_task
def sweep_deadlines() -> dict:
    """Forfeit players whose move deadline passed and remind those near theirs."""
    forfeited = deadlines.games_forfeit_overdue()
    reminded = deadlines.games_send_reminders()
    return {"forfeited": forfeited, "reminded": reminded}


@shared_task
def forfeit_if_overdue(game_id: int) -> bool:
    """Queued for a short (live) deadline: forfeit the player to move if it has passed."""
    return moves.game_forfeit(game_id=game_id) is not None


@shared_task(acks_late=True)
def bot_move(game_id: int, move_count: int) -> bool:
    """A bot's turn at ``move_count``; does nothing if the game has moved on (idempotent)."""
    return bots.bot_turn(game_id=game_id, move_count=move_count) is not None


@shared_task
def sweep_bots() -> int:
    """Move bots whose turn task was lost (worker down, broker restarted)."""
    moved = bots.bots_sweep()
    metrics.caught_up(sweep_bots, moved)
    return moved


@shared_task(acks_late=True)
def analyse_game(game_id: int) -> bool:
    """Analyse a finished game once; a second run finds the analysis and does nothing."""
    return analysis.game_analyse(game_id=game_id) is not None
