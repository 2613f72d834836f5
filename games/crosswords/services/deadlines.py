"""The deadline sweep: forfeits for missed deadlines, reminders near them.

Both are idempotent: a forfeit re-checks the deadline under the game's row lock, and a
reminder is recorded per turn (``reminded_at_move``), so a doubled or late beat tick
does nothing twice.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import ExpressionWrapper, F, DurationField
from django.utils import timezone

from ..models import Game, Status
from . import notifications
from .moves import game_forfeit

REMINDER_FRACTION = 0.2


def games_forfeit_overdue(*, now=None) -> int:
    """Forfeit every seat whose deadline passed; return how many forfeited."""
    now = now or timezone.now()
    ids = list(Game.objects.filter(status=Status.ACTIVE, deadline__lte=now)
               .values_list("pk", flat=True))
    return sum(1 for game_id in ids if game_forfeit(game_id=game_id, now=now) is not None)


def games_send_reminders(*, now=None) -> int:
    """Remind each player to move when 20 % of the time per move is left, once a turn."""
    now = now or timezone.now()
    # deadline - now <= 20 % of seconds_per_move, i.e. deadline <= now + 0.2 × time.
    window = ExpressionWrapper(
        F("seconds_per_move") * timedelta(seconds=REMINDER_FRACTION), output_field=DurationField())
    ids = list(Game.objects.filter(status=Status.ACTIVE, deadline__gt=now)
               .exclude(reminded_at_move=F("move_count"))
               .alias(window=window).filter(deadline__lte=now + F("window"))
               .values_list("pk", flat=True))
    return sum(1 for game_id in ids if _remind(game_id, now))


@transaction.atomic
def _remind(game_id: int, now) -> bool:
    game = Game.objects.select_for_update().get(pk=game_id)
    if (game.status != Status.ACTIVE or game.deadline is None or game.deadline <= now
            or game.reminded_at_move == game.move_count
            or game.deadline - now > timedelta(seconds=game.seconds_per_move * REMINDER_FRACTION)):
        return False
    game.reminded_at_move = game.move_count
    game.save(update_fields=["reminded_at_move"])
    seat = game.seats.select_related("user").get(index=game.to_move)
    notifications.reminder(game, user=seat.user, left=game.deadline - now)
    return True
