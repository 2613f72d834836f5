"""Celery tasks for hunts: thin, each calls one service.

None of them needs its message to survive: round ends and bot turns are stored on the
round, and ``sweep`` redoes whatever is overdue (the pattern is in ``config.celery``).
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task

from config import metrics
from games.hunts import services
from games.hunts.models import HuntRound
from games.hunts.services.bots import bot_play, bots_sweep


@shared_task(acks_late=True)
def end_round(round_id: int) -> bool:
    """Score a round at its deadline; safe to run twice or late."""
    ended = services.round_end(round_id=round_id)
    if ended is None:
        # Ran early (clock skew between machines): try again just after the deadline.
        deadline = HuntRound.objects.filter(pk=round_id).values_list("deadline", flat=True).first()
        if deadline is not None:
            end_round.apply_async((round_id,), eta=deadline + timedelta(milliseconds=200))
        return False
    return True


@shared_task
def bot_turn(round_id: int, user_id: int, turn: int | None = None) -> None:
    """A bot's ``turn``: one submission, and the next turn queued until the deadline.

    A second delivery, or one for a turn already played, does nothing. (A message
    without a turn, queued by an older version, is left to the sweep.)
    """
    if turn is not None:
        bot_play(round_id=round_id, user_id=user_id, turn=turn)


@shared_task(acks_late=False)
def match_ranked(pool: str | None = None) -> list[int]:
    """A matcher pass over ``pool``, or over every pool (beat, every 1.5 s, and after each
    join): it decides tables and queues a ``seat_ranked`` task for each. A pass finding
    another matcher at work on a pool skips it, so passes never pile up."""
    matchmaking = services.matchmaking
    reports = [matchmaking.match_pool(pool=pool, seat=False)] if pool else matchmaking.match_all(seat=False)
    return [report.decided for report in reports]


@shared_task
def seat_ranked(pool: str, players: list[int]) -> int | None:
    """Seat one table a matcher pass decided; a second delivery finds it seated."""
    table = services.matchmaking.seat_decided(pool=pool, players=players)
    return table.pk if table else None


@shared_task
def sweep() -> dict:
    """End rounds whose end task was lost (e.g. the worker was down); queue again the bot
    turns whose task was lost; forget dead sockets; close tables left idle."""
    ended, restarted = services.rounds_sweep(), len(bots_sweep())
    metrics.caught_up(sweep, len(ended) + restarted)
    return {
        "rounds_ended": ended,
        "bots_restarted": restarted,
        "connections_dropped": services.connection_sweep(),
        "tables_closed": services.tables_sweep(),
    }
